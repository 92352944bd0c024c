import { isLiveRound, liveVersion } from "@game/core";
import { eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "../client.js";
import { competitions, events } from "../schema/index.js";
import { parseRules } from "./events.js";

/** What a live page follows of a round: its scores change exactly when `version` does. */
export interface LiveRoundState {
  eventId: number;
  /** The last settlement's time (each settlement sets it) and the provisional flag, as one key. */
  version: string;
  provisional: boolean;
  /** Settled with final results. */
  final: boolean;
  /**
   * Its scores may move now (core's `isLiveRound`: locked and not final). When false the stream
   * has nothing to say: it sends the state and ends, and the page stops following.
   */
  live: boolean;
}

/**
 * The live state of rounds (decision 0171): one small read per process per tick, whatever the
 * number of viewers, so every app process and machine sees a commit on the shared database.
 */
export async function liveRoundStates(
  db: DbOrTx,
  eventIds: readonly number[],
  now: Date = new Date(),
): Promise<LiveRoundState[]> {
  if (eventIds.length === 0) return [];
  const rows = await db
    .select({
      id: events.id,
      status: events.status,
      startsAt: events.startsAt,
      frozenAt: events.frozenAt,
      settledAt: events.settledAt,
      provisional: events.provisional,
      rules: competitions.rules,
    })
    .from(events)
    .innerJoin(competitions, eq(competitions.id, events.competitionId))
    .where(inArray(events.id, [...eventIds]));
  return rows.map(({ rules, ...r }) => ({
    eventId: r.id,
    version: liveVersion(r.settledAt, r.provisional),
    provisional: r.provisional,
    final: r.settledAt !== null && !r.provisional,
    live: isLiveRound({ ...r, lockHours: parseRules(rules).lockHours }, now),
  }));
}
