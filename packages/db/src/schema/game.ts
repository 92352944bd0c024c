import type { CompetitionRules, Discipline } from "@game/core";
import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { users } from "./auth.js";

export const EVENT_STATUSES = ["open", "closed", "archived"] as const;
export const CATEGORIES = ["Pro Men", "Pro Women", "17-18 Men", "17-18 Women"] as const;

/**
 * A competition (docs/decisions/0156): a series of rounds such as "Pro Downhill Series 2027", or
 * a one-off race, with its own rules. Its state (upcoming, live, finished) follows its rounds
 * (core's `competitionState`); only archiving is stored.
 */
export const competitions = pgTable(
  "competitions",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    slug: text("slug").notNull().unique(),
    name: text("name").notNull(),
    discipline: text("discipline").$type<Discipline>().notNull().default("downhill"),
    /** The year or season label ("2027", "2027/28"); "" when the name says it. */
    season: text("season").notNull().default(""),
    cover: text("cover").notNull().default(""),
    logo: text("logo").notNull().default(""),
    description: text("description").notNull().default(""),
    /** Checked by core's `competitionRulesSchema` on every write and read. */
    rules: jsonb("rules").$type<CompetitionRules>().notNull(),
    archivedAt: timestamp("archived_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("competitions_name_key").on(sql`lower(${t.name})`)],
);

/** Events (the spec's games): the rounds of competitions. The seed's are ids 1-12. */
export const events = pgTable(
  "events",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    slug: text("slug").notNull().unique(),
    name: text("name").notNull(),
    competitionId: integer("competition_id")
      .notNull()
      .references(() => competitions.id),
    location: text("location").notNull().default(""),
    cover: text("cover").notNull(),
    logo: text("logo").notNull(),
    description: text("description").notNull().default(""),
    status: text("status", { enum: EVENT_STATUSES }).notNull().default("closed"),
    /**
     * Its place in its competition (1, 2, ...): the order a season advances in, set once and
     * never derived from start times, which admins edit (docs/decisions/0140). A BEFORE INSERT
     * trigger numbers a new round after the competition's last one.
     */
    round: integer("round"),
    startsAt: timestamp("starts_at", { withTimezone: true }).notNull(),
    /** When the teams were frozen for scoring (at the lock moment). */
    frozenAt: timestamp("frozen_at", { withTimezone: true }),
    /** When results were last settled. */
    settledAt: timestamp("settled_at", { withTimezone: true }),
    /**
     * True while the round's results are provisional (imported in pieces as the race runs): its
     * points and ranks are settled as usual but say "provisional" until the final import or
     * `results finalize` (docs/decisions/0171).
     */
    provisional: boolean("provisional").notNull().default(false),
  },
  (t) => [
    index("events_starts_idx").on(t.startsAt),
    uniqueIndex("events_competition_round_key").on(t.competitionId, t.round),
  ],
);

/**
 * How many teams a round's `racers.picked_by` counts were taken from, and when
 * (docs/decisions/0160): its frozen teams at the freeze, its competition's teams every 10
 * minutes while it is open. A table of its own: an update of `events` moves the rankings'
 * versions (migration 0016), and this one changes every 10 minutes.
 */
export const eventPicks = pgTable("event_picks", {
  eventId: integer("event_id")
    .primaryKey()
    .references(() => events.id, { onDelete: "cascade" }),
  teams: integer("teams").notNull(),
  countedAt: timestamp("counted_at", { withTimezone: true }).notNull(),
  /** True once counted from the frozen teams (final for the round). */
  final: boolean("final").notNull().default(false),
});

/**
 * A racer as a person across the rounds of a series; `racers` rows are their per-round entries
 * (price, rank, start). Created and linked by a trigger on `racers` (migration 0011): an entry is
 * the person of an entry of the same series with the same name key, or a new person.
 */
export const racerPeople = pgTable("racer_people", {
  id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
  /** The slug of the competition of the person's first entry (a label: people span years). */
  series: text("series").notNull(),
  /** The name key of the person's first entry (later entries match through `racers`). */
  nameKey: text("name_key").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

export const racers = pgTable(
  "racers",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    gameId: integer("game_id")
      .notNull()
      .default(5)
      .references(() => events.id),
    /**
     * The person this entry belongs to. NOT NULL in the database: a BEFORE INSERT trigger links
     * (or creates) the person when an insert leaves it out, so every import path keeps working.
     */
    personId: integer("person_id").references(() => racerPeople.id),
    category: text("category", { enum: CATEGORIES }).notNull(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    /** Lower-cased "first|last": re-uploads match on (game, name) and update. */
    nameKey: text("name_key").notNull(),
    picture: text("picture"),
    origin: text("origin").notNull().default(""),
    rank2024: integer("rank2024").notNull().default(0),
    totalPoint2024: integer("total_point2024").notNull().default(0),
    price: integer("price").notNull().default(75000),
    /**
     * When an admin withdrew the racer from this round: kept for history and for the teams that
     * hold them, no longer pickable; null while they start.
     */
    withdrawnAt: timestamp("withdrawn_at", { withTimezone: true }),
    /**
     * Teams holding this entry as of the round's `picks_counted_at`: its frozen teams, counted
     * once at the freeze (they never change after; the settlement reads this instead of counting
     * a million frozen teams again), or while the round is open its competition's teams,
     * counted every 10 minutes (docs/decisions/0160). Null before the first count.
     */
    pickedBy: integer("picked_by"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("racers_game_name_key").on(t.gameId, t.nameKey),
    uniqueIndex("racers_game_person_key").on(t.gameId, t.personId),
    index("racers_person_idx").on(t.personId),
    index("racers_game_category_rank_idx").on(t.gameId, t.category, t.rank2024),
  ],
);

/**
 * A player's team for a competition (docs/decisions/0157): one per player per competition, kept
 * from round to round. Each round's lock freezes it (frozen_team_racers) as it then stands in
 * that round; a new round copies nothing.
 */
export const teams = pgTable(
  "teams",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    competitionId: integer("competition_id")
      .notNull()
      .references(() => competitions.id),
    /** Bumped at every save: counts edits and guards against lost updates. */
    version: integer("version").notNull().default(1),
    /**
     * The player's budget for this team: the competition's budget to start, moved by what each
     * sale gained or lost against the price paid (docs/decisions/0141). The bank is this minus
     * the prices paid for the racers held.
     */
    budget: integer("budget").notNull().default(1_000_000),
    /**
     * The team's captain, as a person (one of its team_racers), where the competition's rules
     * have captains: their points count double (docs/decisions/0168). Null: no captain.
     */
    captainPersonId: integer("captain_person_id").references(() => racerPeople.id),
    /**
     * The round the team plays its wildcard in (docs/decisions/0170): once per competition, that
     * round's changes are free. Null until played; changeable until that round locks.
     */
    wildcardEventId: integer("wildcard_event_id").references((): AnyPgColumn => events.id),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("teams_user_competition_key").on(t.userId, t.competitionId),
    index("teams_competition_idx").on(t.competitionId),
  ],
);

/**
 * The racers of a team, as people (racer_people): a racer stays on the team from round to round
 * and plays each round through their entry in it (racers, by person). A racer without an entry in
 * a round does not start there: the team must be fixed before that round's lock to play.
 */
export const teamRacers = pgTable(
  "team_racers",
  {
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    personId: integer("person_id")
      .notNull()
      .references(() => racerPeople.id),
    /** Slot 0.. in the grid, so the order the player chose survives. */
    slot: integer("slot").notNull(),
    /** What the player paid for the racer (their price when bought; kept while on the team). */
    pricePaid: integer("price_paid").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.teamId, t.personId] }),
    uniqueIndex("team_racers_slot_key").on(t.teamId, t.slot),
    index("team_racers_person_idx").on(t.personId),
  ],
);

/**
 * The teams migration 0027 replaced: a player's teams of earlier rounds of a competition, as they
 * were (one row per slot), kept so that nothing was lost when teams became one per competition.
 * Read by nothing; a deleted player's rows go with them.
 */
export const teamsBefore0027 = pgTable(
  "teams_before_0027",
  {
    teamId: integer("team_id").notNull(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    eventId: integer("event_id").notNull(),
    version: integer("version").notNull(),
    draft: boolean("draft").notNull(),
    budget: integer("budget").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
    racerId: integer("racer_id"),
    slot: integer("slot"),
    pricePaid: integer("price_paid"),
  },
  (t) => [index("teams_before_0027_user_idx").on(t.userId)],
);

/**
 * Teams frozen at the lock moment: what scoring reads; later edits cannot touch it. Copied from
 * teams (whose rows are checked) in one statement, so it carries no foreign keys: six checks per
 * row made freezing a million teams take minutes. A trigger on users removes a deleted player's
 * rows (migration 0004).
 */
export const frozenTeamRacers = pgTable(
  "frozen_team_racers",
  {
    eventId: integer("event_id").notNull(),
    userId: integer("user_id").notNull(),
    racerId: integer("racer_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.userId, t.racerId] })],
);

export const RESULT_STATUSES = ["finished", "DNF", "DNS", "DSQ"] as const;

/** Official results: a place per category, or a non-finish status. */
export const raceResults = pgTable(
  "race_results",
  {
    eventId: integer("event_id")
      .notNull()
      .references(() => events.id),
    racerId: integer("racer_id")
      .notNull()
      .references(() => racers.id),
    category: text("category", { enum: CATEGORIES }).notNull(),
    position: integer("position"),
    status: text("status", { enum: RESULT_STATUSES }).notNull(),
    /** The racer's contribution: points from the table for this result. */
    points: integer("points").notNull().default(0),
    /** How many frozen teams picked this racer (filled at settlement). */
    pickedBy: integer("picked_by").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.eventId, t.racerId] }),
    uniqueIndex("race_results_place_key").on(t.eventId, t.category, t.position),
  ],
);

/**
 * A player's score and rank in one settled event. Written only by the settlement (a million rows
 * at a time), so like frozen_team_racers it has no foreign keys and only the indexes reads need:
 * the key (own row) and the stored place (pages).
 */
export const eventScores = pgTable(
  "event_scores",
  {
    eventId: integer("event_id").notNull(),
    userId: integer("user_id").notNull(),
    points: integer("points").notNull().default(0),
    rank: integer("rank"),
    /** Unique place in the event table (ties ordered by username): pages read a range of it. */
    position: integer("position"),
    /**
     * The player's username key (case-folded), copied from users: what orders players on equal
     * points, so the settlement sorts without joining a million players (decision 0172).
     * Usernames never change once chosen.
     */
    usernameKey: text("username_key"),
  },
  (t) => [
    primaryKey({ columns: [t.eventId, t.userId] }),
    index("event_scores_position_idx").on(t.eventId, t.position),
  ],
);

export const leagues = pgTable(
  "leagues",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    name: text("name").notNull(),
    ownerId: integer("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Shareable invite code; the owner can reset it. */
    joinCode: text("join_code").notNull().unique(),
    /**
     * The competition the league plays (docs/decisions/0158): its table follows that
     * competition's settlements and stays as it was once another competition is played.
     */
    competitionId: integer("competition_id")
      .notNull()
      .references(() => competitions.id),
    /** The league this one was renewed from (one renewal per league). */
    renewedFrom: integer("renewed_from")
      .unique()
      .references((): AnyPgColumn => leagues.id, { onDelete: "set null" }),
    /** Average of accepted members' scores. */
    totalPoints: doublePrecision("total_points").notNull().default(0),
    ranking: integer("ranking"),
    previousRanking: integer("previous_ranking"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("leagues_owner_idx").on(t.ownerId),
    // No index on the ranking columns: the settlement rewrites them for every league, and
    // unindexed they are updated in place (heap-only); pages find a place in league_places.
    index("leagues_competition_idx").on(t.competitionId),
  ],
);

/**
 * Each competition's league places as its last settlement stored them (docs/decisions/0162):
 * one row per placed league, keyed by (competition, place), so a page of the league ranking is
 * one key range. Partitioned by competition, written fresh and swapped in by the settlement,
 * like season_standings.
 */
export const leaguePlaces = pgTable(
  "league_places",
  {
    competitionId: integer("competition_id").notNull(),
    place: integer("place").notNull(),
    leagueId: integer("league_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.competitionId, t.place] })],
);

export const MEMBER_STATUSES = ["accepted"] as const;

export const leagueMembers = pgTable(
  "league_members",
  {
    leagueId: integer("league_id")
      .notNull()
      .references(() => leagues.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    status: text("status", { enum: MEMBER_STATUSES }).notNull().default("accepted"),
    joinedAt: timestamp("joined_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.leagueId, t.userId] }),
    index("league_members_user_idx").on(t.userId),
  ],
);

export const leagueInvitations = pgTable(
  "league_invitations",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    leagueId: integer("league_id")
      .notNull()
      .references(() => leagues.id, { onDelete: "cascade" }),
    /** Normalised (lower-cased) e-mail of the guest. */
    email: text("email").notNull(),
    status: text("status", { enum: ["pending"] })
      .notNull()
      .default("pending"),
    invitedBy: integer("invited_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("league_invitations_league_email_key").on(t.leagueId, t.email),
    index("league_invitations_email_idx").on(t.email),
  ],
);

/**
 * Players the owner removed from a league. The join link refuses them until they are invited
 * again by the owner (docs/decisions/0142-removing-league-members.md); rejoining clears the row.
 */
export const leagueRemovals = pgTable(
  "league_removals",
  {
    leagueId: integer("league_id")
      .notNull()
      .references(() => leagues.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    removedBy: integer("removed_by").references(() => users.id, { onDelete: "set null" }),
    removedAt: timestamp("removed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.leagueId, t.userId] }),
    index("league_removals_user_idx").on(t.userId),
  ],
);
