/**
 * /admin/racer/:id: edit one racer, or withdraw them from their round (kept for history and for
 * the teams holding them, no longer pickable) and reinstate them. Same services as
 * `game-admin racers set|withdraw|reinstate`; works without JavaScript (plain forms).
 */
import { CATEGORIES, formatPrice, readWholeNumber } from "@game/core";
import {
  AdminActionError,
  getRacerForAdmin,
  type RacerEdit,
  setRacer,
  setRacerWithdrawn,
  webActor,
} from "@game/db";
import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { utcText } from "~/features/admin/pager";
import { requireAdmin } from "~/utils/auth.server";
import { readForm } from "~/utils/request.server";

export type RacerFormResult = { ok: true; message: string } | { ok: false; error: string };

function racerId(param: string | undefined): number {
  const id = Number(param);
  if (!/^\d{1,10}$/.test(param ?? "") || !Number.isSafeInteger(id) || id <= 0) {
    throw data({ message: "No such racer." }, { status: 404 });
  }
  return id;
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  const racer = await getRacerForAdmin(context.db, racerId(params.id));
  if (!racer) throw data({ message: "No such racer." }, { status: 404 });
  return {
    racer: {
      ...racer,
      withdrawnAt: racer.withdrawnAt?.toISOString() ?? null,
      createdAt: racer.createdAt.toISOString(),
      updatedAt: racer.updatedAt.toISOString(),
    },
  };
}

const NUMBER_FIELDS = [
  ["rank2024", "Rank2024"],
  ["totalPoint2024", "TotalPoint2024"],
  ["price", "Price"],
] as const;

/** The edit form's fields; a number the rules cannot read is refused, not defaulted. */
function readEdit(form: FormData): RacerEdit | string {
  const text = (name: string) => {
    const v = form.get(name);
    return typeof v === "string" ? v : undefined;
  };
  const edit: RacerEdit = {
    category: text("category"),
    firstName: text("firstName"),
    lastName: text("lastName"),
    origin: text("origin"),
    picture: text("picture"),
  };
  for (const [field, label] of NUMBER_FIELDS) {
    const cell = text(field);
    if (cell === undefined) continue;
    const read = readWholeNumber(cell);
    if (read.kind !== "value") return `${label} must be a whole number from 0.`;
    edit[field] = read.value;
  }
  return edit;
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const admin = await requireAdmin(request, context);
  const id = racerId(params.id);
  const form = await readForm(request);
  const intent = form.get("intent");
  const actor = webActor(admin);
  const answer = (result: RacerFormResult, status = 200) => data(result, { status });
  try {
    if (intent === "withdraw" || intent === "reinstate") {
      const r = await setRacerWithdrawn(context.db, id, intent === "withdraw", actor);
      const name = `${r.racer.firstName} ${r.racer.lastName}`;
      const teams = `${r.teamsHolding} ${r.teamsHolding === 1 ? "team holds" : "teams hold"} them`;
      return answer({
        ok: true,
        message: !r.changed
          ? `${name} already was ${intent === "withdraw" ? "withdrawn" : "starting"}.`
          : intent === "withdraw"
            ? `${name} is withdrawn and can no longer be picked; ${teams} and will see a notice.`
            : `${name} is reinstated and can be picked again.`,
      });
    }
    if (intent !== "save") return answer({ ok: false, error: "Unknown action." }, 400);
    const edit = readEdit(form);
    if (typeof edit === "string") return answer({ ok: false, error: edit }, 400);
    const r = await setRacer(context.db, id, edit, actor);
    return answer({
      ok: true,
      message:
        r.changes.length === 0
          ? "Nothing changed."
          : `Saved: ${r.changes.map((c) => `${c.field} ${c.from ?? "(none)"} → ${c.to ?? "(none)"}`).join(", ")}.`,
    });
  } catch (error) {
    if (!(error instanceof AdminActionError)) throw error;
    return answer({ ok: false, error: error.message }, error.code === "not-found" ? 404 : 400);
  }
}

export default function AdminRacer() {
  const { racer } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const field = (name: string, label: string, value: string | number, inputMode?: "numeric") => (
    <div className="field">
      <label htmlFor={`racer-${name}`}>{label}</label>
      <input
        id={`racer-${name}`}
        name={name}
        defaultValue={value}
        inputMode={inputMode}
        maxLength={200}
        required={name === "firstName" || name === "lastName"}
      />
    </div>
  );
  return (
    <section className="panel" aria-labelledby="racer-title">
      <p>
        <Link to={`/admin?game=${racer.gameId}`}>← Racers of event {racer.gameId}</Link>
      </p>
      <h2 id="racer-title">
        Racer {racer.id}: {racer.firstName} {racer.lastName}
      </h2>
      <p className="muted">
        Event {racer.gameId}, {formatPrice(racer.price)}.{" "}
        {racer.withdrawnAt
          ? `Withdrawn ${utcText(racer.withdrawnAt)}: no longer pickable.`
          : "Starting: pickable."}{" "}
        {racer.teamsHolding} {racer.teamsHolding === 1 ? "team holds" : "teams hold"} this racer.
      </p>
      <div role="status" aria-live="polite">
        {result ? (
          <p className={result.ok ? "admin-result admin-result--ok" : "form-error"}>
            {result.ok ? result.message : result.error}
          </p>
        ) : null}
      </div>
      <Form method="post" className="admin-form" aria-label="Edit racer">
        <div className="field">
          <label htmlFor="racer-category">Category</label>
          <select id="racer-category" name="category" defaultValue={racer.category}>
            {CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </div>
        {field("firstName", "First Name", racer.firstName)}
        {field("lastName", "Last Name", racer.lastName)}
        {field("origin", "Origin", racer.origin)}
        {field("picture", "Picture", racer.picture ?? "")}
        {field("rank2024", "Rank2024", racer.rank2024, "numeric")}
        {field("totalPoint2024", "TotalPoint2024", racer.totalPoint2024, "numeric")}
        {field("price", "Price", racer.price, "numeric")}
        <p>
          <button
            type="submit"
            name="intent"
            value="save"
            className="button button--primary"
            disabled={busy}
          >
            Save racer
          </button>
        </p>
      </Form>
      <Form method="post" aria-label={racer.withdrawnAt ? "Reinstate racer" : "Withdraw racer"}>
        <p className="field-hint">
          {racer.withdrawnAt
            ? "Reinstating lets players pick this racer again."
            : "Withdrawing keeps the racer (results, history, the teams that hold them) but nobody can pick them any more; teams holding them are told on their team page."}
        </p>
        <button
          type="submit"
          name="intent"
          value={racer.withdrawnAt ? "reinstate" : "withdraw"}
          className="button button--ghost"
          disabled={busy}
        >
          {racer.withdrawnAt ? "Reinstate racer" : "Withdraw racer"}
        </button>
      </Form>
    </section>
  );
}
