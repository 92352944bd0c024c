/**
 * A transaction must own its connection even when its BEGIN is the query that fills a busy
 * connection's pipeline (100 queries in postgres-js). Unpatched postgres-js 3.4.9 then leaves
 * the connection in the pool mid-transaction and fails the save with UNSAFE_TRANSACTION
 * (porsager/postgres#823); deadline-day load hit it. The fix is patches/postgres+3.4.9.patch,
 * applied by `npm ci` (patch-package); this test fails when it is missing.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type DbHandle } from "./client.js";

const url = process.env.DATABASE_URL;

describe.skipIf(!url)("transactions on a pipelining pool (PostgreSQL only)", () => {
  let handle: DbHandle;

  beforeAll(async () => {
    handle = await createDb({ url, max: 2 });
  });

  afterAll(async () => {
    await handle?.close();
  });

  it("keeps a transaction whose BEGIN fills a connection's pipeline to itself", async () => {
    const { db } = handle;
    // Both connections open, then both busy with a slow query and 99 more queued behind it.
    await Promise.all([db.execute(sql`select 1`), db.execute(sql`select 1`)]);
    const busy = [db.execute(sql`select pg_sleep(0.2)`), db.execute(sql`select pg_sleep(0.2)`)];
    // No parameters: a statement with one is described first, which stops the pipelining.
    for (let i = 0; i < 2 * 99; i++) busy.push(db.execute(sql`select 1`));
    // Queries run when awaited: start them all, and let them reach the connections.
    const queued = Promise.all(busy);
    await new Promise((resolve) => setImmediate(resolve));
    // The 100th query of the first connection: a transaction's BEGIN.
    const saved = db.transaction(async (tx) => {
      const [row] = (await tx.execute(sql`select txid_current() as id`)) as unknown as {
        id: string;
      }[];
      const [again] = (await tx.execute(sql`select txid_current() as id`)) as unknown as {
        id: string;
      }[];
      return { first: row!.id, second: again!.id };
    });
    const [ids] = await Promise.all([saved, queued]);
    // One transaction throughout: both statements ran in it.
    expect(ids.first).toBe(ids.second);
    // And the pool is clean afterwards: a plain query runs in a transaction of its own.
    const [a] = (await db.execute(sql`select txid_current() as id`)) as unknown as { id: string }[];
    const [b] = (await db.execute(sql`select txid_current() as id`)) as unknown as { id: string }[];
    expect(a!.id).not.toBe(b!.id);
  });
});
