/** /admin/events: open, close or archive each event and set when it starts. */
import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { EventRow } from "~/features/admin/event-row";
import { type AdminEvent, loadAdminEvents, saveEvent } from "~/features/admin/events.server";
import { SEASON_ADVANCE_INTENT } from "~/features/admin/forms";
import { advanceFromForm } from "~/features/admin/season.server";
import { SeasonAdvance } from "~/features/admin/season-advance";
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
