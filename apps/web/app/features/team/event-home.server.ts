/** Event home (`/game/:id`): the player's greeting, team and lock time for one event. */
import { BUDGET, bank, type EventPhase, eventPhase, lockTime, ordinal } from "@game/core";
import {
  getEvent,
  getPlayerProfile,
  getPlayerStanding,
  getTeam,
  type TeamRacerView,
  type TeamSeasonStatus,
  teamSeasonStatus,
} from "@game/db";
import { type AppLoadContext, redirect } from "@remix-run/node";
import { rememberHeaders } from "~/features/game/game.server";
import { homeWithNotice } from "~/features/home/home-notices";
import { liveFollowOf } from "~/features/live/live-follow.server";
import type { LiveFollow } from "~/features/live/use-live-round";
import { getUser, type SessionUser } from "~/utils/auth.server";
import { readTimeZone } from "~/utils/time-zone.server";

export interface EventHomePlayer {
  username: string;
  /**
   * Rank in the competition the rankings show by default; null until the player is in its
   * table ("Unranked").
   */
  ranking: number | null;
  points: number;
  bank: number;
}

export interface EventHome {
  event: {
    id: number;
    name: string;
    series: string;
    location: string;
    description: string;
    cover: string;
    logo: string;
    /** ISO 8601, UTC. */
    startsAt: string;
    lockAt: string;
    /** Hours before the start that teams lock (the competition's rules). */
    lockHours: number;
  };
  /** The server's clock when the page was made: the first frame of the countdown. */
  now: string;
  /** The reader's time zone the page's dates are written in (UTC until the browser says). */
  timeZone: string;
  locked: boolean;
  /**
   * Where the event stands (@game/core `eventPhase`): `open` shows the countdown and the team to
   * edit; `locked` and `scored` the team read-only (with its points once scored); `upcoming`
   * and `archived` only say so, with the date.
   */
  phase: EventPhase;
  /** The player's points and rank in this event, once it is scored and they had a team. */
  score: {
    points: number;
    rank: number | null;
    racerPoints: Record<number, number>;
    /** The bench rule at work, by racer id (docs/decisions/0169). */
    autoSubs: Record<number, "in" | "out">;
    /** Each racer's run as it stands ("2nd", "DNF"), by racer id; none yet: not down yet. */
    runs: Record<number, string>;
  } | null;
  /** The round's results are provisional: points and ranks may move (docs/decisions/0171). */
  provisional: boolean;
  /** The round the page follows live, or null when its scores cannot move. */
  live: LiveFollow | null;
  /** Null for a visitor. */
  player: EventHomePlayer | null;
  /** The player's own team in slot order (teams are private: never anyone else's). */
  team: TeamRacerView[];
  /** The team's captain, a racer id of `team` (docs/decisions/0168), or null. */
  captainId: number | null;
  /** The team's bench rider, a racer id of `team` (docs/decisions/0169), or null. */
  benchId: number | null;
  hasTeam: boolean;
  budget: number;
  /** What changed since the last round of the series (prices paid and now, who is out, fixes). */
  season: TeamSeasonStatus | null;
}

/**
 * The event home, or a redirect to `/` saying "Game not found." when no event has the id.
 * Returns the data and the Set-Cookie header remembering the game (only an open one is), so the
 * route can add its own blocks (leagues).
 */
export async function loadEventHome(
  request: Request,
  context: AppLoadContext,
  idParam: string | undefined,
): Promise<{ home: EventHome; user: SessionUser | null; headers: Headers }> {
  const id = Number(idParam);
  const event = /^\d{1,9}$/.test(idParam ?? "") ? await getEvent(context.db, id) : undefined;
  if (!event) throw redirect(homeWithNotice("game-not-found"));

  const now = context.now();
  const phase = eventPhase(event, now);
  // A closed or archived event: its page says so; no team, no greeting.
  const playable = phase === "open" || phase === "locked" || phase === "scored";
  const user = await getUser(request, context);
  // The greeting's rank and points: the player's row in this round's competition's table (from
  // the replica, as the ranking pages read it), fetched beside the team.
  const [team, standing] = await Promise.all([
    user && playable ? getTeam(context.db, user.id, event.id) : null,
    user ? getPlayerStanding(context.readDb, user.id, null, event.competitionId) : null,
  ]);
  const racers = team?.racers ?? [];
  const season =
    user && phase === "open" ? await teamSeasonStatus(context.db, user.id, event, team) : null;
  const headers = await rememberHeaders(event);
  let score: EventHome["score"] = null;
  if (user && phase === "scored") {
    const profile = await getPlayerProfile(context.db, user.username, now);
    const mine = profile?.events.find((e) => e.eventId === event.id);
    if (profile && mine) {
      score = {
        points: mine.points,
        rank: mine.rank,
        racerPoints: Object.fromEntries(
          (profile.teams[event.id] ?? []).map((r) => [r.racerId, r.points]),
        ),
        autoSubs: Object.fromEntries(
          (profile.teams[event.id] ?? []).flatMap((r) =>
            r.autoSub ? [[r.racerId, r.autoSub]] : [],
          ),
        ),
        runs: Object.fromEntries(
          (profile.teams[event.id] ?? []).flatMap((r) =>
            r.status === null ? [] : [[r.racerId, runText(r.status, r.position)]],
          ),
        ),
      };
    }
  }
  return {
    home: {
      event: {
        id: event.id,
        name: event.name,
        series: event.competitionName,
        location: event.location,
        description: event.description,
        cover: event.cover,
        logo: event.logo,
        startsAt: event.startsAt.toISOString(),
        lockAt: lockTime(event).toISOString(),
        lockHours: event.lockHours,
      },
      now: now.toISOString(),
      timeZone: readTimeZone(request),
      locked: phase !== "open",
      phase,
      score,
      provisional: event.provisional,
      live: liveFollowOf(event, now),
      player: user
        ? {
            username: user.username,
            ranking: standing?.rank ?? null,
            points: standing?.points ?? 0,
            // The team's budget less the prices paid (docs/decisions/0141).
            bank: bank(racers, team?.budget ?? BUDGET),
          }
        : null,
      team: racers,
      captainId: team?.captainId ?? null,
      benchId: team?.benchId ?? null,
      hasTeam: racers.length > 0,
      budget: team?.budget ?? BUDGET,
      season,
    },
    user,
    headers,
  };
}

/** A racer's run in words: "2nd", or DNF, DNS, DSQ. */
function runText(status: string, position: number | null): string {
  return status === "finished" && position !== null ? ordinal(position) : status;
}
