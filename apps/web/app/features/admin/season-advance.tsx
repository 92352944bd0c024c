import { formatPrice } from "@game/core/format";
import { useFetcher } from "@remix-run/react";
import { AdminTable, num } from "./admin-table";
import { SEASON_ADVANCE_INTENT } from "./forms";
import type { SeasonAdvanceResult } from "./season.server";

const signed = (v: number) => (v > 0 ? `+${formatPrice(v)}` : v < 0 ? `-${formatPrice(-v)}` : "0");

/**
 * "Advance season" on the events page, in two steps: the button shows exactly what the advance
 * will do (a dry run of the same service, every price change, biggest rise first) and asks to
 * confirm it; only the confirmation advances, and only from and to the rounds it showed. Works
 * without JavaScript: the page then renders the action's answer (`posted`). With several
 * competitions running, the admin picks the one to advance.
 */
export function SeasonAdvance({
  posted,
  competitions,
}: {
  posted?: SeasonAdvanceResult;
  /** The competitions with an open round (slug and name): the one to advance is chosen. */
  competitions: { slug: string; name: string }[];
}) {
  const fetcher = useFetcher<SeasonAdvanceResult>({ key: "season-advance" });
  const busy = fetcher.state !== "idle";
  const result = fetcher.data ?? posted;
  const preview = result?.ok && result.summary.dryRun ? result.summary : undefined;
  return (
    <section className="panel" aria-labelledby="season-title">
      <h2 id="season-title">Season</h2>
      <p className="muted">
        Once the open round of a competition has been scored, advance its season: the round closes,
        the next one opens with every racer at a new price (the rule on the About page) and every
        player's team carried over at the prices they paid. You will see what it does and confirm it
        before anything changes.
      </p>
      <fetcher.Form method="post" className="admin-event-fields">
        <input type="hidden" name="intent" value={SEASON_ADVANCE_INTENT} />
        <input type="hidden" name="confirm" value="no" />
        {competitions.length > 1 ? (
          <div className="field">
            <label htmlFor="season-competition">Competition</label>
            <select
              id="season-competition"
              name="competition"
              defaultValue={preview?.competition ?? competitions[0]!.slug}
            >
              {competitions.map((c) => (
                <option key={c.slug} value={c.slug}>
                  {c.name}
                </option>
              ))}
            </select>
          </div>
        ) : competitions.length === 1 ? (
          <input type="hidden" name="competition" value={competitions[0]!.slug} />
        ) : null}
        <label className="checkbox">
          <input type="checkbox" name="force" value="yes" /> Advance before results are settled
          (only after the lock)
        </label>
        <button type="submit" className="button button--primary" disabled={busy}>
          {busy && !preview ? "Working..." : "Advance season"}
        </button>
      </fetcher.Form>
      <div role="status" aria-live="polite">
        {result && !result.ok ? <p className="form-error">{result.error}</p> : null}
        {result?.ok ? <AdvanceReport summary={result.summary} /> : null}
      </div>
      {preview ? (
        <fetcher.Form
          method="post"
          className="admin-event-fields season-confirm"
          aria-label="Confirm the advance"
        >
          <input type="hidden" name="intent" value={SEASON_ADVANCE_INTENT} />
          <input type="hidden" name="confirm" value="yes" />
          <input type="hidden" name="from" value={preview.from.id} />
          <input type="hidden" name="to" value={preview.to.id} />
          <input type="hidden" name="competition" value={preview.competition} />
          {preview.forced ? <input type="hidden" name="force" value="yes" /> : null}
          <p>
            <strong>
              Advance {preview.series} from {preview.from.name} to {preview.to.name}?
            </strong>{" "}
            This closes {preview.from.name} and opens {preview.to.name} for every player.
          </p>
          <button type="submit" className="button button--primary" disabled={busy}>
            {busy ? "Advancing..." : `Yes, open ${preview.to.name}`}
          </button>
          <a className="button" href="/admin/events">
            Cancel
          </a>
        </fetcher.Form>
      ) : null}
    </section>
  );
}

function AdvanceReport({
  summary: s,
}: {
  summary: Extract<SeasonAdvanceResult, { ok: true }>["summary"];
}) {
  const moved = s.prices.filter((p) => p.change !== 0).length;
  return (
    <div className="admin-result admin-result--ok">
      <p>
        {s.dryRun ? "Preview (nothing written): advancing would move" : "Advanced"} {s.series} from{" "}
        {s.from.name} to {s.to.name}
        {s.forced ? ", before settlement" : ""}. {s.entries} racers entered at new prices ({moved}{" "}
        changed), {s.carried} teams carried over ({s.drafts} kept as drafts to fix).
      </p>
      <AdminTable
        label="Price changes"
        caption="Price changes, biggest rise first"
        columns={["Racer", "Category", "Result", num("Old"), num("New"), num("Change")]}
        rows={s.prices}
      >
        {(p) => (
          <tr key={p.fromRacerId}>
            <th scope="row">
              {p.firstName} {p.lastName}
            </th>
            <td>{p.category}</td>
            <td>{p.result}</td>
            <td className="num">{formatPrice(p.oldPrice)}</td>
            <td className="num">{formatPrice(p.newPrice)}</td>
            <td className="num">{signed(p.change)}</td>
          </tr>
        )}
      </AdminTable>
    </div>
  );
}
