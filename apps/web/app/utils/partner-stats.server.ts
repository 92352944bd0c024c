/**
 * Partner stats in the web app (docs/decisions/0092-partner-stats.md): one in-memory counter per
 * database, flushed every few seconds, for the frequent events (widget loads, API calls).
 */
import {
  createPartnerStatsCounter,
  type Db,
  getPartnerByKey,
  type PartnerStatKind,
  type PartnerStatsCounter,
  partnerIdForOrigin,
} from "@game/db";
import type { AppLoadContext } from "@remix-run/node";
import { logError } from "./log.server";

const counters = new WeakMap<Db, PartnerStatsCounter>();

/**
 * The process's counter for the context's database (created on first use); its last counts are
 * written at shutdown, before the database closes.
 */
export function partnerStatsCounter(context: AppLoadContext): PartnerStatsCounter {
  let counter = counters.get(context.db);
  if (!counter) {
    const created = createPartnerStatsCounter(context.db);
    counters.set(context.db, created);
    context.onClose?.(() => created.stop());
    counter = created;
  }
  return counter;
}

/** The header a partner's servers send their publishable key in (docs/decisions/0088). */
const PARTNER_KEY_HEADER = "X-Partner-Key";

/**
 * The partner a request came through: from its `Origin` header when a browser on one of the
 * partner's origins sent it (a page cannot forge it), else from the partner key a partner's
 * server sends. Undefined for the game's own pages and anonymous calls.
 */
export async function partnerOfRequest(
  request: Request,
  context: AppLoadContext,
): Promise<number | undefined> {
  const origin = request.headers.get("Origin");
  if (origin && origin !== "null" && origin !== new URL(request.url).origin) {
    const byOrigin = await remembered(context, `o:${origin}`, () =>
      partnerIdForOrigin(context.db, origin),
    );
    if (byOrigin !== undefined) return byOrigin;
  }
  const key = request.headers.get(PARTNER_KEY_HEADER)?.trim();
  if (!key) return undefined;
  return remembered(context, `k:${key}`, async () => (await getPartnerByKey(context.db, key))?.id);
}

/**
 * Who an origin or key belongs to, remembered for a few seconds per database: counting must not
 * add a query to every API call. (Access itself is decided on every request, elsewhere; a stale
 * answer here only credits a few seconds of traffic to the previous owner.)
 */
const ATTRIBUTION_TTL_MS = 10_000;
const ATTRIBUTION_MAX = 1000;
const attributions = new WeakMap<Db, Map<string, { id: number | undefined; until: number }>>();

async function remembered(
  context: AppLoadContext,
  key: string,
  look: () => Promise<number | undefined>,
): Promise<number | undefined> {
  let cache = attributions.get(context.db);
  if (!cache) {
    cache = new Map();
    attributions.set(context.db, cache);
  }
  const now = Date.now();
  const hit = cache.get(key);
  if (hit && hit.until > now) return hit.id;
  const id = await look();
  // Unknown origins are as many as the internet has: keep the map small.
  if (cache.size >= ATTRIBUTION_MAX) cache.clear();
  cache.set(key, { id, until: now + ATTRIBUTION_TTL_MS });
  return id;
}

/** Counts `n` events of `kind` for the partner whose page sent `request`, if any. */
export async function countForRequest(
  request: Request,
  context: AppLoadContext,
  kind: PartnerStatKind,
  n = 1,
): Promise<number | undefined> {
  const partnerId = await partnerOfRequest(request, context);
  if (partnerId !== undefined) partnerStatsCounter(context).count(partnerId, kind, n);
  return partnerId;
}

/** Counts a public API call without delaying the answer; a failure only loses the count. */
export function countApiCall(request: Request, context: AppLoadContext): void {
  countForRequest(request, context, "apiCalls").catch((error) =>
    logError("partner stats: could not count an API call", error),
  );
}

/** A stat that could not be written is only logged: the reader's action has succeeded. */
export function statLost(error: unknown): void {
  logError("partner stats: a count was lost", error);
}
