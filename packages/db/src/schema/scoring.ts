import { boolean, index, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";

/**
 * Each competition's table as its last settlement stored it: one row per ranked player, keyed
 * by (competition, unique place), so a page of a competition's player ranking is one primary-key
 * range. Partitioned by competition (migration 0029): a settlement writes its competition's table
 * fresh and swaps it in as that competition's partition, and a finished competition keeps its
 * final table for good (history, podiums). Nothing per player is stored anywhere else
 * (docs/decisions/0159).
 */
export const seasonStandings = pgTable(
  "season_standings",
  {
    competitionId: integer("competition_id").notNull(),
    /** 1..n: points highest first, ties by username (case-insensitive), then id. */
    position: integer("position").notNull(),
    userId: integer("user_id").notNull(),
    points: integer("points").notNull(),
    /** Shared on ties (1, 1, 3). */
    rank: integer("rank").notNull(),
    /** Rank before the competition's latest settled round; null when not ranked then. */
    previousRank: integer("previous_rank"),
    /** Points before the competition's latest settled round (the leagues' previous ranking). */
    previousPoints: integer("previous_points").notNull().default(0),
    /**
     * The player's username key (case-folded), copied from users: what orders players on equal
     * points, so the settlement sorts without joining a million players (decision 0172).
     * Usernames never change once chosen.
     */
    usernameKey: text("username_key"),
  },
  (t) => [
    primaryKey({ columns: [t.competitionId, t.position] }),
    // A player's own row (greeting, profile, league tables).
    index("season_standings_user_idx").on(t.competitionId, t.userId),
  ],
);

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
    /**
     * The team's captain in this round (one of `racer_ids`), frozen only where the
     * competition's rules have captains: their points count twice (docs/decisions/0168).
     */
    captainRacerId: integer("captain_racer_id"),
    /**
     * The team's bench rider in this round (not in `racer_ids`), where the competition's rules
     * have a bench: they score only for a starter who did not start (docs/decisions/0169).
     */
    benchRacerId: integer("bench_racer_id"),
    /**
     * Where the rules limit transfers (docs/decisions/0170): the racers (people) on the team this
     * round who were not on it in the competition's previous frozen round (null in its first
     * round played, or without the rule), the points they cost, the free transfers kept for the
     * next round, and whether the wildcard was played. Core's `transferRound`, restated in SQL
     * at the freeze (a property test holds them equal).
     */
    transferChanges: integer("transfer_changes"),
    transferCost: integer("transfer_cost").notNull().default(0),
    transfersLeft: integer("transfers_left"),
    wildcard: boolean("wildcard").notNull().default(false),
    /**
     * The player's username key (case-folded), copied from users: what orders players on equal
     * points, so the settlement sorts without joining a million players (decision 0172).
     * Usernames never change once chosen.
     */
    usernameKey: text("username_key"),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.userId] })],
);
