/** /admin/events: open, close or archive each event and set when it starts. */
import { EVENT_STATUSES, lockTime } from "@game/core/events";
import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useFetcher, useLoaderData } from "@remix-run/react";
import {
  type AdminEvent,
  type EventFormResult,
  loadAdminEvents,
  saveEvent,
} from "~/features/admin/events.server";
import { SEASON_ADVANCE_INTENT } from "~/features/admin/forms";
import { advanceFromForm } from "~/features/admin/season.server";
import { SeasonAdvance } from "~/features/admin/season-advance";
import { formatInZone, toLocalInput } from "~/features/admin/time";
import { useAdminTimeZone } from "~/features/admin/use-admin-time-zone";
import { requireAdmin } from "~/utils/auth.server";
import { readForm } from "~/utils/request.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  return { events: await loadAdminEvents(context) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const admin = await requireAdmin(request, context);
  const form = await readForm(request);
  if (form.get("intent") === SEASON_ADVANCE_INTENT) {
    const { result, status } = await advanceFromForm(form, context, admin);
    return data(result, { status });
  }
  const { result, status } = await saveEvent(form, context, admin);
  return data(result, { status });
}

/** The competitions with an open round, in the order of the list: what an advance can roll. */
function liveCompetitions(events: AdminEvent[]): { slug: string; name: string }[] {
  const seen = new Map<string, string>();
  for (const e of events) if (e.status === "open") seen.set(e.competition, e.series);
  return [...seen].map(([slug, name]) => ({ slug, name }));
}

export default function AdminEvents() {
  const { events } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  // With JavaScript each block reads its own fetcher; without it, the page's action answer.
  const posted = answer && "eventId" in answer ? answer : undefined;
  const season = answer && "intent" in answer ? answer : undefined;
  const zone = useAdminTimeZone();
  return (
    <>
      <SeasonAdvance posted={season} competitions={liveCompetitions(events)} />
      <section className="panel" aria-labelledby="events-title">
        <h2 id="events-title">Events</h2>
        <p className="muted">
          Only open events can be entered. Times are in{" "}
          {zone === "UTC" ? "UTC" : `your time zone (${zone})`}; teams lock as many hours before the
          start as their competition's rules say. Competitions and their rounds are created on the{" "}
          <a href="/admin/competitions">Competitions</a> page.
        </p>
        <ul className="admin-events">
          {events.map((e) => (
            <EventRow
              key={e.id}
              event={e}
              zone={zone}
              posted={posted && posted.eventId === e.id ? posted : undefined}
            />
          ))}
        </ul>
      </section>
    </>
  );
}

function EventRow({
  event,
  zone,
  posted,
}: {
  event: AdminEvent;
  zone: string;
  posted?: EventFormResult;
}) {
  const fetcher = useFetcher<typeof action>({ key: `admin-event-${event.id}` });
  const own = fetcher.data && "eventId" in fetcher.data ? fetcher.data : undefined;
  const result = own ?? posted;
  const errors = result && !result.ok ? result.errors : {};
  const busy = fetcher.state !== "idle";
  const ids = { status: `event-${event.id}-status`, starts: `event-${event.id}-starts` };
  return (
    <li className="card admin-event" id={`event-${event.id}`}>
      <fetcher.Form method="post" aria-labelledby={`event-${event.id}-name`}>
        <h3 id={`event-${event.id}-name`}>
          {event.id}. {event.name}{" "}
          <span className="admin-status" data-status={event.status}>
            {event.status}
          </span>
        </h3>
        <p className="muted">
          {`${event.series ? `${event.series}${event.round === null ? "" : `, round ${event.round}`}. ` : ""}Starts ${formatInZone(event.startsAt, zone)}, teams lock ${formatInZone(lockTime(event), zone)}${event.settledAt ? ", results settled" : ""}.`}
        </p>
        <input type="hidden" name="eventId" value={event.id} />
        <input type="hidden" name="timeZone" value={zone} />
        <div className="admin-event-fields">
          <div className="field">
            <label htmlFor={ids.status}>Status</label>
            <select id={ids.status} name="status" defaultValue={event.status}>
              {EVENT_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={ids.starts}>Starts ({zone})</label>
            <input
              // Re-created when the zone is known, so the shown time is the admin's own.
              key={`${zone}|${event.startsAt}`}
              id={ids.starts}
              name="startsAt"
              type="datetime-local"
              required
              defaultValue={toLocalInput(event.startsAt, zone)}
              aria-invalid={errors.startsAt ? true : undefined}
              aria-describedby={errors.startsAt ? `${ids.starts}-error` : undefined}
            />
            {errors.startsAt ? (
              <p id={`${ids.starts}-error`} className="field-error">
                {errors.startsAt}
              </p>
            ) : null}
          </div>
          <button type="submit" className="button button--primary" disabled={busy}>
            {busy ? "Saving..." : "Save"}
          </button>
        </div>
        <div role="status" aria-live="polite">
          {result?.ok ? <p className="admin-result admin-result--ok">{result.message}</p> : null}
          {result?.ok && result.warning ? (
            <p className="admin-result admin-result--warning">{result.warning}</p>
          ) : null}
          {result && !result.ok && (errors.form || errors.status || errors.eventId) ? (
            <p className="form-error">{errors.form ?? errors.status ?? errors.eventId}</p>
          ) : null}
        </div>
      </fetcher.Form>
    </li>
  );
}
