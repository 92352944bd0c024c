/**
 * The reference settlement: the rules of scoring and ranking in plain code, for tests only (the
 * game settles in SQL, in @game/db). The SQL settlement must give exactly this; property tests
 * compare the two on random seasons. Reached through `@game/core/testing`, never the main entry.
 */
import type { Category } from "./categories.js";
import { LEAGUE_RANKING_MIN_MEMBERS } from "./constants.js";
import { pointsForStoredResult, type ResultStatus } from "./results.js";
import { type CompetitionRules, DEFAULT_RULES } from "./rules.js";
import { autoSub, startedRace } from "./team.js";

export interface SettlementInput {
  /**
   * Every settled event (the one being settled included), with its competition: the season
   * table is the competition's of the latest settled event (docs/decisions/0156).
   */
  events: readonly {
    id: number;
    startsAt: Date | number;
    competitionId?: number;
    /** Its results are provisional: a racer without one has not run yet (decision 0171). */
    provisional?: boolean;
  }[];
  results: readonly {
    eventId: number;
    racerId: number;
    status: ResultStatus;
    position: number | null;
  }[];
  /** Frozen teams: one row per (event, player, racer). */
  frozen: readonly { eventId: number; userId: number; racerId: number }[];
  /**
   * The captains of frozen teams (decision 0168): a racer of the team, frozen only where the
   * competition's rules have captains. Their points count twice.
   */
  captains?: readonly { eventId: number; userId: number; racerId: number }[];
  /**
   * The bench riders of frozen teams (decision 0169), also among `frozen`: they score only for a
   * starter who did not start (core's `autoSub`, judged by `rules` and `categories`).
   */
  benches?: readonly { eventId: number; userId: number; racerId: number }[];
  /** Points each frozen team's extra transfers cost it in the round (decision 0170). */
  transferCosts?: readonly { eventId: number; userId: number; cost: number }[];
  /** Every racer's category (a starter without a result has none there). */
  categories?: readonly { racerId: number; category: Category }[];
  /** Each competition's rules, by id (the spec's by default). */
  rules?: Readonly<Record<number, CompetitionRules>>;
  users: readonly { id: number; usernameKey: string }[];
  /** Leagues with their competition (the latest settled event's when not given). */
  leagues: readonly {
    id: number;
    memberIds: readonly number[];
    competitionId?: number;
  }[];
}

export interface SettledPlayer {
  points: number;
  /** Season rank, shared on ties (1, 1, 3); null before the first scored event. */
  ranking: number | null;
  /** Season rank before the latest settled event; null when not ranked then. */
  previousRanking: number | null;
  /** Unique place in the season table (ties ordered by username, then id); null when unranked. */
  position: number | null;
}

export interface Settlement {
  /** Key `${eventId}:${racerId}`. */
  racers: Map<string, { points: number; pickedBy: number }>;
  /** Key `${eventId}:${userId}`. */
  eventScores: Map<string, { points: number; rank: number; position: number }>;
  /** Every player in the latest settled event's competition's table (unranked: nulls, 0). */
  players: Map<number, SettledPlayer>;
  /**
   * Every competition's table (docs/decisions/0159), key `${competitionId}:${userId}`, ranked
   * players only; a competition of events without one is keyed 0.
   */
  standings: Map<string, SettledPlayer>;
  /** Key `${leagueId}:${userId}`: a member's score is their points in the league's competition. */
  memberScores: Map<string, number>;
  /**
   * The leagues of competitions with a settled event: each one's average; a place (and a
   * previous place) only for leagues of LEAGUE_RANKING_MIN_MEMBERS members, numbered among its
   * competition's, null for the others.
   */
  leagues: Map<
    number,
    {
      totalPoints: number;
      ranking: number | null;
      previousRanking: number | null;
    }
  >;
}

/** Average of member scores in hundredths, rounded half up, computed exactly. */
export function averageToCents(scores: readonly number[]): number {
  if (scores.length === 0) return 0;
  const total = scores.reduce((a, b) => a + b, 0);
  return Math.round((total * 100) / scores.length) / 100;
}

/** Competition ranks ("1, 1, 3") for `points`, any order; rank = 1 + number strictly higher. */
function sharedRanks<K>(entries: readonly { key: K; points: number }[]): Map<K, number> {
  const sorted = [...entries].sort((a, b) => b.points - a.points);
  const ranks = new Map<K, number>();
  sorted.forEach((e, i) => {
    const prev = sorted[i - 1];
    ranks.set(e.key, prev && prev.points === e.points ? ranks.get(prev.key)! : i + 1);
  });
  return ranks;
}

/** Order of the tables: points highest first, then username (case-insensitive), then id. */
export function compareStanding(
  a: { points: number; usernameKey: string; id: number },
  b: { points: number; usernameKey: string; id: number },
): number {
  if (a.points !== b.points) return b.points - a.points;
  if (a.usernameKey !== b.usernameKey) return a.usernameKey < b.usernameKey ? -1 : 1;
  return a.id - b.id;
}

/** What every step reads: which events count, their competitions, the players' sort keys. */
interface Context {
  settled: Set<number>;
  competitionOf: Map<number, number>;
  /** Each competition's latest settled event: its table's "before" leaves that one out. */
  latestOf: Map<number, number>;
  /** The competition of the latest settled event: the one `players` is the table of. */
  seasonCompetition: number;
  usernameKey: Map<number, string>;
}

function contextOf(input: SettlementInput): Context {
  const ms = (d: Date | number) => (d instanceof Date ? d.getTime() : d);
  const newestFirst = [...input.events].sort(
    (a, b) => ms(b.startsAt) - ms(a.startsAt) || b.id - a.id,
  );
  const latestOf = new Map<number, number>();
  for (const e of newestFirst) {
    if (!latestOf.has(e.competitionId ?? 0)) latestOf.set(e.competitionId ?? 0, e.id);
  }
  return {
    settled: new Set(input.events.map((e) => e.id)),
    competitionOf: new Map(input.events.map((e) => [e.id, e.competitionId ?? 0])),
    latestOf,
    seasonCompetition: newestFirst[0]?.competitionId ?? 0,
    usernameKey: new Map(input.users.map((u) => [u.id, u.usernameKey])),
  };
}

/** Step 1: each result's points, key `${eventId}:${racerId}` (picks are counted in step 2). */
function scoreResults(input: SettlementInput, ctx: Context) {
  const resultPoints = new Map<string, number>();
  const racers = new Map<string, { points: number; pickedBy: number }>();
  for (const r of input.results) {
    if (!ctx.settled.has(r.eventId)) continue;
    const points = pointsForStoredResult(r);
    resultPoints.set(`${r.eventId}:${r.racerId}`, points);
    racers.set(`${r.eventId}:${r.racerId}`, { points, pickedBy: 0 });
  }
  return { resultPoints, racers };
}

/** A round's team points by player, by event. */
type TeamPoints = Map<number, Map<number, number>>;

/**
 * Step 2: each frozen team's points: its starters' results (the bench rider is picked but does
 * not score); counts each racer's picks.
 */
function scoreStarters(
  input: SettlementInput,
  ctx: Context,
  resultPoints: Map<string, number>,
  racers: Map<string, { pickedBy: number }>,
) {
  const benchOf = new Map<string, number>(
    (input.benches ?? []).map((b) => [`${b.eventId}:${b.userId}`, b.racerId]),
  );
  const starters = new Map<string, number[]>();
  const teamPoints: TeamPoints = new Map();
  for (const f of input.frozen) {
    if (!ctx.settled.has(f.eventId)) continue;
    const key = `${f.eventId}:${f.racerId}`;
    const racer = racers.get(key);
    if (racer) racer.pickedBy += 1;
    const byUser = teamPoints.get(f.eventId) ?? new Map<number, number>();
    teamPoints.set(f.eventId, byUser);
    const team = `${f.eventId}:${f.userId}`;
    const onBench = benchOf.get(team) === f.racerId;
    if (!onBench) starters.set(team, [...(starters.get(team) ?? []), f.racerId]);
    byUser.set(
      f.userId,
      (byUser.get(f.userId) ?? 0) + (onBench ? 0 : (resultPoints.get(key) ?? 0)),
    );
  }
  return { teamPoints, starters };
}

/**
 * Step 3: what the rules add to a team's points: the bench rider on for a starter who did not
 * start, the captain's points again, and minus the extra transfers' cost.
 */
function applyRoles(
  input: SettlementInput,
  ctx: Context,
  resultPoints: Map<string, number>,
  teamPoints: TeamPoints,
  starters: Map<string, number[]>,
) {
  const teamOf = (e: { eventId: number; userId: number }) => {
    const byUser = teamPoints.get(e.eventId);
    return ctx.settled.has(e.eventId) && byUser?.has(e.userId) ? byUser : null;
  };
  const categoryOf = new Map((input.categories ?? []).map((c) => [c.racerId, c.category]));
  const statusOf = new Map(input.results.map((r) => [`${r.eventId}:${r.racerId}`, r.status]));
  const provisional = new Set(input.events.filter((e) => e.provisional).map((e) => e.id));
  for (const b of input.benches ?? []) {
    const byUser = teamOf(b);
    if (!byUser) continue;
    const rules = input.rules?.[ctx.competitionOf.get(b.eventId) ?? 0] ?? DEFAULT_RULES;
    const sub = (id: number) => ({ id, category: categoryOf.get(id)! });
    const out = autoSub(
      (starters.get(`${b.eventId}:${b.userId}`) ?? []).map(sub),
      sub(b.racerId),
      (id) => startedRace(statusOf.get(`${b.eventId}:${id}`) ?? null, provisional.has(b.eventId)),
      rules,
    );
    if (out === null) continue;
    const points = (id: number) => resultPoints.get(`${b.eventId}:${id}`) ?? 0;
    byUser.set(b.userId, byUser.get(b.userId)! + points(b.racerId) - points(out));
  }

  const frozenRacers = new Set(input.frozen.map((f) => `${f.eventId}:${f.userId}:${f.racerId}`));
  for (const c of input.captains ?? []) {
    const byUser = teamOf(c);
    if (!byUser) continue;
    const onTeam = frozenRacers.has(`${c.eventId}:${c.userId}:${c.racerId}`);
    const bonus = onTeam ? (resultPoints.get(`${c.eventId}:${c.racerId}`) ?? 0) : 0;
    byUser.set(c.userId, byUser.get(c.userId)! + bonus);
  }

  for (const c of input.transferCosts ?? []) {
    const byUser = teamOf(c);
    if (!byUser) continue;
    byUser.set(c.userId, byUser.get(c.userId)! - c.cost);
  }
}

type Totals = { points: number; previous: number; hadPrevious: boolean };

/** Step 4: each round's ranks and places, and each player's totals per competition. */
function rankRounds(ctx: Context, teamPoints: TeamPoints) {
  const eventScores = new Map<string, { points: number; rank: number; position: number }>();
  const seasons = new Map<number, Map<number, Totals>>();
  for (const [eventId, byUser] of teamPoints) {
    const competition = ctx.competitionOf.get(eventId) ?? 0;
    const season = seasons.get(competition) ?? new Map<number, Totals>();
    seasons.set(competition, season);
    const entries = [...byUser].map(([id, points]) => ({
      key: id,
      id,
      points,
      usernameKey: ctx.usernameKey.get(id)!,
    }));
    const ranks = sharedRanks(entries);
    [...entries].sort(compareStanding).forEach((e, i) => {
      eventScores.set(`${eventId}:${e.id}`, {
        points: e.points,
        rank: ranks.get(e.id)!,
        position: i + 1,
      });
      const s = season.get(e.id) ?? { points: 0, previous: 0, hadPrevious: false };
      s.points += e.points;
      if (eventId !== ctx.latestOf.get(competition)) {
        s.previous += e.points;
        s.hadPrevious = true;
      }
      season.set(e.id, s);
    });
  }
  return { eventScores, seasons };
}

/** Step 5: each competition's table, and the players' rows of the latest one. */
function rankStandings(
  input: SettlementInput,
  ctx: Context,
  seasons: Map<number, Map<number, Totals>>,
) {
  const standings = new Map<string, SettledPlayer>();
  for (const [competition, season] of seasons) {
    const ranked = [...season].map(([id, s]) => ({
      key: id,
      id,
      points: s.points,
      usernameKey: ctx.usernameKey.get(id)!,
    }));
    const ranks = sharedRanks(ranked);
    const previousRanks = sharedRanks(
      [...season]
        .filter(([, s]) => s.hadPrevious)
        .map(([id, s]) => ({ key: id, points: s.previous })),
    );
    [...ranked].sort(compareStanding).forEach((e, i) => {
      standings.set(`${competition}:${e.id}`, {
        points: e.points,
        ranking: ranks.get(e.id)!,
        previousRanking: previousRanks.get(e.id) ?? null,
        position: i + 1,
      });
    });
  }
  const unranked: SettledPlayer = {
    points: 0,
    ranking: null,
    previousRanking: null,
    position: null,
  };
  const players = new Map<number, SettledPlayer>();
  for (const u of input.users) {
    players.set(u.id, standings.get(`${ctx.seasonCompetition}:${u.id}`) ?? { ...unranked });
  }
  return { standings, players };
}

/** Step 6: leagues, ranked within their competition, only competitions with a settled event. */
function rankLeagues(
  input: SettlementInput,
  ctx: Context,
  seasons: Map<number, Map<number, Totals>>,
  standings: Map<string, SettledPlayer>,
) {
  const memberScores = new Map<string, number>();
  const byCompetition = new Map<
    number,
    { id: number; listed: boolean; totalPoints: number; previousPoints: number }[]
  >();
  for (const l of input.leagues) {
    const competition = l.competitionId ?? ctx.seasonCompetition;
    const season = seasons.get(competition);
    if (!ctx.latestOf.has(competition)) continue;
    const scores = l.memberIds.map((id) => standings.get(`${competition}:${id}`)?.points ?? 0);
    for (const [i, id] of l.memberIds.entries()) memberScores.set(`${l.id}:${id}`, scores[i]!);
    const previous = l.memberIds.map((id) => season?.get(id)?.previous ?? 0);
    const rows = byCompetition.get(competition) ?? [];
    rows.push({
      id: l.id,
      listed: l.memberIds.length >= LEAGUE_RANKING_MIN_MEMBERS,
      totalPoints: averageToCents(scores),
      previousPoints: averageToCents(previous),
    });
    byCompetition.set(competition, rows);
  }
  const leagues: Settlement["leagues"] = new Map();
  for (const [competition, leagueRows] of byCompetition) {
    const hasPrevious =
      input.events.filter((e) => (e.competitionId ?? 0) === competition).length > 1;
    const listed = leagueRows.filter((l) => l.listed);
    const byTotal = [...listed].sort((a, b) => b.totalPoints - a.totalPoints || a.id - b.id);
    const byPrevious = [...listed].sort(
      (a, b) => b.previousPoints - a.previousPoints || a.id - b.id,
    );
    const place = new Map(byTotal.map((l, i) => [l.id, i + 1]));
    const previousPlace = new Map(byPrevious.map((l, i) => [l.id, i + 1]));
    for (const l of leagueRows) {
      leagues.set(l.id, {
        totalPoints: l.totalPoints,
        ranking: place.get(l.id) ?? null,
        previousRanking: hasPrevious ? (previousPlace.get(l.id) ?? null) : null,
      });
    }
  }
  return { memberScores, leagues };
}

export function referenceSettlement(input: SettlementInput): Settlement {
  const ctx = contextOf(input);
  const { resultPoints, racers } = scoreResults(input, ctx);
  const { teamPoints, starters } = scoreStarters(input, ctx, resultPoints, racers);
  applyRoles(input, ctx, resultPoints, teamPoints, starters);
  const { eventScores, seasons } = rankRounds(ctx, teamPoints);
  const { standings, players } = rankStandings(input, ctx, seasons);
  const { memberScores, leagues } = rankLeagues(input, ctx, seasons, standings);
  return { racers, eventScores, players, standings, memberScores, leagues };
}
