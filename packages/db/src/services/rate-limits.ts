import { eq, lte, sql } from "drizzle-orm";
import type { DbOrTx } from "../client.js";
import { rateLimits } from "../schema/index.js";

export interface RateLimitRule {
  /** Attempts allowed per window. */
  limit: number;
  /** Length of the fixed window, from the first attempt. */
  windowMs: number;
  now?: Date;
}

export interface RateLimitResult {
  allowed: boolean;
  /** Attempts counted in the current window, this one included. */
  count: number;
  /** Seconds until the window resets (0 when allowed). */
  retryAfterSeconds: number;
  resetAt: Date;
}

/**
 * Counts one attempt against `key` and says whether it is within the limit. A single upsert, so
 * concurrent requests (and several app instances) never lose a count: the row is created, reset
 * when its window has passed, or incremented, atomically.
 */
export async function hit(
  db: DbOrTx,
  key: string,
  { limit, windowMs, now = new Date() }: RateLimitRule,
): Promise<RateLimitResult> {
  const freshReset = new Date(now.getTime() + windowMs);
  // In ON CONFLICT DO UPDATE, the bare table name refers to the existing row.
  const expired = sql`${rateLimits.resetAt} <= ${now.toISOString()}::timestamptz`;
  const [row] = await db
    .insert(rateLimits)
    .values({ key, count: 1, resetAt: freshReset })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${expired} then 1 else ${rateLimits.count} + 1 end`,
        resetAt: sql`case when ${expired} then ${freshReset.toISOString()}::timestamptz else ${rateLimits.resetAt} end`,
      },
    })
    .returning({ count: rateLimits.count, resetAt: rateLimits.resetAt });
  const count = row!.count;
  const resetAt = row!.resetAt;
  const allowed = count <= limit;
  return {
    allowed,
    count,
    resetAt,
    retryAfterSeconds: allowed
      ? 0
      : Math.max(1, Math.ceil((resetAt.getTime() - now.getTime()) / 1000)),
  };
}

/**
 * Takes back one attempt counted by `hit` in the same transaction (an action that two counters
 * allow and the second refused is charged to neither).
 */
export async function giveBack(db: DbOrTx, key: string): Promise<void> {
  await db
    .update(rateLimits)
    .set({ count: sql`greatest(${rateLimits.count} - 1, 0)` })
    .where(eq(rateLimits.key, key));
}

/** Forgets the attempts against `key` (e.g. the e-mail's failures after a successful login). */
export async function resetLimit(db: DbOrTx, key: string): Promise<void> {
  await db.delete(rateLimits).where(eq(rateLimits.key, key));
}

/** Drops counters whose window is over; they would be reset on the next hit anyway. */
export async function purgeExpiredRateLimits(db: DbOrTx, now = new Date()): Promise<number> {
  const deleted = await db
    .delete(rateLimits)
    .where(lte(rateLimits.resetAt, now))
    .returning({ key: rateLimits.key });
  return deleted.length;
}
