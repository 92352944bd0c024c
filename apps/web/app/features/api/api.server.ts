/**
 * The public JSON API's handler, shared by every `/api/v1` resource route: the quota and CORS
 * (partner-limits.server.ts), the answer (cached for rankings: ranking-cache.server.ts), JSON
 * errors and caching headers (http.server.ts).
 */
import type { RankingScope } from "@game/db";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { logError } from "~/utils/log.server";
import { countApiCall } from "~/utils/partner-stats.server";
import { ApiError, type CachePolicy, errorResponse, jsonResponse } from "./http.server";
import { corsHeaders, preflight, rateLimited } from "./partner-limits.server";
import { rankingKey, rankingResponse } from "./ranking-cache.server";

// What the routes wire besides the handler.
export { ApiError, CACHE, errorResponse } from "./http.server";
export { corsHeaders, preflight } from "./partner-limits.server";

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
