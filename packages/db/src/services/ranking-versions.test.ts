import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DbHandle, rowsOf } from "../client.js";
import { events, leagues, racers, users } from "../schema/index.js";
import { createTestDb } from "../testing.js";
import { freezeDueEvents } from "./freeze.js";
import { getRankingVersions } from "./ranking-versions.js";
import { makePlayers, putLeague, putResults, putTeam } from "./scoring.fixtures.js";
import { settleEvent } from "./scoring.js";

let h: DbHandle;
let players: { id: number; username: string }[];

beforeAll(async () => {
  h = await createTestDb({ seed: true });
  players = await makePlayers(h.db, ["ann", "ben"]);
});
afterAll(() => h.close());

/** How much each scope moved while `run` ran. */
async function bumps(run: () => Promise<unknown>) {
  const before = await getRankingVersions(h.db);
  await run();
  const after = await getRankingVersions(h.db);
  return { players: after.players - before.players, leagues: after.leagues - before.leagues };
}

describe("ranking versions", () => {
  it("a settlement moves both scopes by exactly one, however many rows it writes", async () => {
    const [man] = await h.db
      .select({ id: racers.id })
      .from(racers)
      .where(eq(racers.gameId, 5))
      .limit(1);
    await putTeam(h.db, players[0]!.id, 5, [man!.id]);
    await putTeam(h.db, players[1]!.id, 5, [man!.id]);
    await putLeague(h.db, "Both", [players[0]!.id, players[1]!.id]);
    await putResults(h.db, 5, [
      { racerId: man!.id, category: "Pro Men", status: "finished", position: 1 },
    ]);
    // Freezing is a transaction of its own per event (settleEvent runs what is due first).
    await freezeDueEvents(h.db, new Date("2027-06-01T00:00:00Z"));
    expect(
      await bumps(() => settleEvent(h.db, 5, { now: new Date("2027-06-01T00:00:00Z") })),
    ).toEqual({
      players: 1,
      leagues: 1,
    });
  });

  it("a new league moves the league scope only", async () => {
    expect(await bumps(() => putLeague(h.db, "Fresh", [players[0]!.id]))).toEqual({
      players: 0,
      leagues: 1,
    });
  });

  it("a league's join code is not something a ranking shows", async () => {
    expect(
      await bumps(() =>
        h.db
          .update(leagues)
          .set({ joinCode: `code-${Date.now()}` })
          .where(eq(leagues.name, "Fresh")),
      ),
    ).toEqual({ players: 0, leagues: 0 });
  });

  it("a renamed or deleted player moves both scopes; other user updates do not", async () => {
    const [gone] = await makePlayers(h.db, ["gone"]);
    expect(
      await bumps(() => h.db.update(users).set({ credits: 5 }).where(eq(users.id, gone!.id))),
    ).toEqual({ players: 0, leagues: 0 });
    expect(
      await bumps(() =>
        h.db
          .update(users)
          .set({ username: `renamed${gone!.id}` })
          .where(eq(users.id, gone!.id)),
      ),
    ).toEqual({ players: 1, leagues: 1 });
    expect(await bumps(() => h.db.delete(users).where(eq(users.id, gone!.id)))).toEqual({
      players: 1,
      leagues: 1,
    });
  });

  it("a statement that changes no row (a freeze pass with nothing due) moves nothing", async () => {
    expect(await bumps(() => freezeDueEvents(h.db, new Date("2000-01-01T00:00:00Z")))).toEqual({
      players: 0,
      leagues: 0,
    });
    expect(
      await bumps(() => h.db.update(events).set({ name: "x" }).where(eq(events.id, 999_999))),
    ).toEqual({ players: 0, leagues: 0 });
  });

  it("the version moves at commit: not inside the transaction, not at all on rollback", async () => {
    const before = await getRankingVersions(h.db);
    await h.db.transaction(async (tx) => {
      await tx.update(events).set({ description: "edited" }).where(eq(events.id, 6));
      await tx.update(events).set({ description: "edited again" }).where(eq(events.id, 7));
      // Noted, not applied: a reader could not see the new version before the new rows.
      expect(await getRankingVersions(tx)).toEqual(before);
    });
    expect(await getRankingVersions(h.db)).toEqual({
      players: before.players + 1,
      leagues: before.leagues + 1,
    });
    const committed = await getRankingVersions(h.db);
    await expect(
      h.db.transaction(async (tx) => {
        await tx.update(events).set({ description: "never" }).where(eq(events.id, 6));
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await getRankingVersions(h.db)).toEqual(committed);
    // Nothing is left behind between transactions.
    const [left] = rowsOf<{ n: number }>(
      await h.db.execute(sql`select count(*)::int as n from ranking_changes`),
    );
    expect(left?.n).toBe(0);
  });
});
