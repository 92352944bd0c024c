import { bigint, pgTable, text } from "drizzle-orm/pg-core";

/**
 * What the ranking pages and the public API's rankings show changes only when a transaction
 * touching it commits: the settlement (it sets events.settled_at), an event edit, a league
 * created, joined, left, renamed or deleted, a player deleted. Triggers (migration 0018) bump the
 * scope's version once per such transaction, at commit, so caches can key on it
 * (docs/decisions/0135-cached-rankings.md).
 */
export const rankingVersions = pgTable("ranking_versions", {
  /** "players" (player rankings) or "leagues" (league rankings). */
  scope: text("scope").primaryKey(),
  version: bigint("version", { mode: "number" }).notNull().default(0),
});

/**
 * A change noted by a trigger inside a transaction, applied to ranking_versions by a deferred
 * trigger at commit (so the version row is locked for a moment, not for a whole settlement).
 * Always empty outside a transaction in flight.
 */
export const rankingChanges = pgTable("ranking_changes", {
  scope: text("scope").notNull(),
});
