/**
 * Loaders of /players-ranking, /leagues-ranking and /hall-of-fame: the query string, the stored
 * ranking page of the competition asked for (the default one without `?competition=`), the
 * viewer's own row and the views to switch between. Reads only (the settlement writes).
 */
import { type Discipline, LEAGUE_RANKING_MIN_MEMBERS } from "@game/core";
import {
  type DbOrTx,
  getCompetition,
  getEvent,
  getHallOfFame,
  getLeagueRankingPage,
  getLeagueStandingsOfUser,
  getPlayerRankingPage,
  getPlayerStanding,
  listRankedCompetitions,
  type PlayerRankingRow,
  pageOf,
  type RankedCompetition,
  resolveRankedCompetition,
} from "@game/db";
import type { AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import { getCurrentGame } from "~/features/game/game.server";
import { toBackdropGame } from "~/features/game/game-backdrop";
import { liveFollowOf, liveRoundOf } from "~/features/live/live-follow.server";
import { getUser } from "~/utils/auth.server";
import { notFound } from "~/utils/request.server";

const MAX_PAGE = 10_000_000;

/** What a competition's slug can be (any case: the lookup lower-cases it). */
const COMPETITION_SLUG = /^[a-z0-9-]{1,80}$/i;

/**
 * `?page=N&event=ID&competition=SLUG` of the ranking pages; an unreadable page or event falls
 * back to page 1, the season. `competition` is the slug as asked (trimmed), null when absent or
 * empty: the loaders answer 404 for one that names no competition.
 */
export const rankingQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(MAX_PAGE).catch(1),
  event: z.coerce
    .number()
    .int()
    .positive()
    .max(2 ** 31 - 1)
    .nullable()
    .catch(null),
  competition: z.string().trim().nullable().catch(null),
});

export function readRankingQuery(url: URL): z.infer<typeof rankingQuerySchema> {
  const params = url.searchParams;
  return rankingQuerySchema.parse({
    page: params.get("page") ?? undefined,
    event: params.get("event") || null,
    competition: params.get("competition")?.trim() || null,
  });
}

/**
 * The competition a ranking page shows: the one `slug` names, else the default one (null only
 * when there is no competition at all). A slug naming no competition is the page's 404.
 */
async function rankedCompetitionOf(
  db: DbOrTx,
  slug: string | null,
): Promise<RankedCompetition | null> {
  if (slug !== null && !COMPETITION_SLUG.test(slug)) throw notFound();
  const found = await resolveRankedCompetition(db, slug);
  if (slug !== null && !found) throw notFound();
  return found;
}

/** A competition a ranking page can switch to. */
export interface CompetitionChoice {
  slug: string;
  name: string;
}

/** The competitions to offer: those with a ranking, and the one shown (first) if not among them. */
function choicesOf(offered: RankedCompetition[], shown: CompetitionChoice | null) {
  const list = offered.map((c) => ({ slug: c.slug, name: c.name }));
  if (shown && !list.some((c) => c.slug === shown.slug)) list.unshift(shown);
  return list;
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
  const db = context.readDb;
  // Everything a visitor's page needs in two parallel rounds: first the competition (asked for,
  // the event's, or the default), then its table, its scored rounds and the viewer's place. The
  // ranking and the viewer's place in it come from the read replica (they change at settlement
  // only; docs/decisions/0131).
  const [game, user, event, asked, offered] = await Promise.all([
    getCurrentGame(request, context),
    getUser(request, context),
    query.event !== null ? getEvent(db, query.event) : Promise.resolve(null),
    // A round's view without `?competition=` shows the round's own competition.
    query.event !== null && query.competition === null
      ? Promise.resolve(null)
      : rankedCompetitionOf(db, query.competition),
    listRankedCompetitions(db),
  ]);
  if (query.event !== null && !event) throw notFound();
  // A round of another competition than the one asked for names nothing.
  if (event && asked && event.competitionId !== asked.id) throw notFound();
  const competition = event
    ? { id: event.competitionId, slug: event.competitionSlug, name: event.competitionName }
    : asked;
  const [ranking, rounds, mine] = await Promise.all([
    getPlayerRankingPage(db, {
      page: query.page,
      eventId: query.event,
      competitionId: competition?.id ?? null,
    }),
    competition ? getCompetition(db, competition.slug, context.now()) : Promise.resolve(undefined),
    user
      ? getPlayerStanding(db, user.id, query.event, competition?.id ?? null)
      : Promise.resolve(null),
  ]);
  // The rounds to switch to: the competition's scored ones, in race order.
  const scored = (rounds?.rounds ?? [])
    .filter((r) => r.settledAt !== null)
    .sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime() || a.id - b.id);
  const shown = competition ? { slug: competition.slug, name: competition.name } : null;
  // Live (docs/decisions/0171): a round's view follows that round; the season's table follows
  // the competition's live round.
  const now = context.now();
  const live = event
    ? liveFollowOf(event, now)
    : rounds
      ? liveRoundOf(rounds.rounds, rounds.rules.lockHours, now)
      : null;
  return {
    game: toBackdropGame(game),
    competition: shown,
    live,
    /** The slug every link of the page carries (null: the default competition, left implicit). */
    competitionParam: query.competition !== null || event ? (shown?.slug ?? null) : null,
    competitions: choicesOf(offered, shown),
    view: {
      eventId: query.event,
      eventName: event?.name ?? null,
      scored: scored.some((e) => e.id === query.event),
      /** Points and ranks may still move: the round's (or a round of the season's) are provisional. */
      provisional: event ? event.provisional : scored.some((e) => e.provisional),
    },
    views: scored.map((e) => ({ id: e.id, name: e.name, provisional: e.provisional })),
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
  const [game, user, competition, offered] = await Promise.all([
    getCurrentGame(request, context),
    getUser(request, context),
    rankedCompetitionOf(context.readDb, query.competition),
    listRankedCompetitions(context.readDb),
  ]);
  const competitionId = competition?.id ?? null;
  const [ranking, mine, rounds] = await Promise.all([
    getLeagueRankingPage(context.readDb, { page: query.page, competitionId }),
    // The viewer's own leagues of that competition: from the primary, so a league just joined
    // is there at once.
    user
      ? getLeagueStandingsOfUser(context.db, user.id, competitionId)
      : Promise.resolve([] as Awaited<ReturnType<typeof getLeagueStandingsOfUser>>),
    competition
      ? getCompetition(context.readDb, competition.slug, context.now())
      : Promise.resolve(undefined),
  ]);
  const shown = competition ? { slug: competition.slug, name: competition.name } : null;
  return {
    game: toBackdropGame(game),
    competition: shown,
    // League tables move with the competition's live round (docs/decisions/0171).
    live: rounds ? liveRoundOf(rounds.rounds, rounds.rules.lockHours, context.now()) : null,
    scoresProvisional: rounds?.rounds.some((r) => r.provisional) ?? false,
    competitionParam: query.competition !== null ? (shown?.slug ?? null) : null,
    competitions: choicesOf(offered, shown),
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

/** `/hall-of-fame`: every finished competition's podium, latest first. */
export async function loadHallOfFame(request: Request, context: AppLoadContext) {
  const [game, entries] = await Promise.all([
    getCurrentGame(request, context),
    getHallOfFame(context.readDb, context.now()),
  ]);
  return {
    game: toBackdropGame(game),
    competitions: entries.map(({ competition: c, podium }) => ({
      slug: c.slug,
      name: c.name,
      season: c.season,
      // The column's own type (the hall of fame's answer spells it as a string).
      discipline: c.discipline as Discipline,
      podium: podium.map((p) => ({ rank: p.rank, username: p.username, points: p.points })),
    })),
  };
}
