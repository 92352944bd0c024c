import { autoSub, type Category, type ResultStatus, startedRace } from "@game/core";
import { and, asc, desc, eq, inArray, isNotNull, max, sql } from "drizzle-orm";
import { type DbOrTx, rowsOf } from "../client.js";
import {
  competitions,
  eventPicks,
  eventScores,
  events,
  frozenTeamRacers,
  frozenTeams,
  raceResults,
  racers,
  seasonStandings,
  teamRacers,
  teams,
  users,
} from "../schema/index.js";
import { listCompetitions } from "./competitions.js";
import { parseRules } from "./events.js";
import { pickedByPercentSql } from "./picks.js";
import type { PublicRacer } from "./racers.js";
import { getPlayerStanding, type RankedCompetition, resolveRankedCompetition } from "./rankings.js";

/*
 * The public pages of a player (their standing, record per competition and scored teams) and of
 * a racer (points per round and how many teams picked them), read from what the settlement
 * stored. The rankings themselves are in rankings.ts.
 */

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
  /** Its results are provisional: points and ranks may still move (docs/decisions/0171). */
  provisional: boolean;
  /** The competition's points after this event (its every scored event up to it). */
  seasonPoints: number;
  /** The competition's rank after this event (shared ranks, 1, 1, 3), null when not known. */
  seasonRank: number | null;
  /**
   * Where the rules limit transfers (docs/decisions/0170): the changes made for this round
   * (null: unlimited, or the team's first round), the points they cost, and whether the
   * wildcard made them free.
   */
  transfers: { changes: number | null; cost: number; wildcard: boolean };
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
  /** The racer's points from the result (a captain's count twice in the team's score). */
  points: number;
  /** The team's captain in that round (docs/decisions/0168). */
  captain: boolean;
  /** On the team's bench in that round (docs/decisions/0169). */
  bench: boolean;
  /**
   * The bench rule at work: "in" for the bench rider who came on (their points count), "out"
   * for the starter who did not start and was replaced; null otherwise.
   */
  autoSub: "in" | "out" | null;
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
  const scored = await scoredRounds(db, user.id);
  const eventIds = scored.map((s) => s.eventId);
  const fieldSizes = await fieldSizesOf(db, eventIds);
  const teamsByEvent = await scoredTeams(db, user.id, scored);
  const season = await seasonRanksAfter(db, user.id, scored);
  return {
    ...user,
    competition,
    points: standing?.points ?? 0,
    ranking: standing?.rank ?? null,
    previousRanking: standing?.previousRank ?? null,
    rankingPosition: standing?.position ?? null,
    competitions: records,
    events: scored.map(
      ({ competitionId: _c, rules: _r, transferChanges, transferCost, wildcard, ...s }) => ({
        transfers: { changes: transferChanges, cost: transferCost, wildcard },
        ...s,
        players: fieldSizes.get(s.eventId) ?? 0,
        seasonPoints: season.get(s.eventId)?.points ?? 0,
        seasonRank: season.get(s.eventId)?.rank ?? null,
      }),
    ),
    teams: teamsByEvent,
  };
}

/** The player's settled rounds, oldest first: points, rank, competition and transfers. */
function scoredRounds(db: DbOrTx, userId: number) {
  return db
    .select({
      eventId: eventScores.eventId,
      eventName: events.name,
      competitionId: events.competitionId,
      competitionSlug: competitions.slug,
      competitionName: competitions.name,
      startsAt: events.startsAt,
      points: eventScores.points,
      rank: eventScores.rank,
      rules: competitions.rules,
      provisional: events.provisional,
      transferChanges: frozenTeams.transferChanges,
      transferCost: sql<number>`coalesce(${frozenTeams.transferCost}, 0)`,
      wildcard: sql<boolean>`coalesce(${frozenTeams.wildcard}, false)`,
    })
    .from(eventScores)
    .innerJoin(events, eq(events.id, eventScores.eventId))
    .leftJoin(
      frozenTeams,
      and(eq(frozenTeams.eventId, eventScores.eventId), eq(frozenTeams.userId, eventScores.userId)),
    )
    .innerJoin(competitions, eq(competitions.id, events.competitionId))
    .where(and(eq(eventScores.userId, userId), isNotNull(events.settledAt)))
    .orderBy(asc(events.startsAt), asc(events.id));
}

/** Each round's number of ranked players: its last place (one index lookup per round). */
async function fieldSizesOf(db: DbOrTx, eventIds: number[]): Promise<Map<number, number>> {
  const sizes = new Map<number, number>();
  for (const id of eventIds) {
    const [last] = await db
      .select({ n: max(eventScores.position) })
      .from(eventScores)
      .where(eq(eventScores.eventId, id));
    sizes.set(id, last?.n ?? 0);
  }
  return sizes;
}

/**
 * The player's frozen team of each scored round, by round, best scorer first, with the bench
 * rider's substitution marked (`autoSub`: core's rule, as the settlement applied it).
 */
async function scoredTeams(
  db: DbOrTx,
  userId: number,
  scored: Awaited<ReturnType<typeof scoredRounds>>,
): Promise<Record<number, FrozenRacerScore[]>> {
  const eventIds = scored.map((s) => s.eventId);
  if (eventIds.length === 0) return {};
  const racerRows = await db
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
      captain: sql<boolean>`coalesce(${frozenTeams.captainRacerId} = ${racers.id}, false)`,
      bench: sql<boolean>`coalesce(${frozenTeams.benchRacerId} = ${racers.id}, false)`,
    })
    .from(frozenTeamRacers)
    .leftJoin(
      frozenTeams,
      and(
        eq(frozenTeams.eventId, frozenTeamRacers.eventId),
        eq(frozenTeams.userId, frozenTeamRacers.userId),
      ),
    )
    .innerJoin(racers, eq(racers.id, frozenTeamRacers.racerId))
    .leftJoin(
      raceResults,
      and(
        eq(raceResults.eventId, frozenTeamRacers.eventId),
        eq(raceResults.racerId, frozenTeamRacers.racerId),
      ),
    )
    .where(and(eq(frozenTeamRacers.userId, userId), inArray(frozenTeamRacers.eventId, eventIds)))
    .orderBy(sql`coalesce(${raceResults.points}, 0) desc`, asc(racers.lastName));
  const teamsByEvent: Record<number, FrozenRacerScore[]> = {};
  for (const { eventId, ...r } of racerRows) {
    teamsByEvent[eventId] ??= [];
    teamsByEvent[eventId].push({ ...r, autoSub: null });
  }
  for (const e of scored) {
    const team = teamsByEvent[e.eventId] ?? [];
    const bench = team.find((r) => r.bench);
    if (!bench) continue;
    const started = new Set(
      team.filter((r) => startedRace(r.status, e.provisional)).map((r) => r.racerId),
    );
    const sub = (r: FrozenRacerScore) => ({ id: r.racerId, category: r.category });
    const out = autoSub(
      team.filter((r) => !r.bench).map(sub),
      sub(bench),
      (id) => started.has(id),
      parseRules(e.rules),
    );
    if (out === null) continue;
    bench.autoSub = "in";
    team.find((r) => r.racerId === out)!.autoSub = "out";
  }
  return teamsByEvent;
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
