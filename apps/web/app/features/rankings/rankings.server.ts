/**
 * Loaders of /players-ranking and /leagues-ranking: the query string, the stored ranking page,
 * the viewer's own row and the views to switch between. Reads only (the settlement writes).
 */
import { LEAGUE_RANKING_MIN_MEMBERS } from "@game/core";
import {
  getEvent,
  getLeagueRankingPage,
  getLeagueStandingsOfUser,
  getPlayerRankingPage,
  getPlayerStanding,
  listScoredEvents,
  type PlayerRankingRow,
  pageOf,
} from "@game/db";
import type { AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import { getCurrentGame } from "~/features/game/game.server";
import { toBackdropGame } from "~/features/game/game-backdrop";
import { getUser } from "~/utils/auth.server";

const MAX_PAGE = 10_000_000;

/** `?page=N&event=ID` of the ranking pages; anything unreadable falls back to page 1, season. */
export const rankingQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(MAX_PAGE).catch(1),
  event: z.coerce
    .number()
    .int()
    .positive()
    .max(2 ** 31 - 1)
    .nullable()
    .catch(null),
});

export function readRankingQuery(url: URL): z.infer<typeof rankingQuerySchema> {
  const params = url.searchParams;
  return rankingQuerySchema.parse({
    page: params.get("page") ?? undefined,
    event: params.get("event") || null,
  });
}

/** A ranking row as the widgets take it. */
export interface RankingRowView {
  id: number;
  rank: number;
  username: string;
  points: number;
  previousRank: number | null;
}

function toView(r: PlayerRankingRow): RankingRowView {
  return {
    id: r.id,
    rank: r.rank,
    username: r.username,
    points: r.points,
    previousRank: r.previousRank,
  };
}

export async function loadPlayersRanking(request: Request, context: AppLoadContext) {
  const url = new URL(request.url);
  const query = readRankingQuery(url);
  // Everything a visitor's page needs in one parallel round; only a player's own row waits
  // for the session. The ranking and the viewer's place in it come from the read replica (they
  // change at settlement only); their leagues come from the primary (docs/decisions/0131).
  const [game, user, scored, event, ranking] = await Promise.all([
    getCurrentGame(request, context),
    getUser(request, context),
    listScoredEvents(context.readDb),
    query.event !== null ? getEvent(context.readDb, query.event) : Promise.resolve(null),
    getPlayerRankingPage(context.readDb, { page: query.page, eventId: query.event }),
  ]);
  if (query.event !== null && !event) throw new Response("Not Found", { status: 404 });
  const eventName = event?.name ?? null;
  const mine = user ? await getPlayerStanding(context.readDb, user.id, query.event) : null;
  return {
    game: toBackdropGame(game),
    view: { eventId: query.event, eventName, scored: scored.some((e) => e.id === query.event) },
    views: scored.map((e) => ({ id: e.id, name: e.name })),
    rows: ranking.rows.map(toView),
    page: ranking.page,
    pageCount: ranking.pageCount,
    total: ranking.total,
    viewer: user
      ? {
          username: user.username,
          standing: mine ? { ...toView(mine), page: pageOf(mine.position) } : null,
        }
      : null,
  };
}

export async function loadLeaguesRanking(request: Request, context: AppLoadContext) {
  const url = new URL(request.url);
  const query = readRankingQuery(url);
  const [game, user, ranking] = await Promise.all([
    getCurrentGame(request, context),
    getUser(request, context),
    getLeagueRankingPage(context.readDb, { page: query.page }),
  ]);
  // The viewer's own leagues: from the primary, so a league just joined is there at once.
  const mine = user ? await getLeagueStandingsOfUser(context.db, user.id) : [];
  return {
    game: toBackdropGame(game),
    rows: ranking.rows.map((r) => ({
      id: r.id,
      rank: r.rank,
      name: r.name,
      totalPoints: r.totalPoints,
    })),
    page: ranking.page,
    pageCount: ranking.pageCount,
    total: ranking.total,
    signedIn: user !== null,
    // A league created since the last results is listed after the ranked ones: its line says
    // the place the table shows, as provisional, never "not ranked" beside a ranked-looking row.
    myLeagues: mine.map((l) => {
      const listed = l.rank ? null : ranking.rows.find((r) => r.id === l.id);
      return {
        id: l.id,
        name: l.name,
        rank: l.rank || listed?.rank || null,
        provisional: !l.rank,
        // A league of one is not listed until a second player joins (decision 0151).
        needsMembers: !l.rank && l.memberCount < LEAGUE_RANKING_MIN_MEMBERS,
        totalPoints: l.totalPoints,
        page: l.rank ? pageOf(l.rank) : listed ? ranking.page : null,
      };
    }),
  };
}
