/**
 * A connection lost mid-run: the driver rejects what was waiting (never an uncaught exception
 * from its timers, which would end the process), the pool works again afterwards, and the write
 * log tells committed, rolled back and unsure apart. The loss is a real cut of the TCP
 * connection at a chosen statement (test-relay). Runs on PostgreSQL when DATABASE_URL is set,
 * else on PGlite served as the app serves it to the CLI.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createDb, type DbHandle } from "./client.js";
import { isConnectionLost } from "./connection-loss.js";
import { type DbSocketServer, serveDbSocket } from "./db-socket.js";
import { type CuttingRelay, cuttingRelay } from "./test-relay.js";
import { createTestDb, withDatabase } from "./testing.js";

let url: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  const server = process.env.DATABASE_URL;
  if (server) {
    const name = `gf_loss_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const admin = postgres(server, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database "${name}"`);
    url = withDatabase(server, name);
    cleanup = async () => {
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end({ timeout: 5 });
    };
  } else {
    const dir = mkdtempSync(path.join(tmpdir(), "gf-loss-"));
    const app = await createTestDb();
    const served: DbSocketServer = await serveDbSocket(app.pglite!, dir);
    url = served.url;
    cleanup = async () => {
      await served.close();
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    };
  }
  const setup = await createDb({ url, max: 1, migrate: false });
  await setup.db.execute(sql`create table lost_rows (n int primary key)`);
  await setup.close();
});
afterAll(() => cleanup?.());

const open: Array<DbHandle | CuttingRelay> = [];
afterEach(async () => {
  for (const x of open.splice(0).reverse()) await x.close();
});

/** A tracked handle whose connection is cut when it sends `marker`. */
async function through(marker: string) {
  const relay = await cuttingRelay(url, marker);
  const h = await createDb({ url: relay.url, max: 1, migrate: false, trackWrites: true });
  open.push(relay, h);
  return { h, relay };
}

async function rows(): Promise<number[]> {
  const h = await createDb({ url, max: 1, migrate: false });
  try {
    const result = (await h.db.execute(sql`select n from lost_rows order by n`)) as unknown as {
      n: number;
    }[];
    return result.map((r) => r.n);
  } finally {
    await h.close();
  }
}

const failure = (run: () => Promise<unknown>) =>
  run().then(
    () => null,
    (error: unknown) => error,
  );

describe("the write log", () => {
  it("counts committed transactions and writing statements, not reads or refused ones", async () => {
    const { h } = await through("never sent");
    await h.db.transaction(async (tx) => {
      await tx.execute(sql`insert into lost_rows values (1)`);
    });
    await h.db.execute(sql`insert into lost_rows values (2)`);
    await h.db.execute(sql`select count(*) from lost_rows`);
    await h.db.execute(sql`with x as (select 1) select * from x`);
    const refused = await failure(() =>
      h.db.transaction(async (tx) => {
        await tx.execute(sql`insert into lost_rows values (3)`);
        await tx.execute(sql`insert into lost_rows values (1)`);
      }),
    );
    expect(isConnectionLost(refused)).toBe(false);
    expect(h.writes).toEqual({ committed: 2, rolledBack: false, unsure: false });
    await h.db.execute(sql`delete from lost_rows`);
  });

  it("lost inside a transaction: rejected as lost, rolled back, and the pool works again", async () => {
    const { h, relay } = await through("insert into lost_rows values (20)");
    await h.db.transaction(async (tx) => {
      await tx.execute(sql`insert into lost_rows values (10)`);
    });
    const lost = await failure(() =>
      h.db.transaction(async (tx) => {
        await tx.execute(sql`insert into lost_rows values (11)`);
        await tx.execute(sql`insert into lost_rows values (20)`);
      }),
    );
    expect(relay.cut()).toBe(true);
    expect(isConnectionLost(lost)).toBe(true);
    expect(h.writes).toEqual({ committed: 1, rolledBack: true, unsure: false });
    expect(await rows()).toEqual([10]);
    // The same handle reconnects for the next statement.
    await h.db.execute(sql`delete from lost_rows`);
    expect(await rows()).toEqual([]);
  });

  it("lost while committing: unsure", async () => {
    const { h, relay } = await through("commit");
    const lost = await failure(() =>
      h.db.transaction(async (tx) => {
        await tx.execute(sql`insert into lost_rows values (30)`);
      }),
    );
    expect(relay.cut()).toBe(true);
    expect(isConnectionLost(lost)).toBe(true);
    expect(h.writes).toEqual({ committed: 0, rolledBack: false, unsure: true });
  });

  it("lost during a statement outside a transaction: unsure if it writes, nothing if it reads", async () => {
    const write = await through("insert into lost_rows values (40)");
    expect(
      isConnectionLost(
        await failure(() => write.h.db.execute(sql`insert into lost_rows values (40)`)),
      ),
    ).toBe(true);
    expect(write.h.writes).toEqual({ committed: 0, rolledBack: false, unsure: true });

    const read = await through("select n from lost_rows");
    expect(
      isConnectionLost(await failure(() => read.h.db.execute(sql`select n from lost_rows`))),
    ).toBe(true);
    expect(read.h.writes).toEqual({ committed: 0, rolledBack: false, unsure: false });
  });
});

describe("isConnectionLost", () => {
  it("knows the driver's, the socket's and the server's words for it, and nothing else", () => {
    for (const code of ["CONNECTION_CLOSED", "ECONNRESET", "EPIPE", "57P01", "57P02", "08006"]) {
      expect(isConnectionLost(Object.assign(new Error("x"), { code }))).toBe(true);
    }
    // Drizzle's DrizzleQueryError carries the driver's error as its cause.
    const driver = Object.assign(new Error("write CONNECTION_CLOSED"), {
      code: "CONNECTION_CLOSED",
    });
    expect(isConnectionLost(new Error("Failed query", { cause: driver }))).toBe(true);
    for (const error of [
      Object.assign(new Error("x"), { code: "23505" }),
      Object.assign(new Error("x"), { code: "57014" }),
      new Error("CONNECTION_CLOSED"),
      new Error("a cause that is not", { cause: Object.assign(new Error("x"), { code: "23505" }) }),
      null,
      "ECONNRESET",
    ]) {
      expect(isConnectionLost(error)).toBe(false);
    }
  });
});
