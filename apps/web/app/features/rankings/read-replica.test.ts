/**
 * Public pages on a real streaming replica, made by the test from the test server
 * (docs/decisions/0131-read-replicas.md). Replay is paused on the replica to make its lag
 * certain: a player's own team, leagues and session come from the primary at once, while the
 * public ranking shows what the replica has, and catches up once it replays.
 */
import { createDb, createLeague, type DbHandle, importResults, racers } from "@game/db";
import {
  createTestDb,
  putTeam,
  startTestReplica,
  type TestReplica,
  withDatabase,
} from "@game/db/testing";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadTeamSetup } from "~/features/team/setup.server";
import { cookieFor, makeUser, request, testContext } from "../../../tests/support/context";
import { loadLeaguesRanking, loadPlayersRanking } from "./rankings.server";

const url = process.env.DATABASE_URL;

describe.skipIf(!url)("public pages on a read replica (PostgreSQL only: skipped on PGlite)", () => {
  let test: DbHandle;
  let replica: TestReplica;
  let h: DbHandle;
  let standby: DbHandle;
  let ctx: ReturnType<typeof testContext>;

  beforeAll(async () => {
    test = await createTestDb({ seed: true });
    const name = new URL(test.location).pathname.slice(1);
    replica = await startTestReplica(url!);
    await replica.catchUp();
    h = await createDb({
      url: withDatabase(url!, name),
      replicaUrl: replica.url(name),
      migrate: false,
      max: 3,
    });
    // To pause and resume the replica's replay.
    standby = await createDb({ url: replica.url("postgres"), migrate: false, max: 1 });
    // Before round 1 locks: its team can still be changed.
    ctx = testContext(h.db, { readDb: h.readDb, now: () => new Date("2027-04-10T12:00:00Z") });
  }, 150_000);

  afterAll(async () => {
    await standby?.db.execute(sql`select pg_wal_replay_resume()`).catch(() => {});
    await standby?.close();
    await h?.close();
    await replica?.stop();
    await test?.close();
  });

  const pause = () => standby.db.execute(sql`select pg_wal_replay_pause()`);
  const resume = async () => {
    await standby.db.execute(sql`select pg_wal_replay_resume()`);
    await replica.catchUp();
  };

  it("reads a player's own team and leagues from the primary, the ranking from the replica", async () => {
    const ann = await makeUser(h.db, { username: "ann_replica" });
    const men = await h.db
      .select({ id: racers.id, firstName: racers.firstName, lastName: racers.lastName })
      .from(racers)
      .where(eq(racers.category, "Pro Men"))
      .orderBy(racers.id)
      .limit(2);
    await pause();

    // Signed in and saved while the replica lags: the session, the team and the new league are
    // all there at once.
    const cookie = await cookieFor(ctx, ann);
    await putTeam(
      h.db,
      ann.id,
      5,
      men.map((r) => r.id),
    );
    const setup = (await loadTeamSetup(
      request("/team-setup?game=5", { cookie }),
      ctx,
    )) as unknown as {
      data: { saved: number[] };
    };
    expect(setup.data.saved).toEqual(men.map((r) => r.id));
    const league = await createLeague(h.db, ann, "Replica Riders");
    expect(league.ok).toBe(true);
    const leagues = await loadLeaguesRanking(request("/leagues-ranking", { cookie }), ctx);
    expect(leagues.myLeagues.map((l) => l.name)).toEqual(["Replica Riders"]);

    // Results settled on the primary: the public ranking (replica) does not have them yet.
    const results = ["Position,First Name,Last Name,Category"]
      .concat(men.map((r, i) => `${i + 1},${r.firstName},${r.lastName},Pro Men`))
      .join("\n");
    const imported = await importResults(h.db, 5, results, {
      now: new Date("2027-04-19T12:00:00Z"),
    });
    expect(imported.ok).toBe(true);
    const lagging = await loadPlayersRanking(request("/players-ranking"), ctx);
    expect(lagging.rows).toEqual([]);

    // Once the replica replays, the ranking shows the settlement.
    await resume();
    const caughtUp = await loadPlayersRanking(request("/players-ranking", { cookie }), ctx);
    expect(caughtUp.rows.map((r) => r.username)).toEqual(["ann_replica"]);
    expect(caughtUp.viewer?.standing?.rank).toBe(1);
  }, 90_000);
});
