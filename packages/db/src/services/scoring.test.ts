import {
  CATEGORIES,
  type Category,
  DEFAULT_RULES,
  LOCK_MS,
  type ResultStatus,
  transferRound,
} from "@game/core";
import { eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { DbHandle } from "../client.js";
import {
  accounts,
  auditLog,
  competitions,
  eventScores,
  events,
  frozenTeamRacers,
  frozenTeams,
  leagues,
  racers,
  teamRacers,
  teams,
} from "../schema/index.js";
import { createTestDb, setRuleOptions } from "../testing.js";
import { parseRules } from "./events.js";
import { freezeDueEvents, freezeEvent } from "./freeze.js";
import {
  addRacers,
  frozenTeam,
  makePlayers,
  playerFigures,
  putLeague,
  putResults,
  putTeam,
  referenceFromDb,
  resetGame,
  snapshot,
  storedSettlement,
} from "./scoring.fixtures.js";
import { SettlementError, settleEvent } from "./scoring.js";

let h: DbHandle;
type R = { id: number; category: Category };
/** Racers of round 1 (event 5, seeded) and round 2 (event 6, added here). */
let round1: R[];
let round2: R[];
let round1Start: Date;
const now = new Date("2027-06-01T00:00:00Z");

beforeAll(async () => {
  h = await createTestDb({ seed: true });
  const { racers } = await import("../schema/index.js");
  round1 = await h.db
    .select({ id: racers.id, category: racers.category })
    .from(racers)
    .where(eq(racers.gameId, 5));
  round2 = await addRacers(
    h.db,
    6,
    CATEGORIES.flatMap((category, c) =>
      Array.from({ length: 5 }, (_, i) => ({ category, firstName: `R2c${c}`, lastName: `n${i}` })),
    ),
  );
  const [e5] = await h.db.select().from(events).where(eq(events.id, 5));
  round1Start = e5!.startsAt;
});
afterAll(async () => {
  await setCaptains(false);
  await h.close();
});

/** Turns captains on or off for the competition of rounds 5 and 6 (decision 0168). */
async function setCaptains(on: boolean) {
  await setRules({ captain: on, bench: false, limits: true });
}

/**
 * Every frozen team's transfer account as core's `transferRound` computes it from the frozen
 * teams (racers as people) of rounds 5 and 6 and the wildcard each team named (decision 0170).
 */
async function expectTransfers() {
  const [row] = await h.db
    .select({ rules: competitions.rules })
    .from(competitions)
    .innerJoin(events, eq(events.competitionId, competitions.id))
    .where(eq(events.id, 5));
  const rules = parseRules(row!.rules);
  const people = async (eventId: number) => {
    const rows = await h.db
      .select({ userId: frozenTeamRacers.userId, personId: racers.personId })
      .from(frozenTeamRacers)
      .innerJoin(racers, eq(racers.id, frozenTeamRacers.racerId))
      .where(eq(frozenTeamRacers.eventId, eventId));
    const byUser = new Map<number, Set<number>>();
    for (const r of rows)
      byUser.set(r.userId, (byUser.get(r.userId) ?? new Set()).add(r.personId!));
    return byUser;
  };
  const frozen = async (eventId: number) =>
    new Map(
      (await h.db.select().from(frozenTeams).where(eq(frozenTeams.eventId, eventId))).map((f) => [
        f.userId,
        f,
      ]),
    );
  const wildcards = new Map(
    (await h.db.select({ userId: teams.userId, at: teams.wildcardEventId }).from(teams)).map(
      (t) => [t.userId, t.at],
    ),
  );
  const [people5, people6, rows5, rows6] = await Promise.all([
    people(5),
    people(6),
    frozen(5),
    frozen(6),
  ]);
  // Round 6 counts against round 5 only once round 5 is frozen (it always is here).
  for (const [eventId, rows, mine, before, beforeRows] of [
    [5, rows5, people5, new Map(), new Map()],
    [6, rows6, people6, people5, rows5],
  ] as const) {
    for (const [userId, f] of rows) {
      const had = (before as Map<number, Set<number>>).get(userId);
      const prev = (beforeRows as Map<number, typeof f>).get(userId);
      const changes = [...mine.get(userId)!].filter((p) => !had?.has(p)).length;
      const out = transferRound(
        prev ? prev.transfersLeft : null,
        changes,
        wildcards.get(userId) === eventId,
        rules,
      );
      const expected = rules.transfers
        ? {
            changes,
            cost: out.cost,
            left: out.left,
            wildcard: rules.wildcard && wildcards.get(userId) === eventId,
          }
        : { changes: null, cost: 0, left: null, wildcard: false };
      expect({
        changes: f.transferChanges,
        cost: f.transferCost,
        left: f.transfersLeft,
        wildcard: f.wildcard,
      }).toEqual(expected);
    }
  }
}

/**
 * The options of the competition of rounds 5 and 6: captains (decision 0168), a bench (0169),
 * and the spec's women and junior limits or none.
 */
async function setRules(o: {
  captain: boolean;
  bench: boolean;
  limits: boolean;
  transfers?: { free: number; bank: number; cost: number } | null;
  wildcard?: boolean;
}) {
  const limits = o.limits
    ? { women: DEFAULT_RULES.women, juniors: DEFAULT_RULES.juniors }
    : { women: { min: 0, max: null }, juniors: { min: 0, max: null } };
  await setRuleOptions(h.db, 5, {
    ...limits,
    captain: o.captain,
    bench: o.bench,
    transfers: o.transfers ?? null,
    wildcard: o.wildcard ?? false,
  });
}
beforeEach(() => resetGame(h.db));

const byCategory = (list: R[], category: Category) => list.filter((r) => r.category === category);

describe("freezing", () => {
  it("freezes due events once, at the lock moment (12 h before the start)", async () => {
    const [p] = await makePlayers(h.db, ["early_bird"]);
    const team = round1.slice(0, 6).map((r) => r.id);
    await putTeam(h.db, p!.id, 5, team);
    const lock = new Date(round1Start.getTime() - LOCK_MS);
    const before = await freezeDueEvents(h.db, new Date(lock.getTime() - 1));
    expect(before.map((f) => f.eventId)).not.toContain(5);
    expect(await frozenTeam(h.db, 5, p!.id)).toEqual([]);

    const at = await freezeDueEvents(h.db, lock);
    expect(at).toContainEqual({ eventId: 5, teams: 1 });
    expect(await frozenTeam(h.db, 5, p!.id)).toEqual([...team].sort((a, b) => a - b));
    const [e] = await h.db.select().from(events).where(eq(events.id, 5));
    expect(e!.frozenAt).toEqual(lock);
    // Idempotent: nothing is frozen twice.
    expect(await freezeDueEvents(h.db, new Date(lock.getTime() + 60_000))).toEqual([]);
    expect(await freezeEvent(h.db, 5, now)).toBeNull();
  });

  it("a team edited after the lock keeps its frozen score", async () => {
    const [p, q] = await makePlayers(h.db, ["steady", "sneaky"]);
    const men = byCategory(round1, "Pro Men");
    await putTeam(h.db, p!.id, 5, [men[0]!.id]);
    const teamId = await putTeam(h.db, q!.id, 5, [men[1]!.id]);
    await freezeEvent(h.db, 5, new Date(round1Start.getTime() - LOCK_MS));
    // After the lock the winner is swapped in behind the rules' back.
    await h.db.delete(teamRacers).where(eq(teamRacers.teamId, teamId));
    await h.db.insert(teamRacers).values({
      teamId,
      personId: sql`(select person_id from racers where id = ${men[0]!.id})`,
      slot: 0,
      pricePaid: 1,
    });
    await putResults(h.db, 5, [
      { racerId: men[0]!.id, category: "Pro Men", status: "finished", position: 1 },
      { racerId: men[1]!.id, category: "Pro Men", status: "finished", position: 2 },
    ]);
    await settleEvent(h.db, 5, { now });
    const figures = await playerFigures(h.db);
    expect(figures.find((f) => f.id === p!.id)?.points).toBe(100);
    expect(figures.find((f) => f.id === q!.id)?.points).toBe(80);
  });

  it("a deleted player's frozen team and scores go with the account", async () => {
    const [gone, stays] = await makePlayers(h.db, ["leaving", "staying"]);
    const men = byCategory(round1, "Pro Men");
    await putTeam(h.db, gone!.id, 5, [men[0]!.id, men[1]!.id]);
    await putTeam(h.db, stays!.id, 5, [men[0]!.id]);
    await putResults(h.db, 5, [
      { racerId: men[0]!.id, category: "Pro Men", status: "finished", position: 1 },
    ]);
    await settleEvent(h.db, 5, { now });
    await h.db.delete(accounts).where(eq(accounts.id, gone!.id));
    expect(await frozenTeam(h.db, 5, gone!.id)).toEqual([]);
    expect(await frozenTeam(h.db, 5, stays!.id)).toEqual([men[0]!.id]);
    const scores = await h.db.select().from(eventScores);
    expect(scores.map((s) => s.userId)).toEqual([stays!.id]);
  });

  it("settling an event before its lock moment freezes it then", async () => {
    const [p] = await makePlayers(h.db, ["keen"]);
    const men = byCategory(round1, "Pro Men");
    await putTeam(h.db, p!.id, 5, [men[2]!.id]);
    await putResults(h.db, 5, [
      { racerId: men[2]!.id, category: "Pro Men", status: "finished", position: 3 },
    ]);
    const early = new Date(round1Start.getTime() - 30 * 86_400_000);
    const s = await settleEvent(h.db, 5, { now: early });
    expect(s).toMatchObject({ eventId: 5, frozeNow: true, results: 1, teams: 1, rankedPlayers: 1 });
    const [e] = await h.db.select().from(events).where(eq(events.id, 5));
    expect(e!.frozenAt).toEqual(early);
    expect(e!.settledAt).toEqual(early);
    const u = (await playerFigures(h.db)).find((f) => f.id === p!.id);
    expect(u).toMatchObject({ points: 65, ranking: 1, position: 1, previousRanking: null });
  });
});

describe("settleEvent", () => {
  it("refuses an unknown event and an event without results", async () => {
    await expect(settleEvent(h.db, 999, { now })).rejects.toMatchObject({ code: "not-found" });
    await expect(settleEvent(h.db, 6, { now })).rejects.toBeInstanceOf(SettlementError);
    await expect(settleEvent(h.db, 6, { now })).rejects.toMatchObject({ code: "no-results" });
  });

  it("ties share a rank (1, 1, 3) and are listed by username; leagues average their members", async () => {
    const [zed, amy, bob, newbie] = await makePlayers(h.db, ["Zed", "amy", "Bob", "newbie"]);
    const men = byCategory(round1, "Pro Men");
    const women = byCategory(round1, "Pro Women");
    await putTeam(h.db, zed!.id, 5, [men[0]!.id, women[5]!.id]);
    await putTeam(h.db, amy!.id, 5, [men[0]!.id, women[6]!.id]);
    await putTeam(h.db, bob!.id, 5, [men[1]!.id, women[0]!.id]);
    const mixed = await putLeague(h.db, "mixed", [zed!.id, bob!.id, newbie!.id]);
    const solo = await putLeague(h.db, "solo", [amy!.id]);
    await putResults(h.db, 5, [
      { racerId: men[0]!.id, category: "Pro Men", status: "finished", position: 1 },
      { racerId: men[1]!.id, category: "Pro Men", status: "finished", position: 12 },
      { racerId: women[0]!.id, category: "Pro Women", status: "finished", position: 4 },
      { racerId: women[5]!.id, category: "Pro Women", status: "DNF", position: null },
      { racerId: women[6]!.id, category: "Pro Women", status: "DSQ", position: null },
    ]);
    await settleEvent(h.db, 5, { now, audit: { actor: "cli", actorId: null } });
    const got = async (id: number) => (await playerFigures(h.db)).find((f) => f.id === id);
    expect(await got(amy!.id)).toMatchObject({ points: 100, ranking: 1, position: 1 });
    expect(await got(zed!.id)).toMatchObject({ points: 100, ranking: 1, position: 2 });
    expect(await got(bob!.id)).toMatchObject({ points: 60, ranking: 3, position: 3 });
    expect(await got(newbie!.id)).toMatchObject({ points: 0, ranking: null, position: null });
    const l = async (id: number) =>
      (await h.db.select().from(leagues).where(eq(leagues.id, id)))[0]!;
    // (100 + 60 + 0) / 3 = 53.33; the newcomer without a team counts as 0.
    expect(await l(mixed)).toMatchObject({ totalPoints: 53.33, ranking: 1, previousRanking: null });
    // A league of one keeps its average but gets no place (decision 0151).
    expect(await l(solo)).toMatchObject({ totalPoints: 100, ranking: null, previousRanking: null });
    const audit = await h.db.select().from(auditLog);
    expect(audit).toMatchObject([{ actor: "cli", action: "scores.settle", target: "event:5" }]);
  });

  it("settling twice equals settling once; corrected results replace, never add", async () => {
    const players = await makePlayers(h.db, ["p1", "p2", "p3", "p4"]);
    const men = byCategory(round1, "Pro Men");
    for (const [i, p] of players.entries())
      await putTeam(h.db, p.id, 5, [men[i]!.id, men[i + 1]!.id]);
    await putLeague(
      h.db,
      "all",
      players.map((p) => p.id),
    );
    const places = (order: number[]) =>
      order.map((m, i) => ({
        racerId: men[m]!.id,
        category: "Pro Men" as const,
        status: "finished" as const,
        position: i + 1,
      }));
    await putResults(h.db, 5, places([0, 1, 2, 3, 4]));
    await settleEvent(h.db, 5, { now });
    const once = await snapshot(h.db);
    await settleEvent(h.db, 5, { now });
    expect(await snapshot(h.db)).toEqual(once);
    expect((await storedSettlement(h.db)).players).toEqual((await referenceFromDb(h.db)).players);

    const before = await playerFigures(h.db);
    expect(before.map((u) => u.points)).toEqual([180, 145, 115, 100]);
    // The official results were wrong: 1st and 3rd swap. Re-settle with the corrected file.
    await putResults(h.db, 5, places([2, 1, 0, 3, 4]));
    await settleEvent(h.db, 5, { now });
    const corrected = await storedSettlement(h.db);
    expect(corrected).toEqual(await referenceFromDb(h.db));
    const after = await playerFigures(h.db);
    expect(after.map((u) => [u.points, u.ranking])).toEqual([
      [145, 3],
      [180, 1],
      [150, 2],
      [100, 4],
    ]);
    const again = await snapshot(h.db);
    await settleEvent(h.db, 5, { now });
    expect(await snapshot(h.db)).toEqual(again);
  });

  it("movement: the previous ranking is the table before the latest event", async () => {
    const [a, b] = await makePlayers(h.db, ["alpha", "beta"]);
    const m1 = byCategory(round1, "Pro Men");
    const m2 = byCategory(round2, "Pro Men");
    await putTeam(h.db, a!.id, 5, [m1[0]!.id]);
    await putTeam(h.db, b!.id, 5, [m1[1]!.id]);
    // Round 1 locks before the players change their teams for round 2.
    await freezeEvent(h.db, 5, now);
    await putTeam(h.db, a!.id, 6, [m2[4]!.id]);
    await putTeam(h.db, b!.id, 6, [m2[0]!.id]);
    await putResults(h.db, 5, [
      { racerId: m1[0]!.id, category: "Pro Men", status: "finished", position: 3 },
      { racerId: m1[1]!.id, category: "Pro Men", status: "finished", position: 4 },
    ]);
    await putResults(h.db, 6, [
      { racerId: m2[0]!.id, category: "Pro Men", status: "finished", position: 1 },
      { racerId: m2[4]!.id, category: "Pro Men", status: "DNS", position: null },
    ]);
    await settleEvent(h.db, 5, { now });
    const after1 = await playerFigures(h.db);
    expect(after1.map((u) => [u.points, u.ranking, u.previousRanking])).toEqual([
      [65, 1, null],
      [50, 2, null],
    ]);
    await settleEvent(h.db, 6, { now });
    const after2 = await playerFigures(h.db);
    expect(after2.map((u) => [u.points, u.ranking, u.previousRanking])).toEqual([
      [65, 2, 1],
      [150, 1, 2],
    ]);
    // Re-settling round 1 (a correction) does not make round 1 the "latest" event.
    await settleEvent(h.db, 5, { now });
    const again = await playerFigures(h.db);
    expect(again.map((u) => [u.points, u.ranking, u.previousRanking])).toEqual([
      [65, 2, 1],
      [150, 1, 2],
    ]);
  });

  it("property: the SQL settlement equals the reference on random seasons", async () => {
    const statusArb = fc.constantFrom("finished", "finished", "finished", "DNF", "DNS", "DSQ");
    const scenario = fc.record({
      players: fc.uniqueArray(fc.stringMatching(/^[a-d]{1,3}$/), { minLength: 1, maxLength: 12 }),
      // Up to 8 racers: the rules allow 6, but the sum must be right for any team size.
      teams1: fc.array(fc.uniqueArray(fc.nat(round1.length - 1), { maxLength: 8 }), {
        maxLength: 12,
      }),
      teams2: fc.array(fc.uniqueArray(fc.nat(round2.length - 1), { maxLength: 6 }), {
        maxLength: 12,
      }),
      // Half the results go to the first racers of the pool, the ones `full` fills teams (and
      // benches) with: a bench rider with a result beside a starter without one is common.
      results1: fc.array(fc.tuple(fc.oneof(fc.nat(9), fc.nat(round1.length - 1)), statusArb), {
        maxLength: 40,
      }),
      results2: fc.array(fc.tuple(fc.oneof(fc.nat(9), fc.nat(round2.length - 1)), statusArb), {
        maxLength: 20,
      }),
      leagues: fc.array(fc.uniqueArray(fc.nat(11), { minLength: 1, maxLength: 6 }), {
        maxLength: 4,
      }),
      order: fc.constantFrom([5], [5, 6], [6, 5], [5, 6, 5], [5, 6, 6], [6, 5, 6], [6]),
      // Captains (decision 0168): on or off for the competition; each team names one (an index
      // into it) or none, and the freeze must keep them only when the rules have captains.
      captains: fc.boolean(),
      // A bench (decision 0169): a team's seventh racer sits on it, and comes on for a starter
      // who did not start; with the spec's limits or none (so that most such teams substitute).
      bench: fc.boolean(),
      limits: fc.boolean(),
      // Teams filled up to seven racers: most random teams are shorter, and have no bench rider.
      full: fc.boolean(),
      // Limited transfers and the wildcard (decision 0170): each round-2 team may play it.
      transfers: fc.option(
        fc.record({ free: fc.nat(3), more: fc.nat(3), cost: fc.integer({ min: 0, max: 20 }) }),
        { nil: null },
      ),
      wildcard: fc.boolean(),
      playWildcard: fc.array(fc.boolean(), { maxLength: 12 }),
      // Provisional results (decision 0171): a racer without a result has not run yet.
      provisional5: fc.boolean(),
      provisional6: fc.boolean(),
      captain1: fc.array(fc.option(fc.nat(), { nil: null }), { maxLength: 12 }),
      captain2: fc.array(fc.option(fc.nat(), { nil: null }), { maxLength: 12 }),
    });
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        await resetGame(h.db);
        const transfers = s.transfers
          ? {
              free: s.transfers.free,
              bank: s.transfers.free + s.transfers.more,
              cost: s.transfers.cost,
            }
          : null;
        await setRules({
          captain: s.captains,
          bench: s.bench,
          limits: s.limits,
          transfers,
          wildcard: s.wildcard && transfers !== null,
        });
        const players = await makePlayers(h.db, s.players);
        const save = async (
          pool: R[],
          eventId: number,
          teamList: number[][],
          captainPicks: (number | null)[],
        ) => {
          // The captain each player's latest team names, by player.
          const named = new Map<number, number | null>();
          for (const [i, team] of teamList.entries()) {
            const p = players[i % players.length]!;
            // saveTeam keeps a team to its starters and a bench rider.
            const picks = s.full
              ? [...new Set([...team, ...pool.keys()])].slice(0, Math.max(7, team.length))
              : team;
            const ids = picks.slice(0, s.bench ? 7 : undefined).map((k) => pool[k]!.id);
            const pick = captainPicks[i] ?? null;
            // A captain is one of the starters, never the bench rider (saveTeam refuses that).
            const starters = ids.slice(0, s.bench ? 6 : undefined);
            const captain =
              pick === null || starters.length === 0 ? null : starters[pick % starters.length]!;
            await putTeam(h.db, p.id, eventId, ids, captain);
            named.set(p.id, captain);
          }
          return named;
        };
        const frozenCaptains = async (eventId: number) =>
          new Map(
            (
              await h.db
                .select({ userId: frozenTeams.userId, captain: frozenTeams.captainRacerId })
                .from(frozenTeams)
                .where(eq(frozenTeams.eventId, eventId))
            ).map((f) => [f.userId, f.captain]),
          );
        const expectCaptains = async (eventId: number, named: Map<number, number | null>) => {
          for (const [userId, captain] of await frozenCaptains(eventId)) {
            expect(captain).toBe(s.captains ? (named.get(userId) ?? null) : null);
          }
        };
        const named1 = await save(round1, 5, s.teams1, s.captain1);
        // A team is the player's for the competition: round 1 locks (and freezes) before the
        // players change their teams for round 2.
        await freezeEvent(h.db, 5, now);
        await expectCaptains(5, named1);
        const named2 = await save(round2, 6, s.teams2, s.captain2);
        for (const [i, play] of s.playWildcard.entries()) {
          if (!play || players.length === 0) continue;
          await h.db
            .update(teams)
            .set({ wildcardEventId: 6 })
            .where(eq(teams.userId, players[i % players.length]!.id));
        }
        for (const [i, members] of s.leagues.entries()) {
          const ids = [...new Set(members.map((m) => players[m % players.length]!.id))];
          await putLeague(h.db, `l${i}`, ids);
        }
        type Row = {
          racerId: number;
          category: Category;
          status: ResultStatus;
          position: number | null;
        };
        const results = (pool: R[], picks: [number, string][]): Row[] => {
          const seen = new Set<number>();
          const place = new Map<Category, number>();
          return picks.flatMap(([k, status]): Row[] => {
            const r = pool[k]!;
            if (seen.has(r.id)) return [];
            seen.add(r.id);
            if (status !== "finished") {
              return [
                {
                  racerId: r.id,
                  category: r.category,
                  status: status as ResultStatus,
                  position: null,
                },
              ];
            }
            const p = (place.get(r.category) ?? 0) + 1 + (k % 2);
            place.set(r.category, p);
            return [
              { racerId: r.id, category: r.category, status: "finished" as const, position: p },
            ];
          });
        };
        const r1 = results(round1, s.results1);
        const r2 = results(round2, s.results2);
        await putResults(h.db, 5, r1.length ? r1 : results(round1, [[0, "finished"]]));
        await putResults(h.db, 6, r2.length ? r2 : results(round2, [[0, "DNF"]]));
        for (const [id, provisional] of [
          [5, s.provisional5],
          [6, s.provisional6],
        ] as const) {
          await h.db.update(events).set({ provisional }).where(eq(events.id, id));
        }
        for (const eventId of s.order as readonly number[])
          await settleEvent(h.db, eventId, { now });
        if ((s.order as readonly number[]).includes(6)) await expectCaptains(6, named2);
        // The freeze's transfer account (SQL) is core's transferRound on the same teams.
        await expectTransfers();
        expect(await storedSettlement(h.db)).toEqual(await referenceFromDb(h.db));
      }),
      { numRuns: 25 },
    );
    // 25 whole seasons settled for real: slow on a busy machine, so more than the default.
  }, 180_000);

  it("a bench rider scores for a starter who did not start, when the limits still hold (decision 0169)", async () => {
    await resetGame(h.db);
    await setRules({ captain: false, bench: true, limits: true });
    const [a, b] = await makePlayers(h.db, ["subbed", "kept"]);
    const men = byCategory(round1, "Pro Men");
    const women = byCategory(round1, "Pro Women");
    const juniors = byCategory(round1, "17-18 Men");
    const starters = [women[0]!, women[1]!, juniors[0]!, men[0]!, men[1]!, men[2]!];
    // a: a man on the bench; b: the same team. men[1] does not start (DNS), women[1] has no
    // result: the bench man comes on for men[1] only (for women[1] the team would have 1 woman).
    await putTeam(h.db, a!.id, 5, [...starters.map((r) => r.id), men[3]!.id]);
    await putTeam(
      h.db,
      b!.id,
      5,
      starters.map((r) => r.id),
    );
    const finished = (r: R, position: number) => ({
      racerId: r.id,
      category: r.category,
      status: "finished" as const,
      position,
    });
    await putResults(h.db, 5, [
      finished(women[0]!, 1),
      finished(juniors[0]!, 1),
      finished(men[0]!, 1),
      { racerId: men[1]!.id, category: "Pro Men", status: "DNS", position: null },
      finished(men[2]!, 2),
      finished(men[3]!, 3),
    ]);
    await settleEvent(h.db, 5, { now });
    const scores = await h.db.select().from(eventScores).where(eq(eventScores.eventId, 5));
    const points = new Map(scores.map((e) => [e.userId, e.points]));
    expect(points.get(b!.id)).toBe(100 + 100 + 100 + 80);
    expect(points.get(a!.id)).toBe(100 + 100 + 100 + 80 + 65);
    expect(await storedSettlement(h.db)).toEqual(await referenceFromDb(h.db));
    await setRules({ captain: false, bench: false, limits: true });
  });

  it("a captain's points count double where the rules have captains, and only there", async () => {
    const men = byCategory(round1, "Pro Men");
    for (const on of [true, false]) {
      await resetGame(h.db);
      await setCaptains(on);
      const [a, b] = await makePlayers(h.db, [`cap${on}`, `plain${on}`]);
      await putTeam(h.db, a!.id, 5, [men[0]!.id, men[1]!.id], men[0]!.id);
      await putTeam(h.db, b!.id, 5, [men[0]!.id, men[1]!.id]);
      await putResults(h.db, 5, [
        { racerId: men[0]!.id, category: "Pro Men", status: "finished", position: 1 },
        { racerId: men[1]!.id, category: "Pro Men", status: "finished", position: 2 },
      ]);
      await settleEvent(h.db, 5, { now });
      const scores = await h.db.select().from(eventScores).where(eq(eventScores.eventId, 5));
      const points = new Map(scores.map((e) => [e.userId, e.points]));
      expect(points.get(a!.id)).toBe(on ? 280 : 180);
      expect(points.get(b!.id)).toBe(180);
      expect(await storedSettlement(h.db)).toEqual(await referenceFromDb(h.db));
    }
  });
});
