/** Event home (`/game/:id`): the player's greeting, team and lock time for one open event. */
import { BUDGET, bank, canEnterEvent, isLocked, lockTime } from "@game/core";
import {
  getEvent,
  getTeam,
  type TeamRacerView,
  type TeamSeasonStatus,
  teamSeasonStatus,
} from "@game/db";
import { type AppLoadContext, redirect } from "@remix-run/node";
import { homeWithNotice } from "~/components/layout/home-notices";
import { getUser, type SessionUser } from "~/utils/auth.server";
import { rememberGame } from "~/utils/game.server";

export interface EventHomePlayer {
  username: string;
  /** Season rank; null until the first scored event ("Unranked"). */
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
  };
  /** The server's clock when the page was made: the first frame of the countdown. */
  now: string;
  locked: boolean;
  /** Null for a visitor. */
  player: EventHomePlayer | null;
  /** The player's own team in slot order (teams are private: never anyone else's). */
  team: TeamRacerView[];
  hasTeam: boolean;
  budget: number;
  /** What changed since the last round of the series (prices paid and now, who is out, fixes). */
  season: TeamSeasonStatus | null;
}

/**
 * The event home, or a redirect to `/` saying "Game not found." when the id is not an open event. Returns the data and
 * the Set-Cookie header remembering the game, so the route can add its own blocks (leagues).
 */
export async function loadEventHome(
  request: Request,
  context: AppLoadContext,
  idParam: string | undefined,
): Promise<{ home: EventHome; user: SessionUser | null; headers: Headers }> {
  const id = Number(idParam);
  const event = /^\d{1,9}$/.test(idParam ?? "") ? await getEvent(context.db, id) : undefined;
  if (!event || !canEnterEvent(event)) throw redirect(homeWithNotice("game-not-found"));

  const user = await getUser(request, context);
  const team = user ? await getTeam(context.db, user.id, event.id) : null;
  const racers = team?.racers ?? [];
  const season = user ? await teamSeasonStatus(context.db, user.id, event, team) : null;
  const now = context.now();
  const headers = new Headers({ "Set-Cookie": await rememberGame(event.id) });
  return {
    home: {
      event: {
        id: event.id,
        name: event.name,
        series: event.series,
        location: event.location,
        description: event.description,
        cover: event.cover,
        logo: event.logo,
        startsAt: event.startsAt.toISOString(),
        lockAt: lockTime(event).toISOString(),
      },
      now: now.toISOString(),
      locked: isLocked(event, now),
      player: user
        ? {
            username: user.username,
            ranking: user.ranking,
            points: user.points,
            bank: bank(racers, BUDGET),
          }
        : null,
      team: racers,
      hasTeam: racers.length > 0,
      budget: BUDGET,
      season,
    },
    user,
    headers,
  };
}
