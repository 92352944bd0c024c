import { liveVersion } from "@game/core";
import { inArray } from "drizzle-orm";
import type { DbOrTx } from "../client.js";
import { events } from "../schema/index.js";

/** What a live page follows of a round: its scores change exactly when `version` does. */
export interface LiveRoundState {
  eventId: number;
  /** The last settlement's time (each settlement sets it) and the provisional flag, as one key. */
  version: string;
  provisional: boolean;
  /** Settled with final results: the stream has nothing more to say. */
  final: boolean;
}

/**
 * The live state of rounds (decision 0171): one small read per process per tick, whatever the
 * number of viewers, so every app process and machine sees a commit on the shared database.
 */
export async function liveRoundStates(
  db: DbOrTx,
  eventIds: readonly number[],
): Promise<LiveRoundState[]> {
  if (eventIds.length === 0) return [];
  const rows = await db
    .select({ id: events.id, settledAt: events.settledAt, provisional: events.provisional })
    .from(events)
    .where(inArray(events.id, [...eventIds]));
  return rows.map((r) => ({
    eventId: r.id,
    version: liveVersion(r.settledAt, r.provisional),
    provisional: r.provisional,
    final: r.settledAt !== null && !r.provisional,
  }));
}
