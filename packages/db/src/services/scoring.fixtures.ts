/**
 * Test helpers for scoring and rankings: players, racers, teams and leagues written straight
 * into the tables (fast, and without the team rules, which are not under test here), and the
 * reference settlement computed from the stored facts.
 */
import type { Category } from "@game/core";
import { referenceSettlement, type Settlement } from "@game/core/testing";
import { and, desc, eq, inArray, isNotNull, sql } from "drizzle-orm";
import { type DbOrTx, rowsOf } from "../client.js";
import {
  accounts,
  competitions,
  eventScores,
  events,
  frozenTeamRacers,
  frozenTeams,
  leagueMembers,
  leagues,
  raceResults,
  racers,
  seasonStandings,
  users,
} from "../schema/index.js";
import { CURRENT_COMPETITION_SQL } from "./competitions.js";
import { parseRules } from "./events.js";

let serial = 0;

export async function makePlayers(db: DbOrTx, usernames: readonly string[]) {
  if (usernames.length === 0) return [];
  serial += 1;
  const tag = `${serial}_${Date.now() % 1_000_000}`;
  const made = await db
    .insert(accounts)
    .values(
      usernames.map((u) => ({
        email: `${u.toLowerCase()}.${tag}@example.com`,
        passwordHash: "test:unusable",
      })),
    )
    .returning({ id: accounts.id, email: accounts.email });
  const rows = made.map((a, i) => ({
    id: a.id,
    email: a.email,
    username: usernames[i]!,
    usernameKey: usernames[i]!.toLowerCase(),
    // Players of long standing: their addresses are confirmed (decision 0151).
    emailConfirmedAt: new Date(),
  }));
  await db.insert(users).values(rows);
  return rows.map(({ id, username, usernameKey }) => ({ id, username, usernameKey }));
}

export async function addRacers(
  db: DbOrTx,
  eventId: number,
  list: readonly { category: Category; firstName: string; lastName: string }[],
) {
  return db
    .insert(racers)
    .values(
      list.map((r) => ({
        ...r,
        gameId: eventId,
        nameKey: `${r.firstName}|${r.lastName}`.toLowerCase(),
      })),
    )
    .returning({
      id: racers.id,
      category: racers.category,
      firstName: racers.firstName,
      lastName: racers.lastName,
    });
}

export { putTeam } from "../fixtures/teams.js";

export async function putLeague(db: DbOrTx, name: string, memberIds: readonly number[]) {
  const [league] = await db
    .insert(leagues)
    .values({
      name,
      ownerId: memberIds[0]!,
      joinCode: `code-${name}-${Math.random().toString(36).slice(2)}`,
      competitionId: sql`${CURRENT_COMPETITION_SQL}`,
    })
    .returning({ id: leagues.id });
  if (memberIds.length > 0) {
    await db
      .insert(leagueMembers)
      .values(memberIds.map((userId) => ({ leagueId: league!.id, userId })));
  }
  return league!.id;
}

/** Writes results straight into race_results (the import path has its own tests). */
export async function putResults(
  db: DbOrTx,
  eventId: number,
  rows: readonly {
    racerId: number;
    category: Category;
    status: "finished" | "DNF" | "DNS" | "DSQ";
    position: number | null;
  }[],
) {
  await db.delete(raceResults).where(eq(raceResults.eventId, eventId));
  if (rows.length > 0) await db.insert(raceResults).values(rows.map((r) => ({ ...r, eventId })));
}

/** Empties everything scoring touches (racers and events stay). */
export async function resetGame(db: DbOrTx) {
  // DELETE, not TRUNCATE: on small tables it is much faster on PostgreSQL (no file rewrite).
  for (const table of [
    "audit_log",
    "event_scores",
    "season_standings",
    "race_results",
    "frozen_team_racers",
    "frozen_teams",
    "team_racers",
    "teams",
    "league_members",
    "league_invitations",
    "leagues",
    "sessions",
    "users",
    "accounts",
  ]) {
    await db.execute(sql.raw(`delete from ${table}`));
  }
  await db.update(events).set({ frozenAt: null, settledAt: null, provisional: false });
}

/** The reference settlement of the stored facts: settled events, results, frozen teams, members. */
export async function referenceFromDb(db: DbOrTx): Promise<Settlement> {
  const settled = await db
    .select({
      id: events.id,
      startsAt: events.startsAt,
      competitionId: events.competitionId,
      provisional: events.provisional,
    })
    .from(events)
    .where(isNotNull(events.settledAt));
  const ids = settled.map((e) => e.id);
  const results = ids.length
    ? await db
        .select({
          eventId: raceResults.eventId,
          racerId: raceResults.racerId,
          status: raceResults.status,
          position: raceResults.position,
        })
        .from(raceResults)
        .where(inArray(raceResults.eventId, ids))
    : [];
  const frozen = ids.length
    ? await db.select().from(frozenTeamRacers).where(inArray(frozenTeamRacers.eventId, ids))
    : [];
  // The frozen teams' captains, bench riders and transfer costs (decisions 0168-0170).
  const teamRows = ids.length
    ? await db.select().from(frozenTeams).where(inArray(frozenTeams.eventId, ids))
    : [];
  const holder = ({ eventId, userId }: (typeof teamRows)[number], racerId: number | null) =>
    racerId === null ? [] : [{ eventId, userId, racerId }];
  const captains = teamRows.flatMap((f) => holder(f, f.captainRacerId));
  const benches = teamRows.flatMap((f) => holder(f, f.benchRacerId));
  const transferCosts = teamRows
    .filter((f) => f.transferCost !== 0)
    .map((f) => ({ eventId: f.eventId, userId: f.userId, cost: f.transferCost }));
  const categories = ids.length
    ? await db
        .select({ racerId: racers.id, category: racers.category })
        .from(racers)
        .where(inArray(racers.gameId, ids))
    : [];
  const rules = Object.fromEntries(
    (await db.select({ id: competitions.id, rules: competitions.rules }).from(competitions)).map(
      (c) => [c.id, parseRules(c.rules)],
    ),
  );
  const allUsers = await db.select({ id: users.id, usernameKey: users.usernameKey }).from(users);
  const members = await db.select().from(leagueMembers).where(eq(leagueMembers.status, "accepted"));
  const allLeagues = await db
    .select({ id: leagues.id, competitionId: leagues.competitionId })
    .from(leagues);
  return referenceSettlement({
    events: settled,
    results,
    frozen,
    captains,
    benches,
    transferCosts,
    categories,
    rules,
    users: allUsers,
    leagues: allLeagues.map((l) => ({
      id: l.id,
      competitionId: l.competitionId,
      memberIds: members.filter((m) => m.leagueId === l.id).map((m) => m.userId),
    })),
  });
}

/** The competition of the latest settled event (-1 without one). */
async function seasonCompetitionId(db: DbOrTx): Promise<number> {
  const [latest] = await db
    .select({ competitionId: events.competitionId })
    .from(events)
    .where(isNotNull(events.settledAt))
    .orderBy(desc(events.startsAt), desc(events.id))
    .limit(1);
  return latest?.competitionId ?? -1;
}

/** Competitions with a settled event: the settlement keeps their tables and leagues. */
async function settledCompetitionIds(db: DbOrTx): Promise<Set<number>> {
  const rows = await db
    .selectDistinct({ id: events.competitionId })
    .from(events)
    .where(isNotNull(events.settledAt));
  return new Set(rows.map((r) => r.id));
}

/** What the settlement stored, in the reference's shape. */
export async function storedSettlement(db: DbOrTx): Promise<Settlement> {
  const settled = await db
    .select({ id: events.id })
    .from(events)
    .where(isNotNull(events.settledAt));
  const ids = settled.map((e) => e.id);
  const rr = ids.length
    ? await db.select().from(raceResults).where(inArray(raceResults.eventId, ids))
    : [];
  const es = await db.select().from(eventScores);
  const us = await db.select({ id: users.id }).from(users);
  const st = await db.select().from(seasonStandings);
  const season = await seasonCompetitionId(db);
  const competitionsSettled = await settledCompetitionIds(db);
  const ls = (await db.select().from(leagues)).filter((l) =>
    competitionsSettled.has(l.competitionId),
  );
  // The league places (what ranking pages read) must say what the leagues' own rows say.
  const places = rowsOf<{ competition_id: number; place: number; league_id: number }>(
    await db.execute(sql`select competition_id, place, league_id from league_places`),
  );
  for (const l of ls) {
    const placed = places.filter((p) => p.league_id === l.id).map((p) => p.place);
    if (JSON.stringify(placed) !== JSON.stringify(l.ranking === null ? [] : [l.ranking])) {
      throw new Error(`league ${l.id}: places ${placed} but ranking ${l.ranking}`);
    }
  }
  const ms = (await db.select().from(leagueMembers)).filter((m) =>
    ls.some((l) => l.id === m.leagueId),
  );
  const row = (s: (typeof st)[number]) => ({
    points: s.points,
    ranking: s.rank,
    previousRanking: s.previousRank,
    position: s.position,
  });
  const standings = new Map(st.map((s) => [`${s.competitionId}:${s.userId}`, row(s)]));
  const competitionOfLeague = new Map(ls.map((l) => [l.id, l.competitionId]));
  return {
    racers: new Map(
      rr.map((r) => [`${r.eventId}:${r.racerId}`, { points: r.points, pickedBy: r.pickedBy }]),
    ),
    eventScores: new Map(
      es.map((e) => [
        `${e.eventId}:${e.userId}`,
        { points: e.points, rank: e.rank!, position: e.position! },
      ]),
    ),
    players: new Map(
      us.map((u) => [
        u.id,
        standings.get(`${season}:${u.id}`) ?? {
          points: 0,
          ranking: null,
          previousRanking: null,
          position: null,
        },
      ]),
    ),
    standings,
    memberScores: new Map(
      ms.map((m) => [
        `${m.leagueId}:${m.userId}`,
        standings.get(`${competitionOfLeague.get(m.leagueId)}:${m.userId}`)?.points ?? 0,
      ]),
    ),
    leagues: new Map(
      ls.map((l) => [
        l.id,
        { totalPoints: l.totalPoints, ranking: l.ranking, previousRanking: l.previousRanking },
      ]),
    ),
  };
}

/** Every table the settlement writes, as plain sorted rows (to compare two runs exactly). */
export async function snapshot(db: DbOrTx) {
  const q = (text: string) =>
    db.execute(sql.raw(text)).then((r) => rowsOf<Record<string, unknown>>(r));
  return {
    results: await q(
      "select event_id, racer_id, points, picked_by from race_results order by 1, 2",
    ),
    scores: await q("select * from event_scores order by event_id, user_id"),
    standings: await q("select * from season_standings order by competition_id, position"),
    leagues: await q("select id, total_points, ranking, previous_ranking from leagues order by id"),
    places: await q("select * from league_places order by competition_id, place"),
  };
}

export async function frozenTeam(db: DbOrTx, eventId: number, userId: number) {
  const rows = await db
    .select({ racerId: frozenTeamRacers.racerId })
    .from(frozenTeamRacers)
    .where(and(eq(frozenTeamRacers.eventId, eventId), eq(frozenTeamRacers.userId, userId)));
  return rows.map((r) => r.racerId).sort((a, b) => a - b);
}

/**
 * Every player's figures in the latest settled event's competition's table, in user id order
 * (points 0 and null ranks when not ranked there).
 */
export async function playerFigures(db: DbOrTx) {
  const { players } = await storedSettlement(db);
  return [...players.entries()].sort(([a], [b]) => a - b).map(([id, p]) => ({ id, ...p }));
}
