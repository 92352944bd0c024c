import { pointsForStoredResult } from "@game/core";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type DbHandle, rowsOf } from "../client.js";
import { auditLog, eventScores, events, racers } from "../schema/index.js";
import { createTestDb, setRuleOptions } from "../testing.js";
import { liveRoundStates } from "./live-rounds.js";
import { finalizeResults, importResults } from "./results.js";
import { makePlayers, putLeague, putTeam, resetGame } from "./scoring.fixtures.js";
import { advanceSeason } from "./season.js";

/* Provisional results while the race runs (docs/decisions/0171): provisional -> final -> correction. */

let h: DbHandle;
type R = { id: number; category: string; firstName: string; lastName: string; price: number };
let field: R[];
const now = new Date("2027-04-19T12:00:00Z");
const audit = { actor: "cli", actorId: null };

beforeAll(async () => {
  h = await createTestDb({ seed: true });
  field = await h.db
    .select({
      id: racers.id,
      category: racers.category,
      firstName: racers.firstName,
      lastName: racers.lastName,
      price: racers.price,
    })
    .from(racers)
    .where(eq(racers.gameId, 5))
    .orderBy(racers.price, racers.id);
});
afterAll(() => h.close());
beforeEach(async () => {
  await resetGame(h.db);
  await setRuleOptions(h.db, 5, { bench: false });
});

const cheapest = (category: string, k: number, skip = 0) =>
  field.filter((r) => r.category === category).slice(skip, skip + k);
const csv = (rows: [string, R][]) =>
  ["Position,Racer ID", ...rows.map(([p, r]) => `${p},${r.id}`)].join("\n");
const pts = (position: number) => pointsForStoredResult({ status: "finished", position });

async function scoreOf(userId: number) {
  const [row] = await h.db
    .select({ points: eventScores.points })
    .from(eventScores)
    .where(eq(eventScores.userId, userId));
  return row?.points;
}
const eventRow = async () => (await h.db.select().from(events).where(eq(events.id, 5)))[0]!;

describe("provisional results", () => {
  it("score the round in pieces, say so, and become final; a correction still works after", async () => {
    await setRuleOptions(h.db, 5, { bench: true });
    const [ann] = await makePlayers(h.db, ["ann"]);
    const [m0, m1, m2] = cheapest("Pro Men", 3);
    const bench = cheapest("Pro Men", 1, 3)[0]!;
    const team = [...cheapest("Pro Women", 2), ...cheapest("17-18 Men", 1), m0!, m1!, m2!, bench];
    await putTeam(
      h.db,
      ann!.id,
      5,
      team.map((r) => r.id),
    );
    await putLeague(h.db, "watchers", [ann!.id]);
    const before = await liveRoundStates(h.db, [5]);
    // Before its lock the round is not live: nothing to follow yet.
    expect(before).toEqual([
      { eventId: 5, version: "0", provisional: false, final: false, live: false },
    ]);

    // The first riders are down: m2 has not run yet, which is no reason for the bench to come on.
    const piece = csv([
      ["1", m1!],
      ["2", m0!],
      ["3", bench],
    ]);
    const first = await importResults(h.db, 5, piece, { now, audit, provisional: true });
    expect(first).toMatchObject({ ok: true, provisional: true, unchanged: false });
    expect(first.ok && first.settlement).toMatchObject({ provisional: true, teams: 1 });
    // On PostgreSQL the competition's table is built on a second connection (decision 0172);
    // the embedded database has one.
    expect(first.ok && first.settlement?.builtElsewhere).toBe(Boolean(process.env.DATABASE_URL));
    expect(await scoreOf(ann!.id)).toBe(pts(1) + pts(2));
    expect(await eventRow()).toMatchObject({ provisional: true });
    // The freeze kept each player's username key, which orders ties (decision 0172).
    const [keys] = rowsOf<{ frozen: string | null; scored: string | null }>(
      await h.db.execute(sql`
        select (select username_key from frozen_teams where user_id = ${ann!.id}) as frozen,
          (select username_key from event_scores where user_id = ${ann!.id}) as scored`),
    );
    expect(keys).toEqual({ frozen: "ann", scored: "ann" });
    const live = (await liveRoundStates(h.db, [5]))[0]!;
    expect(live).toMatchObject({ provisional: true, final: false, live: true });
    expect(live.version).not.toBe(before[0]!.version);

    // The timing system sends the same standings again: nothing written, nothing re-scored.
    const logged = (await h.db.select().from(auditLog)).length;
    const again = await importResults(h.db, 5, piece, { now, audit, provisional: true });
    expect(again).toMatchObject({ ok: true, unchanged: true });
    expect(again.ok && again.settlement).toBeUndefined();
    expect(await h.db.select().from(auditLog)).toHaveLength(logged);
    expect((await liveRoundStates(h.db, [5]))[0]!.version).toBe(live.version);

    // The race is over with m2 never down: final, so m2 did not start and the bench comes on.
    const final = await finalizeResults(h.db, 5, { now, audit });
    expect(final).toMatchObject({ ok: true, alreadyFinal: false });
    expect(await scoreOf(ann!.id)).toBe(pts(1) + pts(2) + pts(3));
    expect(await eventRow()).toMatchObject({ provisional: false });
    expect((await liveRoundStates(h.db, [5]))[0]).toMatchObject({ final: true, live: false });
    expect(await finalizeResults(h.db, 5, { now, audit })).toEqual({
      ok: true,
      alreadyFinal: true,
    });

    // Provisional standings can no longer replace final results; a corrected final file can.
    const late = await importResults(h.db, 5, piece, { now, audit, provisional: true });
    expect(late).toMatchObject({ ok: false, reason: "final" });
    const corrected = csv([
      ["1", m1!],
      ["2", m0!],
      ["3", bench],
      ["4", m2!],
    ]);
    const correction = await importResults(h.db, 5, corrected, { now, audit });
    expect(correction).toMatchObject({ ok: true, provisional: false, unchanged: false });
    expect(await scoreOf(ann!.id)).toBe(pts(1) + pts(2) + pts(4));
    const actions = (await h.db.select().from(auditLog).orderBy(auditLog.id)).map((r) => r.action);
    expect(actions).toEqual([
      "results.import",
      "scores.settle",
      "results.finalize",
      "scores.settle",
      "results.import",
      "scores.settle",
    ]);
  });

  it("bring the bench rider on for a DNS while the race runs", async () => {
    await setRuleOptions(h.db, 5, { bench: true });
    const [bo] = await makePlayers(h.db, ["bo"]);
    const [m0, m1, m2] = cheapest("Pro Men", 3);
    const bench = cheapest("Pro Men", 1, 3)[0]!;
    const team = [...cheapest("Pro Women", 2), ...cheapest("17-18 Men", 1), m0!, m1!, m2!, bench];
    await putTeam(
      h.db,
      bo!.id,
      5,
      team.map((r) => r.id),
    );
    const piece = csv([
      ["1", bench],
      ["DNS", m2!],
    ]);
    await importResults(h.db, 5, piece, { now, audit, provisional: true });
    expect(await scoreOf(bo!.id)).toBe(pts(1));
  });

  it("keep the season from advancing until they are final", async () => {
    const [m0] = cheapest("Pro Men", 1);
    await importResults(h.db, 5, csv([["1", m0!]]), { now, audit, provisional: true });
    const after = new Date("2027-06-01T12:00:00Z");
    await expect(advanceSeason(h.db, { now: after, actor: audit, dryRun: true })).rejects.toThrow(
      /results are provisional: make them final first \(`game-admin results finalize 5`/,
    );
    await finalizeResults(h.db, 5, { now, audit });
    await expect(
      advanceSeason(h.db, { now: after, actor: audit, dryRun: true }),
    ).resolves.toBeTruthy();
  });

  it("cannot finalize a round without results", async () => {
    await expect(finalizeResults(h.db, 5, { now })).rejects.toThrow(/has no results yet/);
    await expect(finalizeResults(h.db, 999, { now })).rejects.toThrow(/There is no event 999/);
    expect(await eventRow()).toMatchObject({ provisional: false, settledAt: null });
  });

  it.skipIf(!process.env.DATABASE_URL)(
    "on PostgreSQL, settle with the table built elsewhere even after a failed build was left",
    async () => {
      // What a settlement that failed after its second connection committed leaves behind.
      await h.db.execute(sql`create table season_standings_built (stale int)`);
      const [m0] = cheapest("Pro Men", 1);
      const [ann] = await makePlayers(h.db, ["cleo"]);
      await putTeam(h.db, ann!.id, 5, [m0!.id]);
      const out = await importResults(h.db, 5, csv([["1", m0!]]), {
        now,
        audit,
        provisional: true,
      });
      expect(out.ok && out.settlement?.builtElsewhere).toBe(true);
      expect(await scoreOf(ann!.id)).toBe(pts(1));
      const [left] = rowsOf<{ n: number }>(
        await h.db.execute(
          sql`select count(*)::int as n from pg_class where relname = 'season_standings_built'`,
        ),
      );
      expect(left!.n).toBe(0);
    },
  );
});
