/**
 * Ranking answers of the public API, kept per process and keyed by the ranking's version
 * (docs/decisions/0135-cached-rankings.md).
 */
import { createHash } from "node:crypto";
import type { RankingScope } from "@game/db";
import type { AppLoadContext } from "@remix-run/node";
import { LRUCache } from "lru-cache";
import { type CachePolicy, taggedJson } from "./http.server";

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
export async function rankingKey(
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
export async function rankingResponse(
  request: Request,
  key: string,
  policy: CachePolicy,
  cors: Record<string, string>,
  run: () => Promise<unknown>,
): Promise<Response> {
  const etag = `"${createHash("sha256").update(key).digest("base64url").slice(0, 27)}"`;
  const { headers, notModified } = taggedJson(request, etag, policy, cors);
  if (notModified) return notModified;
  let body = rankingAnswers.get(key);
  if (body === undefined) {
    body = JSON.stringify(await run());
    rankingAnswers.set(key, body);
  }
  return new Response(body, { status: 200, headers });
}
