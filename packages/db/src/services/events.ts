import { asc, eq } from "drizzle-orm";
import type { DbOrTx } from "../client.js";
import { events } from "../schema/index.js";

export type EventRow = typeof events.$inferSelect;

/** All events, in id order (the spec's fixed list). */
export function listEvents(db: DbOrTx): Promise<EventRow[]> {
  return db.select().from(events).orderBy(asc(events.id));
}

export async function getEvent(db: DbOrTx, id: number): Promise<EventRow | undefined> {
  if (!Number.isSafeInteger(id)) return undefined;
  const [row] = await db.select().from(events).where(eq(events.id, id));
  return row;
}
