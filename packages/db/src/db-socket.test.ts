import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type DbHandle } from "./client.js";
import {
  connectionForDataDir,
  type DbSocketServer,
  dbSocketFile,
  isProcessAlive,
  publicUrlForDataDir,
  readDbSocketInfo,
  serveDbSocket,
} from "./db-socket.js";
import { auditLog } from "./schema/index.js";

// The socket only exists for the embedded database, so this file always runs on PGlite.
let dataDir: string;
let app: DbHandle;
let served: DbSocketServer;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "gf-socket-"));
  app = await createDb({ url: "", dataDir });
  served = await serveDbSocket(app.pglite!, dataDir, { idleMs: 1500 });
});
afterAll(async () => {
  await served?.close();
  await app?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function client(url = connectionForDataDir(dataDir)!) {
  return postgres(url, { max: 1, onnotice: () => {} });
}

async function auditCount(action: string): Promise<number> {
  const [row] = await app.db
    .select({ n: sql<number>`count(*)::int` })
    .from(auditLog)
    .where(eq(auditLog.action, action));
  return row!.n;
}

describe("socket file", () => {
  it("is written for the live app, private to its owner", () => {
    const info = readDbSocketInfo(dataDir);
    expect(info).toMatchObject({ pid: process.pid, host: "127.0.0.1", port: served.port });
    expect(statSync(dbSocketFile(dataDir)).mode & 0o077).toBe(0);
    expect(connectionForDataDir(dataDir)).toBe(served.url);
  });

  it("is ignored when stale, missing or unreadable", () => {
    expect(connectionForDataDir(dataDir, () => false)).toBeNull();
    const other = mkdtempSync(path.join(tmpdir(), "gf-socket-none-"));
    try {
      expect(connectionForDataDir(other)).toBeNull();
      writeFileSync(dbSocketFile(other), "{not json");
      expect(connectionForDataDir(other)).toBeNull();
      writeFileSync(dbSocketFile(other), JSON.stringify({ pid: 1, port: "x" }));
      expect(connectionForDataDir(other)).toBeNull();
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
    expect(connectionForDataDir("memory")).toBeNull();
  });

  it("is ignored when the folder's lock names another process or a dead one", async () => {
    const other = mkdtempSync(path.join(tmpdir(), "gf-socket-lock-"));
    try {
      // A socket file naming a live process (this one), as after a crash and a reused PID.
      writeFileSync(
        dbSocketFile(other),
        JSON.stringify({ pid: process.pid, host: "127.0.0.1", port: 1, password: "p" }),
      );
      expect(connectionForDataDir(other)).not.toBeNull(); // no lock: the PID check alone
      const lock = (pid: number) =>
        writeFileSync(
          path.join(other, "data.lock"),
          JSON.stringify({ pid, hostname: hostname(), token: "someone-else" }),
        );
      lock(process.pid); // our PID, but a lock this process never took: a crashed holder
      expect(connectionForDataDir(other)).toBeNull();
      lock(1); // another process holds the folder (a CLI opened it directly)
      expect(connectionForDataDir(other)).toBeNull();
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
    // The live app's own socket still counts: it holds the lock.
    expect(connectionForDataDir(dataDir)).toBe(served.url);
  });

  it("carries the public address the app publishes once it listens, private as before", () => {
    expect(publicUrlForDataDir(dataDir)).toBeNull(); // still starting: not known yet
    served.publish({ publicUrl: "http://localhost:4101" });
    expect(publicUrlForDataDir(dataDir)).toBe("http://localhost:4101");
    expect(connectionForDataDir(dataDir)).toBe(served.url);
    expect(statSync(dbSocketFile(dataDir)).mode & 0o077).toBe(0);
    expect(publicUrlForDataDir(dataDir, () => false)).toBeNull(); // a crashed app's file
    expect(() => served.publish({ publicUrl: "javascript:alert(1)" })).toThrow();
    expect(publicUrlForDataDir(dataDir)).toBe("http://localhost:4101");
  });

  it("tells live processes from dead ones", () => {
    expect(isProcessAlive(process.pid)).toBe(true);
    expect(isProcessAlive(2 ** 22 + 12345)).toBe(false);
  });
});

describe("serving the app's database", () => {
  it("answers a client with the password and refuses one without", async () => {
    const good = client();
    try {
      const [row] = await good`select count(*)::int as n from events`;
      expect(row!.n).toBe(0);
    } finally {
      await good.end();
    }
    const bad = client(served.url.replace(/:[^:@]+@/, ":wrong@"));
    await expect(bad`select 1`).rejects.toThrow(/password authentication failed/);
    await bad.end();
  });

  it("keeps a client's transaction apart from the app's queries", async () => {
    const cli = client();
    try {
      let appSaw = -1;
      let appRead: Promise<void> | undefined;
      await cli.begin(async (tx) => {
        await tx`insert into audit_log (actor, action) values ('cli', 'socket.tx')`;
        // The app's query waits for the client's transaction instead of running inside it.
        appRead = auditCount("socket.tx").then((n) => {
          appSaw = n;
        });
        await new Promise((r) => setTimeout(r, 200));
        expect(appSaw).toBe(-1);
        await tx`insert into audit_log (actor, action) values ('cli', 'socket.tx')`;
      });
      await appRead;
      // It ran after the commit: both rows, never half a transaction.
      expect(appSaw).toBe(2);
    } finally {
      await cli.end();
    }
  });

  it("never lets a client's rollback undo the app's writes", async () => {
    const cli = client();
    try {
      const appWrite = { done: false };
      await cli
        .begin(async (tx) => {
          await tx`insert into audit_log (actor, action) values ('cli', 'socket.rollback')`;
          void app.db
            .insert(auditLog)
            .values({ actor: "app", action: "socket.app-write" })
            .then(() => {
              appWrite.done = true;
            });
          await new Promise((r) => setTimeout(r, 100));
          throw new Error("abort the import");
        })
        .catch(() => {});
      await expect.poll(() => appWrite.done).toBe(true);
      expect(await auditCount("socket.rollback")).toBe(0);
      expect(await auditCount("socket.app-write")).toBe(1);
    } finally {
      await cli.end();
    }
  });

  it("rolls back a client that disconnects mid-transaction and frees the app", async () => {
    const cli = client();
    const reserved = await cli.reserve();
    await reserved`begin`;
    await reserved`insert into audit_log (actor, action) values ('cli', 'socket.dropped')`;
    reserved.release();
    await cli.end({ timeout: 0 });
    expect(await auditCount("socket.dropped")).toBe(0);
    // The app still has its session: it can write and read.
    await app.db.insert(auditLog).values({ actor: "app", action: "socket.after-drop" });
    expect(await auditCount("socket.after-drop")).toBe(1);
  });

  it("disconnects a client that stalls inside a transaction", async () => {
    const cli = client();
    const reserved = await cli.reserve();
    await reserved`begin`;
    await reserved`insert into audit_log (actor, action) values ('cli', 'socket.stalled')`;
    const started = Date.now();
    // Blocked by the stalled transaction until the watchdog (idleMs 1.5 s) ends it.
    expect(await auditCount("socket.stalled")).toBe(0);
    expect(Date.now() - started).toBeGreaterThan(1000);
    reserved.release();
    await cli.end({ timeout: 0 });
    await app.db.insert(auditLog).values({ actor: "app", action: "socket.after-stall" });
    expect(await auditCount("socket.after-stall")).toBe(1);
  });

  it("serves several clients one exchange at a time", async () => {
    const a = client();
    const b = client();
    try {
      await Promise.all(
        [a, b].flatMap((c, k) =>
          [1, 2, 3].map((i) =>
            c.begin(async (tx) => {
              await tx`insert into audit_log (actor, action, target) values ('cli', 'socket.many', ${`${k}-${i}`})`;
              await tx`select pg_sleep(0.01)`;
            }),
          ),
        ),
      );
      expect(await auditCount("socket.many")).toBe(6);
    } finally {
      await Promise.all([a.end(), b.end()]);
    }
  });

  it("keeps a client's session settings its own: the app never runs with them", async () => {
    const appSetting = async (name: string) =>
      (
        (await app.db.execute(sql`select current_setting(${name}) as v`)) as unknown as {
          rows: { v: string }[];
        }
      ).rows[0]!.v;
    const before = {
      searchPath: await appSetting("search_path"),
      timeout: await appSetting("statement_timeout"),
      role: await appSetting("role"),
    };
    const cli = client();
    const reserved = await cli.reserve();
    // What pg_dump does first, and worse: an empty search_path, a timeout, another role.
    await reserved.unsafe("set search_path = ''");
    await reserved.unsafe("set statement_timeout = '5s'");
    await reserved.unsafe("create role socket_reader");
    await reserved.unsafe("set role socket_reader");
    // Between the client's statements the app still finds its tables, with its own settings.
    expect(await auditCount("socket.none")).toBe(0);
    expect(await appSetting("search_path")).toBe(before.searchPath);
    expect(await appSetting("statement_timeout")).toBe(before.timeout);
    expect(await appSetting("role")).toBe(before.role);
    // ...while the client keeps its own from one statement to the next.
    const [mine] = await reserved.unsafe(
      "select current_setting('search_path') as path, current_setting('statement_timeout') as timeout, current_user as who",
    );
    expect(mine).toEqual({ path: '""', timeout: "5s", who: "socket_reader" });
    await expect(reserved.unsafe("select count(*) from events")).rejects.toThrow(/events/);
    reserved.release();
    await cli.end();
    // Gone: the app (and the next client) see none of it.
    await app.db.insert(auditLog).values({ actor: "app", action: "socket.after-settings" });
    expect(await auditCount("socket.after-settings")).toBe(1);
    const next = client();
    try {
      const [row] = await next`select current_setting('search_path') as path, current_user as who`;
      expect(row!.path).toBe(before.searchPath);
      expect(row!.who).not.toBe("socket_reader");
    } finally {
      await next.end();
    }
  });

  it("works with the project's own client factory (what the CLI uses)", async () => {
    const h = await createDb({ url: connectionForDataDir(dataDir)!, max: 1 });
    try {
      await h.db.insert(auditLog).values({ actor: "cli", action: "socket.factory" });
    } finally {
      await h.close();
    }
    expect(await auditCount("socket.factory")).toBe(1);
  });
});

describe("closing", () => {
  it("removes the socket file and stops answering", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "gf-socket-close-"));
    const h = await createDb({ url: "", dataDir: dir, migrate: false });
    try {
      const s = await serveDbSocket(h.pglite!, dir);
      expect(connectionForDataDir(dir)).not.toBeNull();
      await s.close();
      expect(readDbSocketInfo(dir)).toBeNull();
      const late = postgres(s.url, { max: 1, connect_timeout: 2 });
      await expect(late`select 1`).rejects.toThrow();
      await late.end();
    } finally {
      await h.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
