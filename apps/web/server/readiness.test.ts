import type { Server } from "node:http";
import net from "node:net";
import { createDb, type Db } from "@game/db";
import { createTestDb } from "@game/db/testing";
import express, { type RequestHandler } from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { portOf } from "./listen.test-support";
import { readiness } from "./readiness.js";
import { blockThreadPool } from "./thread-pool.test-support.js";

/** Serves `handler` at /readyz on a free port; returns a function asking it. */
async function serve(handler: RequestHandler) {
  const app = express();
  app.get("/readyz", handler);
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  const ask = async () => {
    const res = await fetch(`http://127.0.0.1:${portOf(server)}/readyz`);
    return { status: res.status, body: await res.json(), cache: res.headers.get("cache-control") };
  };
  return { ask, close: () => new Promise((resolve) => server.close(resolve)) };
}

describe("/readyz", () => {
  it("reports the read replica beside the primary, and stays ready when only the replica is away", async () => {
    const primary = await createTestDb();
    const replica = await createTestDb();
    const r = await serve(readiness({ db: primary.db, replica: replica.db }));
    try {
      expect(await r.ask()).toMatchObject({
        status: 200,
        body: { status: "ready", database: "ok", replica: "ok" },
      });
      await replica.close();
      expect(await r.ask()).toMatchObject({
        status: 200,
        body: { status: "ready", database: "ok", replica: "error" },
      });
    } finally {
      await r.close();
      await primary.close();
    }
  });

  it("is ready while the database answers, and unavailable once it is gone", async () => {
    const h = await createTestDb();
    const r = await serve(readiness({ db: h.db }));
    try {
      expect(await r.ask()).toMatchObject({
        status: 200,
        body: { status: "ready", database: "ok" },
        cache: "no-store",
      });
      await h.close();
      expect(await r.ask()).toMatchObject({
        status: 503,
        body: { status: "unavailable", database: "error" },
      });
    } finally {
      await r.close();
    }
  });

  it("is unavailable while the session cannot find the game's tables, though it answers", async () => {
    const h = await createTestDb({ max: 1 });
    const r = await serve(readiness({ db: h.db }));
    try {
      expect(await r.ask()).toMatchObject({ status: 200 });
      // What a client that poisoned a shared session left behind: "select 1" still works.
      await h.db.execute("set search_path = ''");
      await h.db.execute("select 1");
      expect(await r.ask()).toMatchObject({
        status: 503,
        body: { status: "unavailable", database: "error" },
      });
    } finally {
      await r.close();
      await h.close();
    }
  });

  it("answers 503 within its timeout when the database hangs", async () => {
    // A database host that accepts connections and never answers.
    const sockets: net.Socket[] = [];
    const silent = net.createServer((s) => sockets.push(s));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const h = await createDb({
      url: `postgres://x@127.0.0.1:${portOf(silent)}/x`,
      migrate: false,
      // The driver would wait 10 s: an answer well before that is readiness's own timeout.
      connectTimeoutSeconds: 10,
    });
    const r = await serve(readiness({ db: h.db, timeoutMs: 300 }));
    try {
      const started = Date.now();
      expect(await r.ask()).toMatchObject({
        status: 503,
        body: { status: "unavailable", database: "timeout" },
      });
      expect(Date.now() - started).toBeLessThan(8_000);
    } finally {
      await r.close();
      await h.close().catch(() => {});
      silent.close();
      for (const s of sockets) s.destroy();
    }
  });

  it("answers 503 while the server shuts down, without asking the database", async () => {
    let asked = false;
    // A stand-in for the database with only `execute`, the one call readiness could make.
    const db = {
      execute: () => {
        asked = true;
        return Promise.resolve([]);
      },
    } as unknown as Db;
    const r = await serve(readiness({ db, stopping: () => true }));
    try {
      expect(await r.ask()).toMatchObject({ status: 503, body: { reason: "shutting down" } });
      expect(asked).toBe(false);
    } finally {
      await r.close();
    }
  });

  it("answers 503 while calls queue for the thread pool, and 200 again once they pass", async () => {
    const h = await createTestDb();
    const r = await serve(readiness({ db: h.db, threadPoolMs: 200 }));
    const pool = blockThreadPool();
    try {
      expect(await r.ask()).toMatchObject({
        status: 503,
        body: {
          status: "unavailable",
          database: "ok",
          reason: "requests are queuing for the thread pool",
        },
      });
    } finally {
      await pool.release();
    }
    try {
      expect(await r.ask()).toMatchObject({ status: 200, body: { status: "ready" } });
    } finally {
      await r.close();
      await h.close();
    }
  });

  it("answers 503 while a queue of this process refuses work, naming it", async () => {
    const h = await createTestDb();
    let queue: string | null = "password checks are queuing";
    const r = await serve(readiness({ db: h.db, busy: () => queue }));
    try {
      expect(await r.ask()).toMatchObject({
        status: 503,
        body: { status: "unavailable", database: "ok", reason: "password checks are queuing" },
      });
      queue = null;
      expect(await r.ask()).toMatchObject({ status: 200, body: { status: "ready" } });
    } finally {
      await r.close();
      await h.close();
    }
  });

  describe.skipIf(!process.env.DATABASE_URL)("on PostgreSQL", () => {
    const server = process.env.DATABASE_URL ?? "";
    const name = `gf_readyz_${process.pid}`;
    /** Runs one statement on the server's default database. */
    const onServer = async (statement: string) => {
      const h = await createDb({ url: server, migrate: false, max: 1 });
      try {
        await h.db.execute(statement);
      } finally {
        await h.close();
      }
    };
    beforeAll(() => onServer(`create database "${name}"`));
    afterAll(() => onServer(`drop database if exists "${name}" with (force)`));

    it("turns 503 when the database goes away under a running app", async () => {
      const url = new URL(server);
      url.pathname = `/${name}`;
      const h = await createDb({ url: url.toString(), migrate: false, max: 2 });
      // Readiness asks a game table by its plain name: the one a migrated database has.
      await h.db.execute("create table events (id integer)");
      const r = await serve(readiness({ db: h.db }));
      try {
        expect((await r.ask()).status).toBe(200);
        await onServer(`drop database "${name}" with (force)`);
        expect(await r.ask()).toMatchObject({ status: 503, body: { database: "error" } });
      } finally {
        await r.close();
        await h.close().catch(() => {});
      }
    });
  });
});
