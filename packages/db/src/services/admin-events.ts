/** Admin writes on events: status (open, closed, archived) and start time. Each is audited. */
import { type EventStatus, formatDateTime, isEventStatus } from "@game/core";
import { and, asc, desc, eq, gt, lt } from "drizzle-orm";
import type { DbOrTx } from "../client.js";
import { events, racers } from "../schema/index.js";
import { AdminActionError, type AdminActor, recordAudit } from "./audit.js";
import { type EventRow, getEvent } from "./events.js";

export interface EventChange {
  event: EventRow;
  /** False when the event already had that value (nothing written, nothing audited). */
  changed: boolean;
  /**
   * Set when the new start puts a round of a series before the round ahead of it (or after the
   * one behind it): allowed, but the admin is told, since the season still advances by round.
   */
  warning?: string;
}

/** Start times an admin may set: a sane window, so a typo like year 20277 is refused. */
export const EARLIEST_START = new Date("2000-01-01T00:00:00Z");
export const LATEST_START = new Date("2100-01-01T00:00:00Z");

async function lockEvent(tx: DbOrTx, eventId: number): Promise<typeof events.$inferSelect> {
  if (!Number.isSafeInteger(eventId) || eventId <= 0 || eventId > 2_147_483_647) {
    throw new AdminActionError(`No event with id ${eventId}.`, "not-found");
  }
  const [row] = await tx.select().from(events).where(eq(events.id, eventId)).for("update");
  if (!row) throw new AdminActionError(`No event with id ${eventId}.`, "not-found");
  return row;
}

export async function setEventStatus(
  db: DbOrTx,
  eventId: number,
  status: string,
  actor: AdminActor,
): Promise<EventChange> {
  if (!isEventStatus(status)) {
    throw new AdminActionError(`Status must be open, closed or archived, not "${status}".`);
  }
  return db.transaction(async (tx) => {
    const before = await lockEvent(tx, eventId);
    if (before.status === status) return { event: (await getEvent(tx, eventId))!, changed: false };
    if (status === "open") {
      const [entry] = await tx
        .select({ id: racers.id })
        .from(racers)
        .where(eq(racers.gameId, eventId))
        .limit(1);
      if (!entry) {
        throw new AdminActionError(
          `${before.name} has no racers yet: import them (\`game-admin racers import\`) or copy another round's (\`game-admin racers copy <fromEventId> ${eventId}\`) before opening it.`,
        );
      }
    }
    await tx
      .update(events)
      .set({ status: status as EventStatus })
      .where(eq(events.id, eventId));
    const event = await getEvent(tx, eventId);
    await recordAudit(tx, actor, "event.status", `event:${eventId}`, {
      from: before.status,
      to: status,
    });
    return { event: event!, changed: true };
  });
}

export async function scheduleEvent(
  db: DbOrTx,
  eventId: number,
  startsAt: Date,
  actor: AdminActor,
): Promise<EventChange> {
  if (!(startsAt instanceof Date) || Number.isNaN(startsAt.getTime())) {
    throw new AdminActionError("Give the start time as a date and time.");
  }
  if (startsAt < EARLIEST_START || startsAt >= LATEST_START) {
    throw new AdminActionError("The start time must be between the years 2000 and 2099.");
  }
  return db.transaction(async (tx) => {
    const before = await lockEvent(tx, eventId);
    if (before.startsAt.getTime() === startsAt.getTime()) {
      return { event: (await getEvent(tx, eventId))!, changed: false };
    }
    await tx.update(events).set({ startsAt }).where(eq(events.id, eventId));
    const event = await getEvent(tx, eventId);
    await recordAudit(tx, actor, "event.schedule", `event:${eventId}`, {
      from: before.startsAt.toISOString(),
      to: startsAt.toISOString(),
    });
    const warning = await outOfOrder(tx, event!);
    return { event: event!, changed: true, ...(warning ? { warning } : {}) };
  });
}

/**
 * Whether a round now starts before the round ahead of it or after the one behind it in its
 * series, said as the admin needs it: the order of the rounds stays theirs (docs/decisions/0140).
 */
async function outOfOrder(tx: DbOrTx, event: EventRow): Promise<string | undefined> {
  if (event.round === null) return undefined;
  const near = (where: ReturnType<typeof and>, order: ReturnType<typeof asc>) =>
    tx
      .select({ name: events.name, round: events.round, startsAt: events.startsAt })
      .from(events)
      .where(where)
      .orderBy(order)
      .limit(1);
  const same = eq(events.competitionId, event.competitionId);
  const [before] = await near(and(same, lt(events.round, event.round)), desc(events.round));
  const [after] = await near(and(same, gt(events.round, event.round)), asc(events.round));
  // The one date format (UTC, named): the dashboard shows this too, and the CLI speaks UTC.
  const at = (d: Date) => formatDateTime(d, "UTC");
  const order = "The season still advances by round number, not by date.";
  if (before && before.startsAt > event.startsAt) {
    return `${event.name} (round ${event.round}) now starts before ${before.name} (round ${before.round}, ${at(before.startsAt)}). ${order}`;
  }
  if (after && after.startsAt < event.startsAt) {
    return `${event.name} (round ${event.round}) now starts after ${after.name} (round ${after.round}, ${at(after.startsAt)}). ${order}`;
  }
  return undefined;
}
