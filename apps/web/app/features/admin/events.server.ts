import {
  AdminActionError,
  type EventRow,
  listEvents,
  scheduleEvent,
  setEventStatus,
  webActor,
} from "@game/db";
import type { AppLoadContext } from "@remix-run/node";
import { fieldErrors } from "~/utils/field-errors";
import { eventFormSchema } from "./forms";
import { formatInZone, fromLocalInput } from "./time";

export interface AdminEvent {
  id: number;
  name: string;
  series: string;
  /** Its competition's slug. */
  competition: string;
  /** Its place in its competition (the order advances follow). */
  round: number | null;
  /** Hours before the start that its teams lock (its competition's rules). */
  lockHours: number;
  status: EventRow["status"];
  startsAt: string;
  settledAt: string | null;
  /** Its results are provisional until they are made final (docs/decisions/0171). */
  provisional: boolean;
}

export async function loadAdminEvents(context: AppLoadContext): Promise<AdminEvent[]> {
  const rows = await listEvents(context.db);
  return rows.map((e) => ({
    id: e.id,
    name: e.name,
    series: e.competitionName,
    competition: e.competitionSlug,
    round: e.round,
    lockHours: e.lockHours,
    status: e.status,
    startsAt: e.startsAt.toISOString(),
    settledAt: e.settledAt?.toISOString() ?? null,
    provisional: e.provisional,
  }));
}

export type EventFormResult =
  | { ok: true; eventId: number; message: string; warning?: string }
  | { ok: false; eventId: number | null; errors: Record<string, string> };

/**
 * Saves one event row: status and start time together, in one transaction (both or neither),
 * each change audited. The start time arrives as wall-clock time in the admin's zone.
 */
export async function saveEvent(
  form: FormData,
  context: AppLoadContext,
  admin: { id: number; email: string },
): Promise<{ result: EventFormResult; status: number }> {
  const parsed = eventFormSchema.safeParse(Object.fromEntries(form));
  const rawId = Number(form.get("eventId"));
  const eventId = Number.isSafeInteger(rawId) ? rawId : null;
  if (!parsed.success) {
    return { result: { ok: false, eventId, errors: fieldErrors(parsed.error) }, status: 400 };
  }
  const { status, startsAt, timeZone } = parsed.data;
  const at = fromLocalInput(startsAt, timeZone);
  if (!at) {
    const errors = { startsAt: "That date and time does not exist." };
    return { result: { ok: false, eventId, errors }, status: 400 };
  }
  try {
    const actor = webActor(admin);
    const saved = await context.db.transaction(async (tx) => {
      // The time first: a bad one is the admin's likelier slip, and it names its field.
      const t = await scheduleEvent(tx, parsed.data.eventId, at, actor);
      const s = await setEventStatus(tx, parsed.data.eventId, status, actor);
      return { name: t.event.name, changed: s.changed || t.changed, warning: t.warning };
    });
    const message = saved.changed
      ? `Saved ${saved.name}: ${status}, starts ${formatInZone(at, timeZone)} (${timeZone}).`
      : `No change to ${saved.name}.`;
    const { warning } = saved;
    const result = { ok: true as const, eventId: parsed.data.eventId, message };
    return { result: warning ? { ...result, warning } : result, status: 200 };
  } catch (error) {
    if (!(error instanceof AdminActionError)) throw error;
    const field = /start time/i.test(error.message) ? "startsAt" : "form";
    return {
      result: { ok: false, eventId, errors: { [field]: error.message } },
      status: error.code === "not-found" ? 404 : 400,
    };
  }
}
