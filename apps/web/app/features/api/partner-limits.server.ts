/**
 * Who may call the public API and how often: CORS for partner origins only, and the per-IP
 * quota, raised for a request carrying an enabled partner's publishable key
 * (docs/decisions/0088).
 */
import { getPartnerByKey, hit, isPartnerOrigin } from "@game/db";
import type { AppLoadContext } from "@remix-run/node";
import { ApiError } from "./http.server";

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

// ---- Quotas ---------------------------------------------------------------------------------------

/**
 * Counts the request against its quota: the partner key's (per key and IP) when it carries an
 * enabled partner's key, else the IP's. Answers the `RateLimit-*` headers for the response, and
 * the refusal when over the quota or when the key is unknown (a typo should not pass silently
 * as an anonymous call).
 */
export async function rateLimited(
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
