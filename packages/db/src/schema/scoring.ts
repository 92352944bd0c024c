import { integer, pgTable, primaryKey } from "drizzle-orm/pg-core";

/**
 * The season table as the last settlement stored it: one row per ranked player, keyed by their
 * unique place, so a page of the player ranking is one primary-key range. Rewritten in place
 * order by every settlement (a sorted append into one index); `users` keeps the same figures per
 * player without indexing them, so its update stays heap-only (docs/decisions/0054).
 */
export const seasonStandings = pgTable("season_standings", {
  /** 1..n: points highest first, ties by username (case-insensitive), then id. */
  position: integer("position").primaryKey(),
  userId: integer("user_id").notNull(),
  points: integer("points").notNull(),
  /** Shared on ties (1, 1, 3). */
  rank: integer("rank").notNull(),
  /** Season rank before the latest settled event; null when not ranked then. */
  previousRank: integer("previous_rank"),
  /** Season points before the latest settled event (for the leagues' previous ranking). */
  previousPoints: integer("previous_points").notNull().default(0),
});

/**
 * The same frozen teams as frozen_team_racers, one row per team with its racer ids (ascending):
 * what the settlement adds up (a team's points are array lookups, not a join and a group over
 * six rows per team). Both are written by the one freeze statement pair and never change.
 */
export const frozenTeams = pgTable(
  "frozen_teams",
  {
    eventId: integer("event_id").notNull(),
    userId: integer("user_id").notNull(),
    racerIds: integer("racer_ids").array().notNull(),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.userId] })],
);
