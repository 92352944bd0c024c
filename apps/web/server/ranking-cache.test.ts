/**
 * Cached rankings, through the built app as `npm start` runs it (every middleware, Remix, a real
 * database: PGlite, or PostgreSQL when DATABASE_URL is set): a visitor's ranking pages, their
 * single-fetch data and the public API's rankings carry a strong ETag and a shared-cache
 * Cache-Control and answer 304 on revalidation; a signed-in player's pages stay private and
 * their own; a settlement moves the ETag (docs/decisions/0135-cached-rankings.md).
 */
import { randomBytes } from "node:crypto";
import {
  connectionForDataDir,
  createAccount,
  createDb,
  createSession,
  type DbHandle,
  events,
  raceResults,
  racers,
  settleEvent,
} from "@game/db";
import type { AppLoadContext } from "@remix-run/node";
import { and, eq } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serializeSessionToken } from "~/utils/session.server";
import { type RunningApp, startApp } from "../tests/support/app";

const SECRET = randomBytes(16).toString("hex");
let app: RunningApp;
let pgUrl = "";
let pgName: string | undefined;
let playerCookie = "";
const PLAYER = `cache_${randomBytes(3).toString("hex")}`;

async function adminSql<T>(run: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
  try {
    return await run(sql);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** The running app's database: PostgreSQL directly, PGlite through the app's socket. */
function openAppDb(): Promise<DbHandle> {
  const url = pgUrl || connectionForDataDir(app.dataDir);
  if (!url) throw new Error("the app serves no database socket");
  return createDb({ url, migrate: false, max: 1 });
}

beforeAll(async () => {
  if (process.env.DATABASE_URL) {
    pgName = `gf_cache_${process.pid}_${randomBytes(4).toString("hex")}`;
    await adminSql((sql) => sql.unsafe(`create database "${pgName}"`));
    const u = new URL(process.env.DATABASE_URL);
    u.pathname = `/${pgName}`;
    pgUrl = u.toString();
  }
  let token = "";
  app = await startApp({
    env: { SESSION_SECRET: SECRET, ...(pgUrl ? { DATABASE_URL: pgUrl } : {}) },
    prepare: async (dataDir) => {
      const h = await createDb(pgUrl ? { url: pgUrl } : { dataDir, url: "" });
      try {
        const user = await createAccount(h.db, {
          username: PLAYER,
          email: `${PLAYER}@example.com`,
          passwordHash: "test:unusable",
        });
        token = (await createSession(h.db, user.id, { now: new Date() })).token;
      } finally {
        await h.close();
      }
    },
  });
  const context = { env: { sessionSecret: SECRET, production: true } } as AppLoadContext;
  const set = await serializeSessionToken(new Request("http://127.0.0.1/"), context, token);
  playerCookie = set.split(";")[0]!;
  // At start the app freezes the seeded rounds already past their lock (events change, so the
  // versions move): wait until they stand still (the versions are read once a second).
  const etagOf = async (p: string) => (await get(p)).headers.get("etag");
  for (let tries = 0; tries < 30; tries++) {
    const first = await Promise.all(["/players-ranking", "/leagues-ranking"].map(etagOf));
    await new Promise((r) => setTimeout(r, 1200));
    const second = await Promise.all(["/players-ranking", "/leagues-ranking"].map(etagOf));
    if (first.every((e, i) => e === second[i])) break;
  }
}, 120_000);

afterAll(async () => {
  await app?.stop();
  if (pgName) {
    await adminSql((sql) => sql.unsafe(`drop database if exists "${pgName}" with (force)`));
  }
});

function get(path: string, headers: Record<string, string> = {}) {
  return fetch(`${app.url}${path}`, { headers, redirect: "manual" });
}

const STRONG_ETAG = /^"[A-Za-z0-9_-]{20,}"$/;
const VISITOR_PAGES = [
  "/players-ranking",
  "/players-ranking?event=5&page=2",
  "/leagues-ranking",
  "/leagues-ranking?page=3",
  "/players-ranking.data",
  "/leagues-ranking.data?page=2",
];

describe("a visitor's ranking pages", () => {
  it.each(VISITOR_PAGES)(
    "%s: strong ETag, shared-cache headers, 304 on revalidation",
    async (path) => {
      const first = await get(path);
      expect(first.status).toBe(200);
      const etag = first.headers.get("etag");
      expect(etag).toMatch(STRONG_ETAG);
      const cc = first.headers.get("cache-control") ?? "";
      expect(cc).toMatch(/^public, /);
      expect(cc).toMatch(/s-maxage=\d+/);
      expect(first.headers.get("vary")).toMatch(/Cookie/);
      const body = await first.text();

      // The same bytes again (from the cache), under the same ETag.
      const again = await get(path);
      expect(again.headers.get("etag")).toBe(etag);
      expect(await again.text()).toBe(body);

      const revalidated = await get(path, { "If-None-Match": etag! });
      expect(revalidated.status).toBe(304);
      expect(revalidated.headers.get("etag")).toBe(etag);
      expect(await revalidated.text()).toBe("");
    },
  );

  it("the page's inline scripts carry the nonce its CSP header names, also from the cache", async () => {
    for (let i = 0; i < 2; i++) {
      const res = await get("/players-ranking");
      const csp = res.headers.get("content-security-policy") ?? "";
      const nonce = csp.match(/'nonce-([^']+)'/)?.[1];
      expect(nonce).toBeTruthy();
      const html = await res.text();
      const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
      expect(scripts.length).toBeGreaterThan(0);
      for (const tag of scripts) {
        if (/\ssrc=/.test(tag)) continue;
        expect(tag).toContain(`nonce="${nonce}"`);
      }
    }
  });

  it("each page and query has its own ETag; the order of the query does not matter", async () => {
    const tags = await Promise.all(
      [
        "/players-ranking",
        "/players-ranking?page=2",
        "/leagues-ranking",
        "/players-ranking.data",
      ].map(async (p) => (await get(p)).headers.get("etag")),
    );
    expect(new Set(tags).size).toBe(4);
    const a = (await get("/players-ranking?event=5&page=2")).headers.get("etag");
    const b = (await get("/players-ranking?page=2&event=5")).headers.get("etag");
    expect(a).toBe(b);
  });

  it("an unknown event is the ordinary 404, never cached", async () => {
    const res = await get("/players-ranking?event=99999");
    expect(res.status).toBe(404);
    expect(res.headers.get("etag")).toBeNull();
    expect(res.headers.get("cache-control") ?? "").not.toMatch(/public/);
  });
});

describe("a signed-in player's ranking pages", () => {
  it.each(["/players-ranking", "/leagues-ranking", "/players-ranking.data"])(
    "%s: private, no ETag, their own row; visitors never see it",
    async (path) => {
      // A visitor first, so the cache holds the visitor's page.
      const visitor = await get(path);
      const visitorBody = await visitor.text();
      const mine = await get(path, { Cookie: playerCookie });
      expect(mine.status).toBe(200);
      expect(mine.headers.get("cache-control")).toBe("private, no-store");
      expect(mine.headers.get("etag")).toBeNull();
      const body = await mine.text();
      expect(body).toContain(PLAYER);
      expect(visitorBody).not.toContain(PLAYER);
      // A visitor's ETag does not turn a player's request into a 304 of the visitor's page.
      const revalidated = await get(path, {
        Cookie: playerCookie,
        "If-None-Match": visitor.headers.get("etag")!,
      });
      expect(revalidated.status).toBe(200);
      expect(await revalidated.text()).toContain(PLAYER);
      // And after the player, visitors still get the visitor's page.
      const after = await get(path);
      expect(after.headers.get("etag")).toBe(visitor.headers.get("etag"));
      expect(await after.text()).not.toContain(PLAYER);
    },
  );
});

describe("the public API's rankings", () => {
  it.each([
    "/api/v1/rankings/players",
    "/api/v1/rankings/players?page=2",
    "/api/v1/rankings/leagues",
  ])("%s: strong ETag, s-maxage, 304 on revalidation", async (path) => {
    const first = await get(path);
    expect(first.status).toBe(200);
    const etag = first.headers.get("etag");
    expect(etag).toMatch(STRONG_ETAG);
    expect(first.headers.get("cache-control")).toMatch(/^public, .*s-maxage=\d+/);
    const body = await first.text();
    const again = await get(path);
    expect(again.headers.get("etag")).toBe(etag);
    expect(await again.text()).toBe(body);
    const revalidated = await get(path, { "If-None-Match": etag! });
    expect(revalidated.status).toBe(304);
  });
});

describe("a settlement", () => {
  it("moves the ETag of every ranking page and answer, and the new page shows the round", async () => {
    const paths = ["/players-ranking", "/leagues-ranking", "/api/v1/rankings/players"];
    const before = await Promise.all(paths.map(async (p) => (await get(p)).headers.get("etag")));
    const h = await openAppDb();
    let eventName = "";
    try {
      const [racer] = await h.db
        .select({ id: racers.id, category: racers.category })
        .from(racers)
        .where(and(eq(racers.gameId, 5), eq(racers.category, "Pro Men")))
        .limit(1);
      await h.db.insert(raceResults).values({
        eventId: 5,
        racerId: racer!.id,
        category: racer!.category,
        status: "finished",
        position: 1,
      });
      await settleEvent(h.db, 5);
      const [e] = await h.db.select({ name: events.name }).from(events).where(eq(events.id, 5));
      eventName = e!.name;
    } finally {
      await h.close();
    }
    // Versions are read at most once a second per process.
    const deadline = Date.now() + 5_000;
    let after = before;
    while (Date.now() < deadline) {
      after = await Promise.all(paths.map(async (p) => (await get(p)).headers.get("etag")));
      if (after.every((tag, i) => tag !== before[i])) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    after.forEach((tag, i) => {
      expect(tag).toMatch(STRONG_ETAG);
      expect(tag).not.toBe(before[i]);
    });
    // The old ETag no longer revalidates: the client gets the new page.
    const stale = await get("/players-ranking", { "If-None-Match": before[0]! });
    expect(stale.status).toBe(200);
    expect(await stale.text()).toContain("Scored rounds (1)");
    expect(eventName).not.toBe("");
  });
});
