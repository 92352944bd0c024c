import { isLiveRound, type LiveRound, liveVersion } from "@game/core";
import type { LiveFollow } from "./use-live-round";

/** What a page follows of `round` (docs/decisions/0171), or null when its scores cannot move. */
export function liveFollowOf(round: LiveRound & { id: number }, now: Date): LiveFollow | null {
  return isLiveRound(round, now)
    ? { eventId: round.id, version: liveVersion(round.settledAt, round.provisional ?? false) }
    : null;
}

/** The round of a competition whose scores may move now (the earliest, should there be two). */
export function liveRoundOf<R extends LiveRound & { id: number }>(
  rounds: readonly R[],
  lockHours: number,
  now: Date,
): LiveFollow | null {
  for (const r of rounds) {
    const follow = liveFollowOf({ ...r, lockHours }, now);
    if (follow) return follow;
  }
  return null;
}
