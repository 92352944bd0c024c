/**
 * The public JSON API's plumbing, shared by every `/api/v1` resource route: CORS for partner
 * origins only, a per-IP rate limit, query validation (400, never 500), JSON errors, caching
 * headers and ETag/304.
 */
import { createHash } from "node:crypto";
import type { CategorySlug } from "@game/core";
import { CATEGORY_SLUGS } from "@game/core";
import {
  getPartnerByKey,
  hit,
  isPartnerOrigin,
  PUBLIC_MAX_PAGE,
  PUBLIC_MAX_PAGE_SIZE,
  PUBLIC_PAGE_SIZE,
  type RankingScope,
} from "@game/db";
import type { ActionFunctionArgs, AppLoadContext, LoaderFunctionArgs } from "@remix-run/node";
import { LRUCache } from "lru-cache";
import { z } from "zod";
import { logError } from "./log.server";
import { countApiCall } from "./partner-stats.server";

/** `Cache-Control` of a successful answer. */
export interface CachePolicy {
  /** Seconds a browser may reuse the answer. */
  maxAge: number;
  /** Seconds a shared cache (CDN) may reuse it. */
  sMaxAge: number;
  /** Seconds a shared cache may serve it stale while it fetches a fresh one. */
  staleWhileRevalidate: number;
}

export const CACHE = {
  /** Events and racers change a few times a season (admin uploads). */
  catalogue: { maxAge: 60, sMaxAge: 300, staleWhileRevalidate: 86_400 },
  /** Rankings and teams change at settlement, minutes after results come in. */
  live: { maxAge: 30, sMaxAge: 60, staleWhileRevalidate: 600 },
  /** The OpenAPI document changes with a deploy. */
  document: { maxAge: 300, sMaxAge: 3600, staleWhileRevalidate: 86_400 },
} as const satisfies Record<string, CachePolicy>;

/** Requests per IP per window, all endpoints together. Generous: widgets fetch once per view. */
export const API_RATE_LIMIT = { limit: 120, windowMs: 60_000 };
/**
 * Requests per window for a request carrying an enabled partner's publishable key, counted per
 * key and IP: a partner's servers rendering pages get room, and a copied key (it is public) used
 * elsewhere cannot use up the partner's own count (docs/decisions/0088).
 */
export const PARTNER_RATE_LIMIT = { limit: 1200, windowMs: 60_000 };
/** The request header that carries a partner's publishable key. */
export const PARTNER_KEY_HEADER = "X-Partner-Key";
/** Response headers every answer carries (IETF draft names), readable by partner pages. */
const RATE_LIMIT_HEADERS = ["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"];

export function cacheControl(policy: CachePolicy): string {
  return `public, max-age=${policy.maxAge}, s-maxage=${policy.sMaxAge}, stale-while-revalidate=${policy.staleWhileRevalidate}`;
}

/** An expected refusal: answered as `{ error: { code, message } }` with its status. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** A 404 in the API's words. */
export function notFound(code: string, message: string): ApiError {
  return new ApiError(404, code, message);
}

// ---- Query parameters -------------------------------------------------------------------------

const positiveInt = (what: string, max = 2_147_483_647) =>
  z
    .string({ error: `${what} is required.` })
    .regex(/^\d{1,10}$/, `${what} must be a positive whole number.`)
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(1, `${what} must be a positive whole number.`)
        .max(max, `${what} must be at most ${max}.`),
    );

/** `:id` and `?event=`: a positive integer. */
export const idParam = (what: string) => positiveInt(what);
/** `?page=`: 1-based, bounded. */
export const pageParam = positiveInt("page", PUBLIC_MAX_PAGE).default(1);
/** `?pageSize=`: rows a page, 1 to 100, 50 by default. */
export const pageSizeParam = positiveInt("pageSize", PUBLIC_MAX_PAGE_SIZE).default(
  PUBLIC_PAGE_SIZE,
);

const SLUGS = Object.values(CATEGORY_SLUGS) as [CategorySlug, ...CategorySlug[]];
/** `?category=pro-men|pro-women|junior-men|junior-women`. */
export const categoryParam = z.enum(SLUGS, {
  error: `category must be one of ${SLUGS.join(", ")}.`,
});

/**
 * Reads `values` (query or path parameters; a missing one is undefined, a repeated one is its
 * first value) with `schema`, or throws a 400 naming the first problem.
 */
export function parseParams<S extends z.ZodType>(
  schema: S,
  values: Record<string, string | null | undefined>,
): z.infer<S> {
  const clean: Record<string, string> = {};
  for (const [k, v] of Object.entries(values)) if (v != null) clean[k] = v;
  const result = schema.safeParse(clean);
  if (!result.success) {
    throw new ApiError(
      400,
      "bad_request",
      result.error.issues[0]?.message ?? "Invalid parameters.",
    );
  }
  return result.data;
}

/** The query parameters named in `names`, first value each. */
export function queryOf(url: URL, names: readonly string[]): Record<string, string | null> {
  return Object.fromEntries(names.map((n) => [n, url.searchParams.get(n)]));
}

// ---- CORS ----------------------------------------------------------------------------------------

/**
 * CORS headers for `request`: `Access-Control-Allow-Origin` only for a partner's listed origin,
 * always the exact origin (never `*`, never an unlisted one, never `null`), and `Vary: Origin`
 * so caches keep the answers apart.
 */
export async function corsHeaders(
  request: Request,
  context: AppLoadContext,
): Promise<Record<string, string>> {
  const headers: Record<string, string> = { Vary: "Origin" };
  const origin = request.headers.get("Origin");
  if (!origin || origin === "null") return headers;
  if (origin === new URL(request.url).origin) return headers;
  if (await isPartnerOrigin(context.db, origin)) {
    headers["Access-Control-Allow-Origin"] = origin;
    headers["Access-Control-Expose-Headers"] = ["ETag", "Retry-After", ...RATE_LIMIT_HEADERS].join(
      ", ",
    );
  }
  return headers;
}

// ---- Responses -----------------------------------------------------------------------------------

function jsonHeaders(extra: Record<string, string>): Headers {
  const headers = new Headers(extra);
  headers.set("Content-Type", "application/json; charset=utf-8");
  headers.set("X-Content-Type-Options", "nosniff");
  return headers;
}

export function errorResponse(error: ApiError, cors: Record<string, string>): Response {
  const headers = jsonHeaders({ ...cors, ...error.headers });
  headers.set("Cache-Control", "no-store");
  return new Response(JSON.stringify({ error: { code: error.code, message: error.message } }), {
    status: error.status,
    headers,
  });
}

/** A weak ETag over the exact bytes sent. */
export function etagOf(body: string): string {
  return `W/"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
}

export function matchesEtag(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === "*") return true;
  const bare = etag.replace(/^W\//, "");
  return ifNoneMatch.split(",").some((t) => t.trim().replace(/^W\//, "") === bare);
}

/** 200 with the JSON body, or 304 when the client already holds it. */
export function jsonResponse(
  request: Request,
  data: unknown,
  policy: CachePolicy,
  cors: Record<string, string>,
): Response {
  const body = JSON.stringify(data);
  const etag = etagOf(body);
  const headers = jsonHeaders(cors);
  headers.set("Cache-Control", cacheControl(policy));
  headers.set("ETag", etag);
  if (matchesEtag(request.headers.get("If-None-Match"), etag)) {
    headers.delete("Content-Type");
    return new Response(null, { status: 304, headers });
  }
  return new Response(body, { status: 200, headers });
}

// ---- Rankings: keyed by their version ----------------------------------------------------------

/**
 * Ranking answers kept per process: a ranking changes only when its version moves (settlement,
 * leagues created or joined; docs/decisions/0135-cached-rankings.md). Small: pages past the
 * first few are rarely asked twice.
 */
const rankingAnswers = new LRUCache<string, string>({
  max: 1000,
  maxSize: 16 * 1024 * 1024,
  sizeCalculation: (body) => body.length + 100,
});

/** What a ranking answer depends on: its version, the build, its address (query sorted). */
async function rankingKey(
  url: URL,
  context: AppLoadContext,
  scope: RankingScope,
): Promise<string | null> {
  if (!context.rankingVersions) return null;
  const version = (await context.rankingVersions())[scope];
  const query = new URLSearchParams(url.search);
  query.sort();
  return `${scope}:${version}|${context.buildVersion?.() ?? ""}|${url.origin}${url.pathname}?${query}`;
}

/**
 * A ranking answer: 304 with no database read when the client holds this version's answer, else
 * the kept answer, else `run`'s (kept). The ETag is strong: one version, one body.
 */
async function rankingResponse(
  request: Request,
  key: string,
  policy: CachePolicy,
  cors: Record<string, string>,
  run: () => Promise<unknown>,
): Promise<Response> {
  const etag = `"${createHash("sha256").update(key).digest("base64url").slice(0, 27)}"`;
  const headers = jsonHeaders(cors);
  headers.set("Cache-Control", cacheControl(policy));
  headers.set("ETag", etag);
  if (matchesEtag(request.headers.get("If-None-Match"), etag)) {
    headers.delete("Content-Type");
    return new Response(null, { status: 304, headers });
  }
  let body = rankingAnswers.get(key);
  if (body === undefined) {
    body = JSON.stringify(await run());
    rankingAnswers.set(key, body);
  }
  return new Response(body, { status: 200, headers });
}

// ---- The handler ---------------------------------------------------------------------------------

/**
 * Counts the request against its quota: the partner key's (per key and IP) when it carries an
 * enabled partner's key, else the IP's. Answers the `RateLimit-*` headers for the response, and
 * the refusal when over the quota or when the key is unknown (a typo should not pass silently
 * as an anonymous call).
 */
async function rateLimited(
  request: Request,
  context: AppLoadContext,
): Promise<{ headers: Record<string, string>; refusal: ApiError | null }> {
  const ip = context.clientIp || "unknown";
  const key = request.headers.get(PARTNER_KEY_HEADER)?.trim();
  let rule = API_RATE_LIMIT;
  let counter = `api:ip:${ip}`;
  if (key) {
    const partner = await getPartnerByKey(context.db, key);
    if (!partner) {
      return {
        headers: {},
        refusal: new ApiError(
          401,
          "invalid_partner_key",
          `The ${PARTNER_KEY_HEADER} header is not the key of an enabled partner.`,
        ),
      };
    }
    rule = PARTNER_RATE_LIMIT;
    counter = `api:partner:${partner.id}:ip:${ip}`;
  }
  const now = context.now();
  const result = await hit(context.db, counter, { ...rule, now });
  const resetSeconds = Math.max(0, Math.ceil((result.resetAt.getTime() - now.getTime()) / 1000));
  const headers = {
    "RateLimit-Limit": String(rule.limit),
    "RateLimit-Remaining": String(Math.max(0, rule.limit - result.count)),
    "RateLimit-Reset": String(resetSeconds),
  };
  if (result.allowed) return { headers, refusal: null };
  return {
    headers,
    refusal: new ApiError(
      429,
      "rate_limited",
      `Too many requests. Try again in ${result.retryAfterSeconds} seconds.`,
      { "Retry-After": String(result.retryAfterSeconds) },
    ),
  };
}

/**
 * Runs a GET endpoint: rate limit, then `run` (which validates its parameters and may throw an
 * ApiError), then the JSON answer with caching headers. Anything unexpected is logged and
 * answered as a JSON 500 without details.
 */
export async function apiGet(
  args: LoaderFunctionArgs,
  policy: CachePolicy,
  run: (url: URL) => Promise<unknown>,
  opts: { ranking?: RankingScope } = {},
): Promise<Response> {
  const { request, context } = args;
  // Remix hands OPTIONS to loaders (only POST, PUT, PATCH and DELETE reach actions).
  if (request.method === "OPTIONS") return preflight(request, context);
  let cors: Record<string, string> = { Vary: "Origin" };
  try {
    cors = await corsHeaders(request, context);
    const limit = await rateLimited(request, context);
    // The quota headers go on every answer, errors included (merged with CORS and Vary).
    cors = { ...cors, ...limit.headers };
    if (limit.refusal) return errorResponse(limit.refusal, cors);
    // Partner stats: a call from a partner's page, counted in memory (never delays the answer).
    countApiCall(request, context);
    const url = new URL(request.url);
    const key = opts.ranking ? await rankingKey(url, context, opts.ranking) : null;
    if (key) return await rankingResponse(request, key, policy, cors, () => run(url));
    const data = await run(url);
    return jsonResponse(request, data, policy, cors);
  } catch (error) {
    if (error instanceof ApiError) return errorResponse(error, cors);
    logError(`API error ${request.method} ${new URL(request.url).pathname}`, error);
    return errorResponse(new ApiError(500, "internal", "Something went wrong on our side."), cors);
  }
}

/** A CORS preflight: the methods and headers the API takes, for partner origins only. */
export async function preflight(request: Request, context: AppLoadContext): Promise<Response> {
  const cors = await corsHeaders(request, context);
  const headers = new Headers(cors);
  if (cors["Access-Control-Allow-Origin"]) {
    headers.set("Access-Control-Allow-Methods", "GET, HEAD, OPTIONS");
    headers.set(
      "Access-Control-Allow-Headers",
      `Accept, Content-Type, If-None-Match, ${PARTNER_KEY_HEADER}`,
    );
    headers.set("Access-Control-Max-Age", "86400");
  }
  return new Response(null, { status: 204, headers });
}

/** The action of every API route: the API is read-only, writes get a JSON 405. */
export async function apiAction({ request, context }: ActionFunctionArgs): Promise<Response> {
  if (request.method === "OPTIONS") return preflight(request, context);
  const cors = await corsHeaders(request, context);
  return errorResponse(
    new ApiError(405, "method_not_allowed", "The API is read-only: use GET.", {
      Allow: "GET, HEAD, OPTIONS",
    }),
    cors,
  );
}

/** Absolute URL of a root-relative asset, for consumers on other origins. */
export function absoluteUrl(path: string, request: Request, context: AppLoadContext): string {
  if (!path.startsWith("/") || path.startsWith("//")) return path;
  const base = context.env.publicUrl ?? new URL(request.url).origin;
  return `${base.replace(/\/+$/, "")}${path}`;
}
