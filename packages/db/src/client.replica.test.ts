// The read handle on a real streaming replica of the test server (made by the test, removed
// afterwards): writes go to the primary, `readDb` reads the replica, and it refuses writes.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type DbHandle, rowsOf } from "./client.js";
import { events } from "./schema/index.js";
import { seed } from "./seed.js";
import { createTestDb, startTestReplica, type TestReplica } from "./testing.js";

const url = process.env.DATABASE_URL;

describe.skipIf(!url)("read replica (PostgreSQL only: skipped on the embedded database)", () => {
  let test: DbHandle;
  let replica: TestReplica;
  let h: DbHandle;

  beforeAll(async () => {
    test = await createTestDb();
    replica = await startTestReplica(url!);
    const name = new URL(test.location).pathname.slice(1);
    await replica.catchUp();
    const primaryUrl = new URL(url!);
    primaryUrl.pathname = `/${name}`;
    h = await createDb({ url: primaryUrl.toString(), replicaUrl: replica.url(name), max: 2 });
  }, 150_000);

  afterAll(async () => {
    await h?.close();
    await replica?.stop();
    await test?.close();
  });

  const inRecovery = async (db: DbHandle["db"]) =>
    rowsOf<{ r: boolean }>(await db.execute(sql`select pg_is_in_recovery() as r`))[0]!.r;

  it("reads from the replica and writes to the primary", async () => {
    expect(await inRecovery(h.db)).toBe(false);
    expect(await inRecovery(h.readDb)).toBe(true);
    expect(h.replicaLocation).toContain(`:${replica.port}/`);

    await seed(h.db);
    await replica.catchUp();
    expect(await h.readDb.select().from(events)).toHaveLength(12);
  }, 90_000);

  it("shows the replica's lag: a write is on the primary at once, on the replica after replay", async () => {
    const admin = createDb({ url: replica.url("postgres"), migrate: false, max: 1 });
    const r = await admin;
    try {
      // Replay paused: what the primary commits now is not on the replica yet.
      await r.db.execute(sql`select pg_wal_replay_pause()`);
      await h.db.update(events).set({ name: "Renamed on the primary" }).where(sql`id = 1`);
      const [onPrimary] = await h.db.select().from(events).where(sql`id = 1`);
      const [onReplica] = await h.readDb.select().from(events).where(sql`id = 1`);
      expect(onPrimary!.name).toBe("Renamed on the primary");
      expect(onReplica!.name).not.toBe("Renamed on the primary");
      await r.db.execute(sql`select pg_wal_replay_resume()`);
      await replica.catchUp();
      const [later] = await h.readDb.select().from(events).where(sql`id = 1`);
      expect(later!.name).toBe("Renamed on the primary");
    } finally {
      await r.db.execute(sql`select pg_wal_replay_resume()`).catch(() => {});
      await r.close();
    }
  }, 90_000);

  it("never writes through the read handle", async () => {
    const error = await h.readDb
      .update(events)
      .set({ name: "x" })
      .where(sql`id = 1`)
      .catch((e: Error & { cause?: { code?: string } }) => e);
    // 25006: read_only_sql_transaction.
    expect((error as { cause?: { code?: string } }).cause?.code).toBe("25006");
  });
});

it("refuses a replica without PostgreSQL", async () => {
  await expect(
    createDb({ url: "", dataDir: "memory", replicaUrl: "postgres://127.0.0.1:1/x" }),
  ).rejects.toThrow(/needs PostgreSQL/);
});
