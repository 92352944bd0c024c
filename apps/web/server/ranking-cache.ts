// Visitors' ranking pages served from a small per-process cache, with a strong ETag, 304 on
// revalidation and a Cache-Control a CDN may act on (docs/decisions/0135-cached-rankings.md).
//
// A page is a pure function of the ranking version, the build, the address and the remembered
// game, so it is rendered once per process and version. Its CSP nonce is derived from the same
// key with the server's secret: the same page has the same bytes (and ETag) in every process
// behind one load balancer, and no nonce is known before the page holding it is rendered.

import { createHmac } from "node:crypto";
import type { RankingScope, RankingVersions } from "@game/db";
import type { Request, RequestHandler, Response } from "express";
import { LRUCache } from "lru-cache";
import { matchesEtag } from "../app/features/api/http.server";
import { LEAGUES_RANKING, PLAYERS_RANKING } from "../app/features/rankings/ranking-links";
import { GAME_COOKIE, SESSION_COOKIE } from "../app/utils/cookie-names";

/** The pages cached for visitors (their pages and Remix data requests), and each one's ranking. */
export const CACHED_PAGES = new Map<string, RankingScope>([
  [PLAYERS_RANKING, "players"],
  [`${PLAYERS_RANKING}.data`, "players"],
  [LEAGUES_RANKING, "leagues"],
  [`${LEAGUES_RANKING}.data`, "leagues"],
]);

/** A visitor's ranking page, kept: what every visitor of that version is sent. */
interface CachedPage {
  status: number;
  headers: [string, string][];
  body: Buffer;
}

/** A render's outcome: the page kept, or the response as rendered (not cacheable). */
interface Rendered {
  page: CachedPage | null;
  response?: globalThis.Response;
  body?: Buffer;
}

/** What `rankingCacheKey` leaves in `res.locals.rankingCache`. */
interface CacheTag {
  key: string;
  etag: string;
}

/**
 * What a visitor's ranking page may be kept for. On race day a ranking changes every few
 * seconds (docs/decisions/0171): browsers revalidate every time (a 304 while the ETag holds),
 * a CDN asks at most once a second and may serve the page it has while it asks.
 */
export const PAGE_CACHE_CONTROL = "public, max-age=0, s-maxage=1, stale-while-revalidate=600";

export { GAME_COOKIE, SESSION_COOKIE };

/** Longer queries or cookies are not what our pages link to: rendered, never cached. */
const MAX_QUERY = 256;
const MAX_GAME_COOKIE = 64;

/**
 * The ranking versions, read at most once per `ttlMs` per process (one read shared by the
 * requests that ask meanwhile). A settlement shows at the latest `ttlMs` later.
 */
export function rankingVersionReader(
  read: () => Promise<RankingVersions>,
  { ttlMs = 1000, now = Date.now }: { ttlMs?: number; now?: () => number } = {},
): () => Promise<RankingVersions> {
  let last: { at: number; value: Promise<RankingVersions> } | null = null;
  return function rankingVersions() {
    const t = now();
    if (last && t - last.at < ttlMs) return last.value;
    const value = read();
    last = { at: t, value };
    // A failed read is not remembered: the next request tries again.
    value.catch(() => {
      if (last?.value === value) last = null;
    });
    return value;
  };
}

/** The value of cookie `name` in a Cookie header, or undefined. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    const key = (eq === -1 ? part : part.slice(0, eq)).trim();
    if (key === name) return eq === -1 ? "" : part.slice(eq + 1).trim();
  }
  return undefined;
}

/** The query string with its parameters in a fixed order (`?b=1&a=2` is `?a=2&b=1`). */
function canonicalQuery(search: string): string {
  const params = new URLSearchParams(search);
  params.sort();
  return params.toString();
}

/** A strong ETag naming `key` (opaque: it says nothing about the key). */
export function strongEtag(secret: string, key: string): string {
  return `"${createHmac("sha256", secret).update(`etag|${key}`).digest("base64url").slice(0, 27)}"`;
}

/** The CSP nonce of the cached page `key`: 16 bytes, secret-derived, unknown before rendering. */
export function pageNonce(secret: string, key: string): string {
  return createHmac("sha256", secret)
    .update(`nonce|${key}`)
    .digest()
    .subarray(0, 16)
    .toString("base64");
}

/**
 * Step one, before helmet: a visitor's GET of a ranking page gets its cache key, ETag and nonce
 * (`res.locals.rankingCache`, `res.locals.cspNonce`). A signed-in player (any session cookie,
 * even an expired one) and anything unusual go the ordinary way: rendered, `private, no-store`.
 */
export function rankingCacheKey({
  versions,
  buildVersion,
  secret,
}: {
  versions: () => Promise<RankingVersions>;
  buildVersion: () => string;
  secret: string;
}): RequestHandler {
  return async (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const scope = CACHED_PAGES.get(req.path);
    if (!scope) return next();
    const cookies = req.headers.cookie;
    if (cookieValue(cookies, SESSION_COOKIE) !== undefined) return next();
    const game = cookieValue(cookies, GAME_COOKIE) ?? "";
    const q = req.originalUrl.indexOf("?");
    const search = q === -1 ? "" : req.originalUrl.slice(q + 1);
    if (search.length > MAX_QUERY || game.length > MAX_GAME_COOKIE) return next();
    let version: number;
    try {
      version = (await versions())[scope];
    } catch {
      // The database is not answering: the ordinary path reports it.
      return next();
    }
    // Everything the page depends on. The origin too: a forged Host header gets its own entry.
    const key = `${scope}:${version}|${buildVersion()}|${originOf(req)}${req.path}?${canonicalQuery(search)}|${game}`;
    const nonce = pageNonce(secret, key);
    res.locals.rankingCache = { key, etag: strongEtag(secret, key) } satisfies CacheTag;
    res.locals.cspNonce = nonce;
    next();
  };
}

/**
 * Step two, just before Remix: answers 304 when the visitor holds the page, else the cached page,
 * else renders it once (concurrent requests for the same page wait for that one render) and
 * keeps it when it is a plain 200 without cookies.
 */
export function rankingCacheServe({
  render,
  maxEntries = 500,
  maxBytes = 32 * 1024 * 1024,
}: {
  render: (req: Request, res: Response) => Promise<globalThis.Response>;
  maxEntries?: number;
  maxBytes?: number;
}): RequestHandler & { cache: LRUCache<string, CachedPage> } {
  const cache = new LRUCache<string, CachedPage>({
    max: maxEntries,
    maxSize: maxBytes,
    sizeCalculation: (page) => page.body.length + 200,
  });
  const rendering = new Map<string, Promise<Rendered>>();

  const handler: RequestHandler = async (req, res, next) => {
    const tag = res.locals.rankingCache as CacheTag | undefined;
    if (!tag) return next();
    try {
      res.setHeader("ETag", tag.etag);
      res.setHeader("Cache-Control", PAGE_CACHE_CONTROL);
      res.setHeader("Vary", "Cookie");
      if (matchesEtag(req.headers["if-none-match"] ?? null, tag.etag)) {
        res.locals.rankingCacheResult = "revalidated";
        res.status(304).end();
        return;
      }
      let page = cache.get(tag.key);
      res.locals.rankingCacheResult = page ? "hit" : "miss";
      if (!page) {
        let job = rendering.get(tag.key);
        const leader = !job;
        if (!job) {
          job = renderOnce(req, res, tag.key);
          rendering.set(tag.key, job);
          job.finally(() => rendering.delete(tag.key)).catch(() => {});
        }
        const done = await job;
        if (done.page) {
          page = done.page;
        } else if (leader && done.response) {
          // Not cacheable (an error page, a redirect, a cookie): sent as rendered, uncached.
          res.removeHeader("ETag");
          res.removeHeader("Cache-Control");
          res.removeHeader("Vary");
          res.status(done.response.status);
          for (const [k, v] of done.response.headers) {
            if (k !== "set-cookie") res.append(k, v);
          }
          for (const c of done.response.headers.getSetCookie()) res.append("Set-Cookie", c);
          res.end(done.body);
          return;
        } else {
          // Another request's render could not be kept: render this one the ordinary way.
          res.removeHeader("ETag");
          res.removeHeader("Cache-Control");
          res.removeHeader("Vary");
          res.locals.rankingCache = undefined;
          return next();
        }
      }
      res.status(page.status);
      for (const [k, v] of page.headers) res.setHeader(k, v);
      res.end(req.method === "HEAD" ? undefined : page.body);
    } catch (error) {
      next(error);
    }
  };

  /** Renders through Remix and keeps the page when it is the same for every visitor. */
  async function renderOnce(req: Request, res: Response, key: string): Promise<Rendered> {
    const response = await render(req, res);
    const body = Buffer.from(await response.arrayBuffer());
    const cacheable = response.status === 200 && response.headers.getSetCookie().length === 0;
    if (!cacheable) return { page: null, response, body };
    const headers: [string, string][] = [];
    for (const [k, v] of response.headers) {
      // Ours win over whatever the route said; length and date are the server's to set.
      if (!["cache-control", "etag", "vary", "content-length", "date"].includes(k)) {
        headers.push([k, v]);
      }
    }
    const page = { status: 200, headers, body };
    cache.set(key, page);
    return { page };
  }

  return Object.assign(handler, { cache });
}

/** The scheme, host and port Remix sees for `req` (as its Express adapter works them out). */
export function originOf(req: Request): string {
  const portOf = (h: string | undefined) => Number.parseInt(h?.split(":")[1] ?? "", 10);
  const forwarded = portOf(req.get("X-Forwarded-Host"));
  const direct = portOf(req.get("host"));
  const port = Number.isSafeInteger(forwarded)
    ? forwarded
    : Number.isSafeInteger(direct)
      ? direct
      : "";
  return `${req.protocol}://${req.hostname}${port ? `:${port}` : ""}`;
}

/**
 * The Fetch API GET Remix renders a cached page from. Never aborted by the client that happened
 * to ask first: other requests wait for the same render (Remix's own timeout bounds it).
 */
export function remixRequestOf(req: Request): globalThis.Request {
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined) continue;
    if (Array.isArray(v)) for (const one of v) headers.append(k, one);
    else headers.set(k, v);
  }
  return new Request(`${originOf(req)}${req.originalUrl}`, { method: "GET", headers });
}
