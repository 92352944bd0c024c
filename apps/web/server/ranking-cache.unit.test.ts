import type { Server } from "node:http";
import type { Request as ExpressRequest, Response as ExpressResponse } from "express";
import { describe, expect, it } from "vitest";
import { matchesEtag } from "../app/features/api/http.server";
import { portOf } from "./listen.test-support";
import {
  CACHED_PAGES,
  cookieValue,
  pageNonce,
  rankingVersionReader,
  strongEtag,
} from "./ranking-cache.js";

describe("rankingVersionReader", () => {
  it("reads at most once per interval, one read shared by the requests meanwhile", async () => {
    let t = 0;
    let reads = 0;
    const versions = rankingVersionReader(
      async () => {
        reads += 1;
        return { players: reads, leagues: reads };
      },
      { ttlMs: 1000, now: () => t },
    );
    const [a, b] = await Promise.all([versions(), versions()]);
    expect(a).toEqual({ players: 1, leagues: 1 });
    expect(b).toBe(a);
    t = 999;
    expect((await versions()).players).toBe(1);
    t = 1000;
    expect((await versions()).players).toBe(2);
    expect(reads).toBe(2);
  });

  it("does not remember a failed read", async () => {
    let fail = true;
    const versions = rankingVersionReader(
      async () => {
        if (fail) throw new Error("down");
        return { players: 7, leagues: 7 };
      },
      { ttlMs: 60_000, now: () => 0 },
    );
    await expect(versions()).rejects.toThrow("down");
    fail = false;
    expect((await versions()).players).toBe(7);
  });
});

describe("cache keys, ETags and nonces", () => {
  it("finds a cookie by its exact name", () => {
    expect(cookieValue("a=1; gf_session=xyz; b=2", "gf_session")).toBe("xyz");
    expect(cookieValue("gf_session_old=1", "gf_session")).toBeUndefined();
    expect(cookieValue(undefined, "gf_session")).toBeUndefined();
  });

  it("an ETag and a nonce depend on the key and on the secret, and reveal neither", () => {
    const e = strongEtag("s1", "players:3|/players-ranking");
    expect(e).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(e).not.toContain("players");
    expect(strongEtag("s1", "players:4|/players-ranking")).not.toBe(e);
    expect(strongEtag("s2", "players:3|/players-ranking")).not.toBe(e);
    const n = pageNonce("s1", "players:3|/players-ranking");
    expect(Buffer.from(n, "base64")).toHaveLength(16);
    expect(pageNonce("s1", "players:4|/players-ranking")).not.toBe(n);
  });

  it("If-None-Match (the API's matcher, shared): a list, weak forms and * match; another tag does not", () => {
    expect(matchesEtag('"x", "abc"', '"abc"')).toBe(true);
    expect(matchesEtag('W/"abc"', '"abc"')).toBe(true);
    expect(matchesEtag("*", '"abc"')).toBe(true);
    expect(matchesEtag('"abd"', '"abc"')).toBe(false);
    expect(matchesEtag(null, '"abc"')).toBe(false);
  });

  it("caches the ranking pages the app links to, and their data requests", () => {
    expect([...CACHED_PAGES]).toEqual([
      ["/players-ranking", "players"],
      ["/players-ranking.data", "players"],
      ["/leagues-ranking", "leagues"],
      ["/leagues-ranking.data", "leagues"],
    ]);
  });
});

describe("rankingCacheServe", () => {
  /** An Express app with both steps around a fake Remix render; `answer` decides what it renders. */
  async function appWith(
    answer: (
      req: ExpressRequest,
      res: ExpressResponse,
    ) => globalThis.Response | Promise<globalThis.Response>,
  ) {
    const express = (await import("express")).default;
    const { rankingCacheKey, rankingCacheServe } = await import("./ranking-cache.js");
    const renders: string[] = [];
    let version = 1;
    const app = express();
    // Remix's answers carry no ETag of Express's: neither does this stand-in.
    app.set("etag", false);
    app.use(
      rankingCacheKey({
        versions: async () => ({ players: version, leagues: version }),
        buildVersion: () => "b1",
        secret: "s",
      }),
    );
    app.use(
      rankingCacheServe({
        render: async (req, res) => {
          renders.push(req.originalUrl);
          // Slow enough that concurrent requests overlap.
          await new Promise((r) => setTimeout(r, 50));
          return answer(req, res);
        },
      }),
    );
    app.use((_req, res) => res.status(200).send("ordinary"));
    const server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, "127.0.0.1", () => resolve(s));
    });
    const base = `http://127.0.0.1:${portOf(server)}`;
    return {
      renders,
      get: (path: string, headers: HeadersInit = {}) => fetch(`${base}${path}`, { headers }),
      setVersion: (v: number) => {
        version = v;
      },
      close: () => new Promise((r) => server.close(r)),
    };
  }

  it("renders a page once for concurrent visitors, then serves it; a new version renders again", async () => {
    const app = await appWith(
      (_req, res) =>
        new Response(`<p nonce="${res.locals.cspNonce}">page</p>`, {
          headers: { "Content-Type": "text/html" },
        }),
    );
    try {
      const answers = await Promise.all(
        Array.from({ length: 5 }, () => app.get("/players-ranking")),
      );
      const bodies = await Promise.all(answers.map((r) => r.text()));
      expect(app.renders).toHaveLength(1);
      expect(new Set(bodies).size).toBe(1);
      expect(new Set(answers.map((r) => r.headers.get("etag"))).size).toBe(1);
      await app.get("/players-ranking");
      expect(app.renders).toHaveLength(1);
      app.setVersion(2);
      const next = await app.get("/players-ranking");
      expect(next.headers.get("etag")).not.toBe(answers[0]!.headers.get("etag"));
      expect(app.renders).toHaveLength(2);
      // Signed in: the ordinary way, never the cache.
      const mine = await app.get("/players-ranking", { Cookie: "gf_session=abc" });
      expect(await mine.text()).toBe("ordinary");
      expect(mine.headers.get("etag")).toBeNull();
    } finally {
      await app.close();
    }
  });

  it("keeps each competition's page apart: the competition asked for is part of the key", async () => {
    const app = await appWith(
      (req) => new Response(`<p>${req.query.competition ?? "default"}</p>`),
    );
    try {
      const wc = await app.get("/players-ranking?competition=world-cup-2024&page=2");
      const series = await app.get("/players-ranking?competition=series-2027&page=2");
      expect(await wc.text()).toBe("<p>world-cup-2024</p>");
      expect(await series.text()).toBe("<p>series-2027</p>");
      expect(series.headers.get("etag")).not.toBe(wc.headers.get("etag"));
      // The same query in another order is the same page.
      const again = await app.get("/players-ranking?page=2&competition=world-cup-2024");
      expect(again.headers.get("etag")).toBe(wc.headers.get("etag"));
      const leagues = await app.get("/leagues-ranking?competition=world-cup-2024");
      expect(await leagues.text()).toBe("<p>world-cup-2024</p>");
      expect(app.renders).toEqual([
        "/players-ranking?competition=world-cup-2024&page=2",
        "/players-ranking?competition=series-2027&page=2",
        "/leagues-ranking?competition=world-cup-2024",
      ]);
    } finally {
      await app.close();
    }
  });

  it("keeps no 404 and no page that sets a cookie", async () => {
    const app = await appWith((req) =>
      req.originalUrl.includes("event=9")
        ? new Response("gone", { status: 404 })
        : new Response("hi", { headers: { "Set-Cookie": "a=1" } }),
    );
    try {
      for (let i = 0; i < 2; i++) {
        const missing = await app.get("/players-ranking?event=9");
        expect(missing.status).toBe(404);
        expect(missing.headers.get("etag")).toBeNull();
        expect(missing.headers.get("cache-control")).toBeNull();
        const cookie = await app.get("/leagues-ranking");
        expect(cookie.headers.get("set-cookie")).toBe("a=1");
        expect(cookie.headers.get("etag")).toBeNull();
      }
      expect(app.renders).toHaveLength(4);
    } finally {
      await app.close();
    }
  });
});
