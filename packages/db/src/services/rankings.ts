import { type Category, LEAGUE_RANKING_MIN_MEMBERS, type ResultStatus } from "@game/core";
import { and, asc, between, desc, eq, inArray, isNotNull, max, type SQL, sql } from "drizzle-orm";
import { type DbOrTx, rowsOf } from "../client.js";
import {
  competitions,
  eventPicks,
  eventScores,
  events,
  frozenTeamRacers,
  leagueMembers,
  leaguePlaces,
  leagues,
  raceResults,
  racers,
  seasonStandings,
  teamRacers,
  teams,
  users,
} from "../schema/index.js";
import { listCompetitions, RANKED_COMPETITION_SQL } from "./competitions.js";
import { pickedByPercentSql } from "./picks.js";
import type { PublicRacer } from "./racers.js";

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

export interface PlayerEventScore {
  eventId: number;
  eventName: string;
  /** The round's competition (season points and rank are within it). */
  competitionSlug: string;
  competitionName: string;
  startsAt: Date;
  points: number;
  rank: number | null;
  /** Players scored in that event. */
  players: number;
  /** The competition's points after this event (its every scored event up to it). */
  seasonPoints: number;
  /** The competition's rank after this event (shared ranks, 1, 1, 3), null when not known. */
  seasonRank: number | null;
}

/** A competition a player played, with where they finished (or stand, while it runs). */
export interface PlayerCompetitionRecord {
  slug: string;
  name: string;
  season: string;
  discipline: string;
  state: "upcoming" | "live" | "finished" | "archived";
  points: number;
  rank: number;
  /** Players in that competition's table. */
  players: number;
}

export interface FrozenRacerScore {
  racerId: number;
  firstName: string;
  lastName: string;
  category: Category;
  /** Portrait file name under /img/racer_portrait/, or null. */
  picture: string | null;
  /** Nation (its generated avatar's colours come from name and nation). */
  origin: string;
  /** The racer's price for that event and 2024 rank (0: unranked). */
  price: number;
  rank2024: number;
  status: ResultStatus | null;
  position: number | null;
  points: number;
}

export interface PlayerProfile {
  id: number;
  username: string;
  /** The competition the rankings show by default, and the player's standing in it. */
  competition: RankedCompetition | null;
  points: number;
  ranking: number | null;
  previousRanking: number | null;
  rankingPosition: number | null;
  /** Every competition the player is ranked in, latest first: their history across years. */
  competitions: PlayerCompetitionRecord[];
  events: PlayerEventScore[];
  /** The frozen team of each scored event, by event id (never a team that can still change). */
  teams: Record<number, FrozenRacerScore[]>;
}

/**
 * A player's public page: their standing in the default competition, their record in every
 * competition they played, their score per settled event and the teams scored.
 */
export async function getPlayerProfile(
  db: DbOrTx,
  username: string,
  now: Date = new Date(),
): Promise<PlayerProfile | null> {
  const [user] = await db
    .select({ id: users.id, username: users.username })
    .from(users)
    .where(eq(users.usernameKey, username.trim().toLowerCase()));
  if (!user) return null;
  const [competition, standing, records] = await Promise.all([
    resolveRankedCompetition(db),
    getPlayerStanding(db, user.id),
    competitionRecords(db, user.id, now),
  ]);
  const scored = await db
    .select({
      eventId: eventScores.eventId,
      eventName: events.name,
      competitionId: events.competitionId,
      competitionSlug: competitions.slug,
      competitionName: competitions.name,
      startsAt: events.startsAt,
      points: eventScores.points,
      rank: eventScores.rank,
    })
    .from(eventScores)
    .innerJoin(events, eq(events.id, eventScores.eventId))
    .innerJoin(competitions, eq(competitions.id, events.competitionId))
    .where(and(eq(eventScores.userId, user.id), isNotNull(events.settledAt)))
    .orderBy(asc(events.startsAt), asc(events.id));
  const eventIds = scored.map((s) => s.eventId);
  const fieldSizes = new Map<number, number>();
  for (const id of eventIds) {
    // One index lookup per event: the last place is the field size.
    const [last] = await db
      .select({ n: max(eventScores.position) })
      .from(eventScores)
      .where(eq(eventScores.eventId, id));
    fieldSizes.set(id, last?.n ?? 0);
  }
  const racerRows = eventIds.length
    ? await db
        .select({
          eventId: frozenTeamRacers.eventId,
          racerId: racers.id,
          firstName: racers.firstName,
          lastName: racers.lastName,
          category: racers.category,
          picture: racers.picture,
          origin: racers.origin,
          price: racers.price,
          rank2024: racers.rank2024,
          status: raceResults.status,
          position: raceResults.position,
          points: sql<number>`coalesce(${raceResults.points}, 0)`,
        })
        .from(frozenTeamRacers)
        .innerJoin(racers, eq(racers.id, frozenTeamRacers.racerId))
        .leftJoin(
          raceResults,
          and(
            eq(raceResults.eventId, frozenTeamRacers.eventId),
            eq(raceResults.racerId, frozenTeamRacers.racerId),
          ),
        )
        .where(
          and(eq(frozenTeamRacers.userId, user.id), inArray(frozenTeamRacers.eventId, eventIds)),
        )
        .orderBy(sql`coalesce(${raceResults.points}, 0) desc`, asc(racers.lastName))
    : [];
  const teamsByEvent: Record<number, FrozenRacerScore[]> = {};
  for (const { eventId, ...r } of racerRows) {
    teamsByEvent[eventId] ??= [];
    teamsByEvent[eventId].push(r);
  }
  const season = await seasonRanksAfter(db, user.id, scored);
  return {
    ...user,
    competition,
    points: standing?.points ?? 0,
    ranking: standing?.rank ?? null,
    previousRanking: standing?.previousRank ?? null,
    rankingPosition: standing?.position ?? null,
    competitions: records,
    events: scored.map(({ competitionId: _c, ...s }) => ({
      ...s,
      players: fieldSizes.get(s.eventId) ?? 0,
      seasonPoints: season.get(s.eventId)?.points ?? 0,
      seasonRank: season.get(s.eventId)?.rank ?? null,
    })),
    teams: teamsByEvent,
  };
}

/** The player's row in every competition's table, latest competition first. */
async function competitionRecords(
  db: DbOrTx,
  userId: number,
  now: Date,
): Promise<PlayerCompetitionRecord[]> {
  const rows = await db
    .select({
      competitionId: seasonStandings.competitionId,
      points: seasonStandings.points,
      rank: seasonStandings.rank,
      // Spelled out: drizzle leaves a one-table select's columns unqualified.
      players: sql<number>`(select max(x.position) from season_standings x
        where x.competition_id = "season_standings"."competition_id")::int`,
    })
    .from(seasonStandings)
    .where(eq(seasonStandings.userId, userId));
  if (rows.length === 0) return [];
  const all = await listCompetitions(db, now);
  const byId = new Map(all.map((c, i) => [c.id, { c, i }]));
  return rows
    .flatMap((r) => {
      const found = byId.get(r.competitionId);
      if (!found) return [];
      const { c, i } = found;
      const last = Math.max(0, ...c.rounds.map((e) => e.startsAt.getTime()));
      return [
        {
          at: last,
          order: i,
          record: {
            slug: c.slug,
            name: c.name,
            season: c.season,
            discipline: c.discipline,
            state: c.state,
            points: r.points,
            rank: r.rank,
            players: r.players,
          },
        },
      ];
    })
    .sort((a, b) => b.at - a.at || a.order - b.order)
    .map((x) => x.record);
}

/**
 * The player's points and rank in each round's competition after each of their scored rounds.
 * The competition's latest settled round's ranks are stored (its table) and so are those before
 * it (previous_rank); an older round is counted from event_scores (players of the competition
 * with more points by then, plus one).
 */
async function seasonRanksAfter(
  db: DbOrTx,
  userId: number,
  scored: readonly { eventId: number; competitionId: number; startsAt: Date; points: number }[],
): Promise<Map<number, { points: number; rank: number | null }>> {
  const out = new Map<number, { points: number; rank: number | null }>();
  if (scored.length === 0) return out;
  const competitionIds = [...new Set(scored.map((s) => s.competitionId))];
  const [settled, stored] = await Promise.all([
    db
      .select({ id: events.id, competitionId: events.competitionId })
      .from(events)
      .where(and(isNotNull(events.settledAt), inArray(events.competitionId, competitionIds)))
      .orderBy(desc(events.startsAt), desc(events.id)),
    db
      .select({
        competitionId: seasonStandings.competitionId,
        rank: seasonStandings.rank,
        previousRank: seasonStandings.previousRank,
      })
      .from(seasonStandings)
      .where(
        and(
          eq(seasonStandings.userId, userId),
          inArray(seasonStandings.competitionId, competitionIds),
        ),
      ),
  ]);
  const cumulative = new Map<number, number>();
  for (const s of scored) {
    const total = (cumulative.get(s.competitionId) ?? 0) + s.points;
    cumulative.set(s.competitionId, total);
    const rounds = settled.filter((e) => e.competitionId === s.competitionId);
    const own = stored.find((r) => r.competitionId === s.competitionId);
    let rank: number | null;
    if (s.eventId === rounds[0]?.id) rank = own?.rank ?? null;
    else if (s.eventId === rounds[1]?.id) rank = own?.previousRank ?? null;
    else {
      const [row] = rowsOf<{ n: number }>(
        await db.execute(sql`
          select count(*)::int as n from (
            select es.user_id from event_scores es join events e on e.id = es.event_id
            where e.settled_at is not null and e.competition_id = ${s.competitionId}
              and e.starts_at <= ${s.startsAt.toISOString()}::timestamptz
            group by es.user_id having sum(es.points) > ${total}) t`),
      );
      rank = (row?.n ?? 0) + 1;
    }
    out.set(s.eventId, { points: total, rank });
  }
  return out;
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

export interface RacerEventResult {
  /** The racer's entry in that round (its own `racers` row, its own page). */
  racerId: number;
  eventId: number;
  eventName: string;
  startsAt: Date;
  category: Category;
  /** The racer's price in that round (prices move between rounds; decision 0100). */
  price: number;
  /** Withdrawn from that round (did not start). */
  withdrawn: boolean;
  status: ResultStatus | null;
  position: number | null;
  points: number | null;
  /** Teams that picked the racer: frozen teams once scored, current teams before. */
  pickedBy: number;
  /** Teams in the event (the share picking the racer is pickedBy / teams). */
  teams: number;
  settled: boolean;
}

export interface RacerProfile extends PublicRacer {
  /** Points in this entry's competition's settled rounds so far. */
  seasonPoints: number;
  /** Season points per 100,000 of the current price, one decimal. */
  pointsPer100k: number;
  /** The racer's events (the same racer, matched by name, across events), in race order. */
  events: RacerEventResult[];
}

/**
 * The two counts a racer page needs for an event that is not scored yet. Both are exact
 * `count(*)`s on indexed columns (`team_racers_racer_idx`, `teams_event_idx`; PostgreSQL answers
 * the picks from the index alone), so they cost time in proportion to the rows counted: with
 * 1,000,000 teams on PostgreSQL about 50 ms for the event's total and 13 ms for a racer in a
 * quarter of them (docs/benchmarks.md). No index makes an exact count cheaper, so the web app
 * keeps them for a few seconds (apps/web/app/features/profiles/profiles.server.ts). They are two calls so
 * that the event's total, the dearer one, is counted once for all its racers.
 */
export interface PickCounter {
  /** Saved teams holding the racer (a racer row belongs to one event). */
  picks(racerId: number): Promise<number>;
  /** Saved teams of the event. */
  teams(eventId: number): Promise<number>;
}

/** Counts straight from the database, on every call. */
export function pickCounter(db: DbOrTx): PickCounter {
  const count = async (query: Promise<{ n: number }[]>) => (await query)[0]?.n ?? 0;
  const n = sql<number>`count(*)::int`;
  return {
    // A team holds racers as people, for its competition (docs/decisions/0157).
    picks: (racerId) =>
      count(
        db
          .select({ n })
          .from(racers)
          .innerJoin(events, eq(events.id, racers.gameId))
          .innerJoin(teamRacers, eq(teamRacers.personId, racers.personId))
          .innerJoin(
            teams,
            and(eq(teams.id, teamRacers.teamId), eq(teams.competitionId, events.competitionId)),
          )
          .where(eq(racers.id, racerId)),
      ),
    teams: (eventId) =>
      count(
        db
          .select({ n })
          .from(teams)
          .where(
            sql`${teams.competitionId} = (select ${events.competitionId} from ${events} where ${events.id} = ${eventId})`,
          ),
      ),
  };
}

/**
 * A racer's page: points per event and how many teams picked them. Before an event is scored the
 * counts come from `counter` (default: counted now; pass a cached one to share them).
 */
export async function getRacerProfile(
  db: DbOrTx,
  racerId: number,
  counter: PickCounter = pickCounter(db),
): Promise<RacerProfile | null> {
  if (!Number.isSafeInteger(racerId)) return null;
  const [racer] = await db.select().from(racers).where(eq(racers.id, racerId));
  if (!racer) return null;
  // The same person has one racer row (entry) per round; the person ties them together.
  const entries = await db
    .select({
      racerId: racers.id,
      eventId: events.id,
      eventName: events.name,
      startsAt: events.startsAt,
      settledAt: events.settledAt,
      category: racers.category,
      price: racers.price,
      withdrawnAt: racers.withdrawnAt,
      status: raceResults.status,
      position: raceResults.position,
      points: raceResults.points,
      pickedBy: raceResults.pickedBy,
      counted: racers.pickedBy,
      countedTeams: eventPicks.teams,
      competitionId: events.competitionId,
    })
    .from(racers)
    .innerJoin(events, eq(events.id, racers.gameId))
    .leftJoin(
      raceResults,
      and(eq(raceResults.racerId, racers.id), eq(raceResults.eventId, racers.gameId)),
    )
    .leftJoin(eventPicks, eq(eventPicks.eventId, racers.gameId))
    .where(racer.personId != null ? eq(racers.personId, racer.personId) : eq(racers.id, racer.id))
    .orderBy(asc(events.startsAt), asc(events.id));
  const out: RacerEventResult[] = [];
  for (const e of entries) {
    const settled = e.settledAt != null && e.status != null;
    let pickedBy = e.pickedBy ?? 0;
    let teamCount = 0;
    if (settled) {
      const [last] = await db
        .select({ n: max(eventScores.position) })
        .from(eventScores)
        .where(eq(eventScores.eventId, e.eventId));
      teamCount = last?.n ?? 0;
    } else if (e.counted !== null && e.countedTeams !== null) {
      // Counted at the freeze, or by the 10-minute count while open (docs/decisions/0160).
      pickedBy = e.counted;
      teamCount = e.countedTeams;
    } else {
      [pickedBy, teamCount] = await Promise.all([
        counter.picks(e.racerId),
        counter.teams(e.eventId),
      ]);
    }
    out.push({
      racerId: e.racerId,
      eventId: e.eventId,
      eventName: e.eventName,
      startsAt: e.startsAt,
      category: e.category,
      price: e.price,
      withdrawn: e.withdrawnAt != null,
      status: e.status,
      position: e.position,
      points: settled ? (e.points ?? 0) : null,
      pickedBy,
      teams: teamCount,
      settled,
    });
  }
  const { nameKey: _key, createdAt: _c, updatedAt: _u, pickedBy: _p, ...pub } = racer;
  const [share] = await db
    .select({ pickedByPercent: pickedByPercentSql })
    .from(racers)
    .where(eq(racers.id, racer.id));
  // The season so far: the points of this entry's competition's settled rounds, and what they
  // are worth per 100,000 of the current price (the value pickers compare).
  const competitionOfRound = new Map(entries.map((e) => [e.eventId, e.competitionId]));
  const racerCompetition = competitionOfRound.get(racer.gameId);
  const season = out.filter(
    (e) => e.settled && competitionOfRound.get(e.eventId) === racerCompetition,
  );
  const seasonPoints = season.reduce((sum, e) => sum + (e.points ?? 0), 0);
  return {
    ...pub,
    pickedByPercent: share?.pickedByPercent ?? null,
    seasonPoints,
    pointsPer100k:
      racer.price > 0 ? Math.round((seasonPoints * 100_000 * 10) / racer.price) / 10 : 0,
    events: out,
  };
}
