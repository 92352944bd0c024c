import { formatPrice } from "@game/core";
import { useFetcher } from "@remix-run/react";
import { AdminTable, num } from "./admin-table";
import { SEASON_ADVANCE_INTENT } from "./forms";
import type { SeasonAdvanceResult } from "./season.server";

const signed = (v: number) => (v > 0 ? `+${formatPrice(v)}` : v < 0 ? `-${formatPrice(-v)}` : "0");

/**
 * "Advance season" on the events page: Preview shows exactly what the advance will do (a dry run
 * of the same service); Advance does it. Both list every price change, biggest rise first.
 */
export function SeasonAdvance() {
  const fetcher = useFetcher<SeasonAdvanceResult>({ key: "season-advance" });
  const busy = fetcher.state !== "idle";
  const result = fetcher.data;
  return (
    <section className="panel" aria-labelledby="season-title">
      <h2 id="season-title">Season</h2>
      <p className="muted">
        Once the open round of a series has been scored, advance the season: the round closes, the
        next one opens with every racer at a new price (the rule on the About page) and every
        player's team carried over at the prices they paid.
      </p>
      <fetcher.Form method="post" className="admin-event-fields">
        <input type="hidden" name="intent" value={SEASON_ADVANCE_INTENT} />
        <label className="checkbox">
          <input type="checkbox" name="force" value="yes" /> Advance before results are settled
          (only after the lock)
        </label>
        <button type="submit" className="button" name="confirm" value="no" disabled={busy}>
          Preview
        </button>
        <button
          type="submit"
          className="button button--primary"
          name="confirm"
          value="yes"
          disabled={busy}
        >
          {busy ? "Working..." : "Advance season"}
        </button>
      </fetcher.Form>
      <div role="status" aria-live="polite">
        {result && !result.ok ? <p className="form-error">{result.error}</p> : null}
        {result?.ok ? <AdvanceReport summary={result.summary} /> : null}
      </div>
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
