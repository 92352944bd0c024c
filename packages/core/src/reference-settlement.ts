/**
 * The reference settlement: the rules of scoring and ranking in plain code, for tests only (the
 * game settles in SQL, in @game/db). The SQL settlement must give exactly this; property tests
 * compare the two on random seasons. Reached through `@game/core/testing`, never the main entry.
 */
import { LEAGUE_RANKING_MIN_MEMBERS } from "./constants.js";
import { pointsForStoredResult, type ResultStatus } from "./results.js";

export interface SettlementInput {
  /**
   * Every settled event (the one being settled included), with its competition: the season
   * table is the competition's of the latest settled event (docs/decisions/0156).
   */
  events: readonly { id: number; startsAt: Date | number; competitionId?: number }[];
  results: readonly {
    eventId: number;
    racerId: number;
    status: ResultStatus;
    position: number | null;
  }[];
  /** Frozen teams: one row per (event, player, racer). */
  frozen: readonly { eventId: number; userId: number; racerId: number }[];
  users: readonly { id: number; usernameKey: string }[];
  leagues: readonly { id: number; memberIds: readonly number[] }[];
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
  players: Map<number, SettledPlayer>;
  /** Key `${leagueId}:${userId}`: a member's score is their season points. */
  memberScores: Map<string, number>;
  /**
   * Every league's average; a place (and a previous place) only for leagues of
   * LEAGUE_RANKING_MIN_MEMBERS members, numbered among those, null for the others.
   */
  leagues: Map<
    number,
    { totalPoints: number; ranking: number | null; previousRanking: number | null }
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

export function referenceSettlement(input: SettlementInput): Settlement {
  const ms = (d: Date | number) => (d instanceof Date ? d.getTime() : d);
  const settled = new Set(input.events.map((e) => e.id));
  const latestEvent = [...input.events].sort(
    (a, b) => ms(b.startsAt) - ms(a.startsAt) || b.id - a.id,
  )[0];
  const latest = latestEvent?.id;
  const competitionOf = new Map(input.events.map((e) => [e.id, e.competitionId]));
  const inSeason = (eventId: number) => competitionOf.get(eventId) === latestEvent?.competitionId;
  const usernameKey = new Map(input.users.map((u) => [u.id, u.usernameKey]));

  const resultPoints = new Map<string, number>();
  const racers = new Map<string, { points: number; pickedBy: number }>();
  for (const r of input.results) {
    if (!settled.has(r.eventId)) continue;
    const points = pointsForStoredResult(r);
    resultPoints.set(`${r.eventId}:${r.racerId}`, points);
    racers.set(`${r.eventId}:${r.racerId}`, { points, pickedBy: 0 });
  }

  const teamPoints = new Map<number, Map<number, number>>();
  for (const f of input.frozen) {
    if (!settled.has(f.eventId)) continue;
    const key = `${f.eventId}:${f.racerId}`;
    const racer = racers.get(key);
    if (racer) racer.pickedBy += 1;
    const byUser = teamPoints.get(f.eventId) ?? new Map<number, number>();
    teamPoints.set(f.eventId, byUser);
    byUser.set(f.userId, (byUser.get(f.userId) ?? 0) + (resultPoints.get(key) ?? 0));
  }

  const eventScores = new Map<string, { points: number; rank: number; position: number }>();
  const season = new Map<number, { points: number; previous: number; hadPrevious: boolean }>();
  for (const [eventId, byUser] of teamPoints) {
    const entries = [...byUser].map(([id, points]) => ({
      key: id,
      id,
      points,
      usernameKey: usernameKey.get(id)!,
    }));
    const ranks = sharedRanks(entries);
    [...entries].sort(compareStanding).forEach((e, i) => {
      eventScores.set(`${eventId}:${e.id}`, {
        points: e.points,
        rank: ranks.get(e.id)!,
        position: i + 1,
      });
      if (!inSeason(eventId)) return;
      const s = season.get(e.id) ?? { points: 0, previous: 0, hadPrevious: false };
      s.points += e.points;
      if (eventId !== latest) {
        s.previous += e.points;
        s.hadPrevious = true;
      }
      season.set(e.id, s);
    });
  }

  const players = new Map<number, SettledPlayer>();
  const ranked = [...season].map(([id, s]) => ({
    key: id,
    id,
    points: s.points,
    usernameKey: usernameKey.get(id)!,
  }));
  const ranks = sharedRanks(ranked);
  const previousRanks = sharedRanks(
    [...season]
      .filter(([, s]) => s.hadPrevious)
      .map(([id, s]) => ({ key: id, points: s.previous })),
  );
  const positions = new Map([...ranked].sort(compareStanding).map((e, i) => [e.id, i + 1]));
  for (const u of input.users) {
    const s = season.get(u.id);
    players.set(u.id, {
      points: s?.points ?? 0,
      ranking: ranks.get(u.id) ?? null,
      previousRanking: previousRanks.get(u.id) ?? null,
      position: positions.get(u.id) ?? null,
    });
  }

  const memberScores = new Map<string, number>();
  const hasPrevious = input.events.filter((e) => inSeason(e.id)).length > 1;
  const leagueRows = input.leagues.map((l) => {
    const scores = l.memberIds.map((id) => players.get(id)?.points ?? 0);
    for (const [i, id] of l.memberIds.entries()) memberScores.set(`${l.id}:${id}`, scores[i]!);
    const previous = l.memberIds.map((id) => season.get(id)?.previous ?? 0);
    return {
      id: l.id,
      listed: l.memberIds.length >= LEAGUE_RANKING_MIN_MEMBERS,
      totalPoints: averageToCents(scores),
      previousPoints: averageToCents(previous),
    };
  });
  const listed = leagueRows.filter((l) => l.listed);
  const byTotal = [...listed].sort((a, b) => b.totalPoints - a.totalPoints || a.id - b.id);
  const byPrevious = [...listed].sort((a, b) => b.previousPoints - a.previousPoints || a.id - b.id);
  const place = new Map(byTotal.map((l, i) => [l.id, i + 1]));
  const previousPlace = new Map(byPrevious.map((l, i) => [l.id, i + 1]));
  const leagues = new Map(
    leagueRows.map((l) => [
      l.id,
      {
        totalPoints: l.totalPoints,
        ranking: place.get(l.id) ?? null,
        previousRanking: hasPrevious ? (previousPlace.get(l.id) ?? null) : null,
      },
    ]),
  );
  return { racers, eventScores, players, memberScores, leagues };
}
