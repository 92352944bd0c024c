/**
 * The public JSON API's answers, shared by every `/api/v1` resource route: cache policies,
 * query validation (400, never 500), JSON errors, caching headers and ETag/304.
 */
import { createHash } from "node:crypto";
import type { CategorySlug } from "@game/core";
import { CATEGORY_SLUGS } from "@game/core";
import { PUBLIC_MAX_PAGE, PUBLIC_MAX_PAGE_SIZE, PUBLIC_PAGE_SIZE } from "@game/db";
import type { AppLoadContext } from "@remix-run/node";
import { z } from "zod";

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
  /**
   * Rankings and teams change at each settlement, every few seconds while provisional results
   * come in (docs/decisions/0171): revalidated every time (ETag), a CDN at most once a second.
   */
  live: { maxAge: 0, sMaxAge: 1, staleWhileRevalidate: 600 },
  /** The OpenAPI document changes with a deploy. */
  document: { maxAge: 300, sMaxAge: 3600, staleWhileRevalidate: 86_400 },
} as const satisfies Record<string, CachePolicy>;

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

// ---- Responses -----------------------------------------------------------------------------------

/** The headers of every JSON answer, over `extra`. */
export function jsonHeaders(extra: Record<string, string>): Headers {
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
/**
 * The headers of a JSON answer tagged `etag` under `policy`, and the 304 to send instead when the
 * client already holds that version (null when it does not).
 */
export function taggedJson(
  request: Request,
  etag: string,
  policy: CachePolicy,
  cors: Record<string, string>,
): { headers: Headers; notModified: Response | null } {
  const headers = jsonHeaders(cors);
  headers.set("Cache-Control", cacheControl(policy));
  headers.set("ETag", etag);
  if (!matchesEtag(request.headers.get("If-None-Match"), etag))
    return { headers, notModified: null };
  headers.delete("Content-Type");
  return { headers, notModified: new Response(null, { status: 304, headers }) };
}

export function jsonResponse(
  request: Request,
  data: unknown,
  policy: CachePolicy,
  cors: Record<string, string>,
): Response {
  const body = JSON.stringify(data);
  const { headers, notModified } = taggedJson(request, etagOf(body), policy, cors);
  return notModified ?? new Response(body, { status: 200, headers });
}

/** Absolute URL of a root-relative asset, for consumers on other origins. */
export function absoluteUrl(path: string, request: Request, context: AppLoadContext): string {
  if (!path.startsWith("/") || path.startsWith("//")) return path;
  const base = context.env.publicUrl ?? new URL(request.url).origin;
  return `${base.replace(/\/+$/, "")}${path}`;
}
