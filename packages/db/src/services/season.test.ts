import { LOCK_MS, nextPrice } from "@game/core";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { DbHandle } from "../client.js";
import { auditLog, events, racers, teams } from "../schema/index.js";
import { createTestDb } from "../testing.js";
import { cliActor } from "./audit.js";
import { getEvent } from "./events.js";
import { frozenTeam, makePlayers, putResults } from "./scoring.fixtures.js";
import { settleEvent } from "./scoring.js";
import { advanceSeason, SeasonError } from "./season.js";
import { getTeam, listTeamRacers, saveTeam, type TeamRacerView } from "./teams.js";

let h: DbHandle;
let pool: TeamRacerView[];
let round1Start: Date;
const actor = cliActor("admin");

/** A valid team of the cheapest racers, shifted by `offset` within each category. */
function team(offset = 0): TeamRacerView[] {
  const cheapest = (category: string, n: number) =>
    pool
      .filter((r) => r.category === category)
      .sort((a, b) => a.price - b.price || a.id - b.id)
      .slice(offset, offset + n);
  return [...cheapest("Pro Women", 2), ...cheapest("17-18 Men", 1), ...cheapest("Pro Men", 3)];
}

/** Everything advance writes, to compare before and after a refused or dry run. */
async function state() {
  const [row] = await h.db
    .execute(sql`select
      (select count(*)::int from racers) as racers,
      (select count(*)::int from teams) as teams,
      (select count(*)::int from team_racers) as slots,
      (select count(*)::int from audit_log) as audits,
      (select string_agg(id || ':' || status, ',' order by id) from events) as statuses`)
    .then((r) => ("rows" in (r as object) ? (r as { rows: unknown[] }).rows : (r as unknown[])));
  return row;
}

let alice: { id: number };
let bob: { id: number };
let carol: { id: number };

beforeAll(async () => {
  h = await createTestDb({ seed: true });
  pool = await listTeamRacers(h.db, 5);
  const [e5] = await h.db.select().from(events).where(eq(events.id, 5));
  round1Start = e5!.startsAt;
  const made = await makePlayers(h.db, ["Alice", "Bob", "Carol"]);
  [alice, bob, carol] = [made[0]!, made[1]!, made[2]!];
  const early = new Date(round1Start.getTime() - LOCK_MS - 86_400_000);
  for (const [p, offset] of [
    [alice, 0],
    [bob, 1],
    [carol, 2],
  ] as const) {
    const saved = await saveTeam(h.db, {
      userId: p!.id,
      eventId: 5,
      racerIds: team(offset).map((r) => r.id),
      now: early,
    });
    expect(saved.ok).toBe(true);
  }
});
afterAll(() => h.close());

it("refuses before settlement (and before the lock even with --force), writing nothing", async () => {
  const before = await state();
  const beforeLock = new Date(round1Start.getTime() - LOCK_MS - 1);
  await expect(advanceSeason(h.db, { now: beforeLock, actor })).rejects.toThrow(
    /has not been settled yet/,
  );
  await expect(advanceSeason(h.db, { now: beforeLock, actor, force: true })).rejects.toThrow(
    SeasonError,
  );
  await expect(
    advanceSeason(h.db, { now: beforeLock, actor, force: true, dryRun: true }),
  ).rejects.toThrow(/cannot be advanced before then/);
  expect(await state()).toEqual(before);
});

it("rolls back everything when a step fails", async () => {
  const after = new Date(round1Start.getTime() + 86_400_000);
  const before = await state();
  // A real failure inside the transaction: round 2's entries cannot be written.
  await h.db.execute(sql`create function gf_fail() returns trigger language plpgsql as $$
    begin raise exception 'disk full'; end $$`);
  await h.db.execute(
    sql`create trigger gf_fail before insert on racers for each row when (new.game_id = 6)
        execute function gf_fail()`,
  );
  try {
    await expect(advanceSeason(h.db, { now: after, actor, force: true })).rejects.toThrow();
  } finally {
    await h.db.execute(sql`drop trigger gf_fail on racers`);
    await h.db.execute(sql`drop function gf_fail()`);
  }
  const now = await state();
  // The forced advance froze round 1 inside the same transaction: that is rolled back too.
  expect(now).toEqual(before);
  const [e5] = await h.db.select().from(events).where(eq(events.id, 5));
  expect(e5!.frozenAt).toBeNull();
});

it("advances once settled: dry run = real run, new prices by the rule, teams carried, twice = once", async () => {
  // Round 1 results: Alice's first pro man wins, the dearest racer crashes out.
  const aliceTeam = team(0);
  const winner = aliceTeam[3]!;
  const dnf = [...pool].sort((a, b) => b.price - a.price)[0]!;
  const others = pool.filter((r) => r.id !== winner.id && r.id !== dnf.id);
  await putResults(h.db, 5, [
    { racerId: winner.id, category: winner.category, status: "finished", position: 1 },
    { racerId: dnf.id, category: dnf.category, status: "DNF", position: null },
    ...others
      .filter((r) => r.category === "Pro Women")
      .slice(0, 12)
      .map((r, i) => ({
        racerId: r.id,
        category: r.category,
        status: "finished" as const,
        position: i + 1,
      })),
  ]);
  const after = new Date(round1Start.getTime() + 86_400_000);
  await settleEvent(h.db, 5, { now: after });

  const before = await state();
  const dry = await advanceSeason(h.db, { now: after, actor, dryRun: true });
  expect(await state()).toEqual(before);
  expect(dry.dryRun).toBe(true);

  const real = await advanceSeason(h.db, { now: after, actor });
  expect({
    ...real,
    dryRun: true,
    prices: real.prices.map((p) => ({ ...p, toRacerId: 0 })),
  }).toEqual({
    ...dry,
    prices: dry.prices.map((p) => ({ ...p, toRacerId: 0 })),
  });
  expect(real).toMatchObject({ from: { id: 5 }, to: { id: 6 }, forced: false, carried: 3 });
  expect(real.entries).toBe(pool.length);
  expect(real.prices).toHaveLength(pool.length);
  const changes = real.prices.map((p) => p.change);
  expect(changes).toEqual([...changes].sort((a, b) => b - a));
  const win = real.prices.find((p) => p.fromRacerId === winner.id)!;
  expect(win).toMatchObject({ result: "1st", band: "podium", oldPrice: winner.price });
  expect(win.newPrice).toBe(nextPrice(winner.price, { status: "finished", position: 1 }));
  expect(real.prices.find((p) => p.fromRacerId === dnf.id)!.newPrice).toBeLessThan(dnf.price);

  // Round 2's entries: same people, new prices; the events moved on.
  const round2 = await h.db.select().from(racers).where(eq(racers.gameId, 6));
  expect(round2).toHaveLength(pool.length);
  const winner2 = round2.find(
    (r) => r.firstName === winner.firstName && r.lastName === winner.lastName,
  )!;
  expect(winner2.price).toBe(win.newPrice);
  const statuses = await h.db.select({ id: events.id, status: events.status }).from(events);
  expect(statuses.find((e) => e.id === 5)!.status).toBe("closed");
  expect(statuses.find((e) => e.id === 6)!.status).toBe("open");

  // Alice's team plays on at the prices she paid, though the winner is dearer now.
  const a2 = await getTeam(h.db, alice.id, 6);
  expect(a2!.draft).toBe(false);
  expect(a2!.racers.map((r) => r.price)).toEqual(aliceTeam.map((r) => r.price));
  expect(a2!.racers.find((r) => r.firstName === winner.firstName)!.priceNow).toBe(win.newPrice);

  // Twice = once: round 2 is open and not settled, so a second run refuses and writes nothing.
  const once = await state();
  await expect(advanceSeason(h.db, { now: after, actor })).rejects.toThrow(
    /Round 2|not been settled/,
  );
  expect(await state()).toEqual(once);

  const audits = await h.db.select().from(auditLog).where(eq(auditLog.action, "season.advance"));
  expect(audits).toHaveLength(1);
  expect(audits[0]!.detail).toMatchObject({ to: 6, carried: 3, drafts: 0 });
});

it("a team whose racer has no entry in round 3 waits for its player, and the freeze skips it", async () => {
  const after2 = new Date(
    (await h.db.select().from(events).where(eq(events.id, 6)))[0]!.startsAt.getTime() + 86_400_000,
  );
  const teamsBefore = await h.db.select().from(teams);
  const r2 = await h.db.select().from(racers).where(eq(racers.gameId, 6));
  await putResults(
    h.db,
    6,
    r2
      .slice(0, 1)
      .map((r) => ({ racerId: r.id, category: r.category, status: "finished", position: 1 })),
  );
  await settleEvent(h.db, 6, { now: after2 });
  const summary = await advanceSeason(h.db, { now: after2, actor });
  expect(summary.to.id).toBe(7);
  // Nothing copied: the same teams, the same rows.
  expect(summary).toMatchObject({ carried: 3, drafts: 0 });
  expect(await h.db.select().from(teams)).toEqual(teamsBefore);

  // Round 3's list, as an admin changed it, leaves out Carol's first pro man.
  const carol2 = await getTeam(h.db, carol.id, 6);
  const gone = carol2!.racers[5]!;
  await h.db
    .delete(racers)
    .where(
      and(
        eq(racers.gameId, 7),
        sql`${racers.personId} = (select person_id from racers where id = ${gone.id})`,
      ),
    );
  const c3 = await getTeam(h.db, carol.id, 7);
  expect(c3).toMatchObject({
    draft: true,
    gone: [{ name: `${gone.firstName} ${gone.lastName}`, paid: gone.price }],
  });
  expect(c3!.racers).toHaveLength(5);
  // Her round 2 team is what round 2 froze, whatever round 3 does.
  expect((await getTeam(h.db, carol.id, 6))!.racers).toHaveLength(6);
  const a3 = await getTeam(h.db, alice.id, 7);
  expect(a3!.draft).toBe(false);
});

it("tells each player what changed since the last round and what to fix", async () => {
  const { teamSeasonStatus } = await import("./season-status.js");
  const e7 = await getEvent(h.db, 7);
  const carolTeam = await getTeam(h.db, carol.id, 7);
  const carolStatus = await teamSeasonStatus(h.db, carol.id, e7!, carolTeam);
  expect(carolStatus!.previous).toMatchObject({ id: 6 });
  expect(carolStatus!.draft).toBe(true);
  expect(carolStatus!.gone).toHaveLength(1);
  expect(carolStatus!.fixes[0]).toBe(`Replace ${carolStatus!.gone[0]}: not starting this round.`);
  expect(carolStatus!.fixes).toContain("A team needs exactly 6 riders (you have 5).");
  expect(carolStatus!.fixes.at(-1)).toMatch(/does not play this round/);

  const aliceTeam = await getTeam(h.db, alice.id, 7);
  const aliceStatus = await teamSeasonStatus(h.db, alice.id, e7!, aliceTeam);
  expect(aliceStatus!.fixes).toEqual([]);
  expect(aliceStatus!.racers.map((r) => [r.paid, r.now])).toEqual(
    aliceTeam!.racers.map((r) => [r.price, r.priceNow]),
  );
  // Someone who never played the series has nothing to show.
  const [nobody] = await makePlayers(h.db, ["Nobody"]);
  expect(await teamSeasonStatus(h.db, nobody!.id, e7!, null)).toBeNull();

  // At the lock a team that does not play is not frozen; the others are, through their round 3
  // entries.
  const { freezeEvent } = await import("./freeze.js");
  const frozen = await freezeEvent(h.db, 7, new Date(e7!.startsAt.getTime() - LOCK_MS));
  expect(frozen!.teams).toBe(2);
  expect(await frozenTeam(h.db, 7, carol.id)).toEqual([]);
  expect(await frozenTeam(h.db, 7, alice.id)).toEqual(
    aliceTeam!.racers.map((r) => r.id).sort((x, y) => x - y),
  );
});

it("season pages: a racer's price per round, a player's season points and rank per round", async () => {
  const { getPlayerProfile, getRacerProfile } = await import("./profiles.js");
  const { eventScores } = await import("../schema/index.js");
  const aliceRound1 = team(0);
  const profile = await getRacerProfile(h.db, aliceRound1[3]!.id);
  const rounds = profile!.events.map((e) => [e.eventId, e.price]);
  expect(rounds.map(([id]) => id)).toEqual([5, 6, 7]);
  expect(rounds[0]![1]).toBe(aliceRound1[3]!.price);
  expect(rounds[1]![1]).toBe(nextPrice(aliceRound1[3]!.price, { status: "finished", position: 1 }));

  // Round 3 scored too, so round 1's season rank is counted (not stored).
  const r3 = await h.db.select().from(racers).where(eq(racers.gameId, 7));
  await putResults(
    h.db,
    7,
    r3
      .filter((r) => !r.withdrawnAt)
      .slice(0, 20)
      .map((r, i) => ({
        racerId: r.id,
        category: r.category,
        status: "finished",
        position: i + 1,
      })),
  );
  const [e7] = await h.db.select().from(events).where(eq(events.id, 7));
  await settleEvent(h.db, 7, { now: new Date(e7!.startsAt.getTime() + 3_600_000) });
  // Season rank after each round, against a count straight from the stored scores.
  const scores = await h.db.select().from(eventScores);
  for (const p of [alice, bob, carol]) {
    const [u] = await h.db
      .execute(sql`select username from users where id = ${p.id}`)
      .then((r) =>
        "rows" in (r as object)
          ? (r as { rows: { username: string }[] }).rows
          : (r as unknown as { username: string }[]),
      );
    const player = await getPlayerProfile(h.db, u!.username);
    let cumulative = 0;
    for (const e of player!.events) {
      cumulative += e.points;
      expect(e.seasonPoints).toBe(cumulative);
      const upTo = scores.filter((s) => s.eventId <= e.eventId);
      const totals = new Map<number, number>();
      for (const s of upTo) totals.set(s.userId, (totals.get(s.userId) ?? 0) + s.points);
      const better = [...totals.values()].filter((t) => t > cumulative).length;
      expect(e.seasonRank).toBe(better + 1);
    }
  }
});

it("gives each racer of a round their price in the round before", async () => {
  const { previousRoundPrices } = await import("./season.js");
  const r2 = await h.db.select().from(racers).where(eq(racers.gameId, 6));
  const prev = await previousRoundPrices(h.db, 6);
  expect(prev.size).toBe(r2.length);
  const winner = team(0)[3]!;
  const winner2 = r2.find(
    (r) => r.firstName === winner.firstName && r.lastName === winner.lastName,
  )!;
  expect(prev.get(winner2.id)).toBe(winner.price);
  expect((await previousRoundPrices(h.db, 5)).size).toBe(0);
  // The public racer list carries the same figure for partners.
  const { listPublicRacers } = await import("./public-api.js");
  const listed = await listPublicRacers(h.db, 6);
  expect(listed.find((r) => r.id === winner2.id)!.previousPrice).toBe(winner.price);
  expect(listed.every((r) => r.previousPrice === prev.get(r.id))).toBe(true);
});
