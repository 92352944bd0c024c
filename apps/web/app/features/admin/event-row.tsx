/**
 * An event's block on /admin/events: its status and start, saved in the background; while its
 * results are provisional, a "Make final" button (posted to the results page's action).
 */
import { EVENT_STATUSES, lockTime } from "@game/core/events";
import { useFetcher } from "@remix-run/react";
import type { AdminEvent, EventFormResult } from "./events.server";
import type { ResultsActionData } from "./results-upload.server";
import type { SeasonAdvanceResult } from "./season.server";
import { formatInZone, toLocalInput } from "./time";
import { settlementText } from "./upload-messages";

export function EventRow({
  event,
  zone,
  posted,
}: {
  event: AdminEvent;
  zone: string;
  posted?: EventFormResult;
}) {
  const fetcher = useFetcher<EventFormResult | SeasonAdvanceResult>({
    key: `admin-event-${event.id}`,
  });
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
          {event.provisional ? (
            <>
              {" "}
              <span className="admin-status" data-status="provisional">
                Provisional
              </span>
            </>
          ) : null}
        </h3>
        <p className="muted">
          {`${event.series ? `${event.series}${event.round === null ? "" : `, round ${event.round}`}. ` : ""}Starts ${formatInZone(event.startsAt, zone)}, teams lock ${formatInZone(lockTime(event), zone)}${event.provisional ? ", results provisional" : event.settledAt ? ", results settled" : ""}.`}
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
      <MakeFinal event={event} />
    </li>
  );
}

/**
 * "Make final" for a round whose results are provisional: posted to the results page's action
 * (`intent=finalize`). With JavaScript the answer shows here; without, the results page shows it.
 */
function MakeFinal({ event }: { event: AdminEvent }) {
  const fetcher = useFetcher<ResultsActionData>({ key: `admin-finalize-${event.id}` });
  const answer = fetcher.data?.intent === "finalize" ? fetcher.data : undefined;
  const busy = fetcher.state !== "idle";
  if (!event.provisional && !answer) return null;
  return (
    <div className="admin-event-fields">
      {event.provisional ? (
        <fetcher.Form method="post" action={`/admin/results?event=${event.id}`}>
          <input type="hidden" name="eventId" value={event.id} />
          <button
            type="submit"
            name="intent"
            value="finalize"
            className="button button--ghost"
            aria-describedby={`event-${event.id}-name`}
            disabled={busy}
          >
            {busy ? "Making final..." : "Make final"}
          </button>
        </fetcher.Form>
      ) : null}
      <div role="status" aria-live="polite">
        {answer?.ok ? (
          <p className="admin-result admin-result--ok">
            {answer.message}
            {answer.settlement ? ` ${settlementText(answer.settlement)}` : ""}
          </p>
        ) : null}
        {answer && !answer.ok ? <p className="form-error">{answer.error}</p> : null}
      </div>
    </div>
  );
}
