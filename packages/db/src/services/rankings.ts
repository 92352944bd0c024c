import { LEAGUE_RANKING_MIN_MEMBERS } from "@game/core";
import { and, asc, between, desc, eq, max, type SQL, sql } from "drizzle-orm";
import { type DbOrTx, rowsOf } from "../client.js";
import {
  competitions,
  eventScores,
  events,
  leagueMembers,
  leaguePlaces,
  leagues,
  seasonStandings,
  users,
} from "../schema/index.js";
import { listCompetitions, RANKED_COMPETITION_SQL } from "./competitions.js";

/*
 * Rankings as stored by the settlement. Every read here is an index range or an index lookup:
 * a page is `position BETWEEN a AND b` on the stored unique places (season_standings for a
 * competition, event_scores for an event), so page 20,000 costs what page 1 costs
 * (docs/decisions/0054). Every competition keeps its own table (docs/decisions/0159); without
 * one asked for, the rankings show the latest settled round's competition.
 */

export const RANKING_PAGE_SIZE = 50;

/**
 * The leagues not placed at the last settlement that the ranking lists: those with
 * LEAGUE_RANKING_MIN_MEMBERS members now (the settlement places only such leagues; decision 0151),
 * so the page, the API and partners' widgets never show a league of one.
 */
const listedUnranked = sql`${leagues.ranking} is null and (
  select count(*) from ${leagueMembers} m where m.league_id = ${leagues.id}
) >= ${LEAGUE_RANKING_MIN_MEMBERS}`;

/** The competition asked for, or the one the rankings show by default. */
function competitionOf(competitionId: number | null | undefined): SQL {
  return competitionId != null ? sql`${Math.trunc(competitionId)}::int` : RANKED_COMPETITION_SQL;
}

/** A player's row of a competition's table, as every reader of it selects it. */
const standingColumns = {
  id: users.id,
  username: users.username,
  points: seasonStandings.points,
  rank: seasonStandings.rank,
  previousRank: seasonStandings.previousRank,
  position: seasonStandings.position,
};

const rankedCompetitionColumns = {
  id: competitions.id,
  slug: competitions.slug,
  name: competitions.name,
  season: competitions.season,
};

export interface RankedCompetition {
  id: number;
  slug: string;
  name: string;
  season: string;
}

/**
 * The competition a ranking shows: the one named by `slug`, or the default (the latest settled
 * round's, else the one being played). Null for an unknown slug, or with no competition at all.
 */
export async function resolveRankedCompetition(
  db: DbOrTx,
  slug?: string | null,
): Promise<RankedCompetition | null> {
  const [row] = await db
    .select(rankedCompetitionColumns)
    .from(competitions)
    .where(
      slug != null
        ? eq(competitions.slug, slug.trim().toLowerCase().slice(0, 120))
        : sql`${competitions.id} = ${RANKED_COMPETITION_SQL}`,
    );
  return row ?? null;
}

/**
 * The competitions a ranking page offers: every one with a settled round (latest first), and
 * the default one even before its first round is settled.
 */
export function listRankedCompetitions(db: DbOrTx): Promise<RankedCompetition[]> {
  return db
    .select(rankedCompetitionColumns)
    .from(competitions)
    .where(
      sql`${competitions.id} = ${RANKED_COMPETITION_SQL} or exists (
        select 1 from ${events} e where e.competition_id = ${competitions.id}
          and e.settled_at is not null)`,
    )
    .orderBy(
      sql`(select max(e.starts_at) from ${events} e where e.competition_id = ${competitions.id}) desc nulls last`,
      desc(competitions.id),
    );
}

export interface RankingPage<T> {
  rows: T[];
  /** 1-based, clamped to the pages that exist. */
  page: number;
  pageCount: number;
  pageSize: number;
  total: number;
}

export interface PlayerRankingRow {
  id: number;
  username: string;
  points: number;
  /** Shared on ties (1, 1, 3). */
  rank: number;
  /** Season rank before the latest settled event (season view only). */
  previousRank: number | null;
  /** Unique place in the table: the row's page is ceil(position / page size). */
  position: number;
}

export interface LeagueRankingRow {
  id: number;
  name: string;
  totalPoints: number;
  /** The league's place (leagues are ordered by total points, then age). */
  rank: number;
  previousRank: number | null;
}

/** The page holding `position`. */
export function pageOf(position: number, pageSize = RANKING_PAGE_SIZE): number {
  return Math.max(1, Math.ceil(position / pageSize));
}

function clampPage(page: number, total: number, pageSize: number) {
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const p = Number.isSafeInteger(page) ? Math.min(Math.max(1, page), pageCount) : 1;
  return { page: p, pageCount, from: (p - 1) * pageSize + 1, to: p * pageSize };
}

/**
 * The total and the rows of the asked page in parallel (one round trip in the usual case); the
 * rows are read again only when the page asked for is past the end.
 */
async function pageOfRows<T>(
  askedPage: number | undefined,
  pageSize: number,
  total: () => Promise<number>,
  rows: (from: number, to: number) => Promise<T[]>,
): Promise<RankingPage<T>> {
  const asked = clampPage(askedPage ?? 1, Number.MAX_SAFE_INTEGER, pageSize);
  const [n, first] = await Promise.all([total(), rows(asked.from, asked.to)]);
  const { page, pageCount, from, to } = clampPage(asked.page, n, pageSize);
  const found = page === asked.page ? first : n > 0 ? await rows(from, to) : [];
  return { rows: found, page, pageCount, pageSize, total: n };
}

/**
 * One page of the player ranking: a competition's table (the default one without
 * `competitionId`), or one event's table with `eventId`.
 * Highest points first; equal points share a rank and are listed by username. Each read carries
 * its limit: it tells the planner the range is small, also in a generic prepared plan (without
 * it, a parallel bitmap scan guessing 5,000 rows, ten times slower).
 */
export function getPlayerRankingPage(
  db: DbOrTx,
  opts: {
    page?: number;
    eventId?: number | null;
    competitionId?: number | null;
    pageSize?: number;
  } = {},
): Promise<RankingPage<PlayerRankingRow>> {
  const pageSize = opts.pageSize ?? RANKING_PAGE_SIZE;
  const eventId = opts.eventId;
  if (eventId != null) {
    return pageOfRows(
      opts.page,
      pageSize,
      async () => {
        const [last] = await db
          .select({ n: max(eventScores.position) })
          .from(eventScores)
          .where(eq(eventScores.eventId, eventId));
        return last?.n ?? 0;
      },
      (from, to) =>
        db
          .select({
            id: users.id,
            username: users.username,
            points: eventScores.points,
            rank: sql<number>`${eventScores.rank}`,
            previousRank: sql<number | null>`null::int`,
            position: sql<number>`${eventScores.position}`,
          })
          .from(eventScores)
          .innerJoin(users, eq(users.id, eventScores.userId))
          .where(and(eq(eventScores.eventId, eventId), between(eventScores.position, from, to)))
          .orderBy(asc(eventScores.position))
          .limit(pageSize),
    );
  }
  const competition = competitionOf(opts.competitionId);
  return pageOfRows(
    opts.page,
    pageSize,
    async () => {
      const [last] = await db
        .select({ n: max(seasonStandings.position) })
        .from(seasonStandings)
        .where(sql`${seasonStandings.competitionId} = ${competition}`);
      return last?.n ?? 0;
    },
    (from, to) =>
      db
        .select(standingColumns)
        .from(seasonStandings)
        .innerJoin(users, eq(users.id, seasonStandings.userId))
        .where(
          and(
            sql`${seasonStandings.competitionId} = ${competition}`,
            between(seasonStandings.position, from, to),
          ),
        )
        .orderBy(asc(seasonStandings.position))
        .limit(pageSize),
  );
}

/**
 * A player's own row in a competition's table (the default one without `competitionId`) or in
 * an event's, or null when not ranked there.
 */
export async function getPlayerStanding(
  db: DbOrTx,
  userId: number,
  eventId?: number | null,
  competitionId?: number | null,
): Promise<PlayerRankingRow | null> {
  if (eventId != null) {
    const [row] = await db
      .select({
        id: users.id,
        username: users.username,
        points: eventScores.points,
        rank: eventScores.rank,
        position: eventScores.position,
      })
      .from(eventScores)
      .innerJoin(users, eq(users.id, eventScores.userId))
      .where(and(eq(eventScores.eventId, eventId), eq(eventScores.userId, userId)));
    if (!row || row.rank == null || row.position == null) return null;
    return { ...row, rank: row.rank, position: row.position, previousRank: null };
  }
  const [row] = await db
    .select(standingColumns)
    .from(seasonStandings)
    .innerJoin(users, eq(users.id, seasonStandings.userId))
    .where(
      and(
        sql`${seasonStandings.competitionId} = ${competitionOf(competitionId)}`,
        eq(seasonStandings.userId, userId),
      ),
    )
    .limit(1);
  return row ?? null;
}

/**
 * One page of the league ranking: leagues ranked at the last settlement by their place, then the
 * leagues not ranked then that have LEAGUE_RANKING_MIN_MEMBERS members now, oldest first.
 */
export async function getLeagueRankingPage(
  db: DbOrTx,
  opts: { page?: number; pageSize?: number; competitionId?: number | null } = {},
): Promise<RankingPage<LeagueRankingRow>> {
  const pageSize = opts.pageSize ?? RANKING_PAGE_SIZE;
  // Leagues play one competition each (docs/decisions/0158): the ranking lists that one's.
  const competition = competitionOf(opts.competitionId);
  const inRankedCompetition = sql`${leagues.competitionId} = ${competition}`;
  // The placed leagues are a key range of league_places (docs/decisions/0162).
  const [counts] = rowsOf<{ ranked: number | null; unranked: number }>(
    await db.execute(sql`
      select (select max(place) from league_places where competition_id = ${competition})::int as ranked,
             (select count(*) from ${leagues}
               where ${listedUnranked} and ${inRankedCompetition})::int as unranked`),
  );
  const ranked = counts?.ranked ?? 0;
  const total = ranked + (counts?.unranked ?? 0);
  const { page, pageCount, from, to } = clampPage(opts.page ?? 1, total, pageSize);
  const columns = {
    id: leagues.id,
    name: leagues.name,
    totalPoints: leagues.totalPoints,
    ranking: leagues.ranking,
    previousRank: leagues.previousRanking,
  };
  const rows: LeagueRankingRow[] = [];
  if (from <= ranked) {
    const found = await db
      .select({ ...columns, place: leaguePlaces.place })
      .from(leaguePlaces)
      .innerJoin(leagues, eq(leagues.id, leaguePlaces.leagueId))
      .where(
        and(
          sql`${leaguePlaces.competitionId} = ${competition}`,
          between(leaguePlaces.place, from, Math.min(to, ranked)),
        ),
      )
      .orderBy(asc(leaguePlaces.place))
      .limit(pageSize);
    for (const { place, ...r } of found) rows.push({ ...r, rank: place });
  }
  if (to > ranked && total > ranked) {
    const skip = Math.max(0, from - ranked - 1);
    const found = await db
      .select(columns)
      .from(leagues)
      .where(and(listedUnranked, inRankedCompetition))
      .orderBy(asc(leagues.id))
      .limit(to - Math.max(from, ranked + 1) + 1)
      .offset(skip);
    found.forEach((r, i) => {
      rows.push({ ...r, rank: ranked + skip + i + 1, previousRank: null });
    });
  }
  return {
    rows: rows.map(({ id, name, totalPoints, rank, previousRank }) => ({
      id,
      name,
      totalPoints,
      rank,
      previousRank,
    })),
    page,
    pageCount,
    pageSize,
    total,
  };
}

/**
 * The viewer's leagues with their places, best first (highlighting and "your leagues"), and how
 * many members each has (a league of one is not listed: LEAGUE_RANKING_MIN_MEMBERS).
 */
export async function getLeagueStandingsOfUser(
  db: DbOrTx,
  userId: number,
  competitionId?: number | null,
): Promise<(LeagueRankingRow & { memberCount: number })[]> {
  const rows = await db
    .select({
      id: leagues.id,
      name: leagues.name,
      totalPoints: leagues.totalPoints,
      rank: leagues.ranking,
      previousRank: leagues.previousRanking,
      memberCount: sql<number>`(select count(*)::int from ${leagueMembers} m where m.league_id = ${leagues.id})`,
    })
    .from(leagueMembers)
    .innerJoin(leagues, eq(leagues.id, leagueMembers.leagueId))
    .where(
      and(
        eq(leagueMembers.userId, userId),
        sql`${leagues.competitionId} = ${competitionOf(competitionId)}`,
      ),
    )
    .orderBy(sql`${leagues.ranking} asc nulls last`, asc(leagues.id));
  return rows.map((r) => ({ ...r, rank: r.rank ?? 0, memberCount: Number(r.memberCount) }));
}

/** A place on a competition's podium. */
export interface PodiumPlace {
  rank: number;
  username: string;
  points: number;
}

export interface HallOfFameEntry {
  competition: RankedCompetition & { discipline: string; state: string };
  podium: PodiumPlace[];
}

/**
 * The podium of a competition's table: its players of rank 1 to 3 (ties share a step, so a
 * podium can hold more than three).
 */
export function getCompetitionPodium(db: DbOrTx, competitionId: number): Promise<PodiumPlace[]> {
  return db
    .select({
      rank: seasonStandings.rank,
      username: users.username,
      points: seasonStandings.points,
    })
    .from(seasonStandings)
    .innerJoin(users, eq(users.id, seasonStandings.userId))
    .where(and(eq(seasonStandings.competitionId, competitionId), sql`${seasonStandings.rank} <= 3`))
    .orderBy(asc(seasonStandings.position))
    .limit(12);
}

/** Every finished competition's podium, latest first: the hall of fame across years. */
export async function getHallOfFame(
  db: DbOrTx,
  now: Date = new Date(),
): Promise<HallOfFameEntry[]> {
  const finished = (await listCompetitions(db, now))
    .filter((c) => c.state === "finished" || c.state === "archived")
    .map((c) => ({ c, at: Math.max(0, ...c.rounds.map((r) => r.startsAt.getTime())) }))
    .sort((a, b) => b.at - a.at || b.c.id - a.c.id);
  const out: HallOfFameEntry[] = [];
  for (const { c } of finished) {
    const podium = await getCompetitionPodium(db, c.id);
    if (podium.length === 0) continue;
    out.push({
      competition: {
        id: c.id,
        slug: c.slug,
        name: c.name,
        season: c.season,
        discipline: c.discipline,
        state: c.state,
      },
      podium,
    });
  }
  return out;
}
