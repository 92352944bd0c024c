/**
 * /admin/racer/:id: edit one racer, or withdraw them from their round (kept for history and for
 * the teams holding them, no longer pickable) and reinstate them. Same services as
 * `game-admin racers set|withdraw|reinstate`; works without JavaScript (plain forms).
 */
import { CATEGORIES } from "@game/core/categories";
import { formatPrice } from "@game/core/format";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { AdminTime } from "~/features/admin/admin-time";
import { racerAction, racerForAdmin } from "~/features/admin/racer.server";
import { requireAdmin } from "~/utils/auth.server";

export type { RacerFormResult } from "~/features/admin/racer.server";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  return racerForAdmin(context, params.id);
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const admin = await requireAdmin(request, context);
  return racerAction(request, context, admin, params.id);
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
        {racer.withdrawnAt ? (
          <>
            Withdrawn <AdminTime value={racer.withdrawnAt} />: no longer pickable.
          </>
        ) : (
          "Starting: pickable."
        )}{" "}
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
