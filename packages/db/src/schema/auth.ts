import {
  boolean,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

/**
 * Credentials, kept apart from the player profile (`users`) as the spec keeps the authentication
 * account apart from the users record: a login can succeed while the profile is missing.
 */
export const accounts = pgTable("accounts", {
  id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
  email: text("email").notNull().unique(),
  passwordHash: text("password_hash").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

export const ROLES = ["player", "admin"] as const;
export type Role = (typeof ROLES)[number];

/** The player profile (spec: users/{uid}). Same id as the account. */
export const users = pgTable(
  "users",
  {
    id: integer("id")
      .primaryKey()
      .references(() => accounts.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    username: text("username").notNull(),
    /** Lower-cased username: uniqueness is case-insensitive. */
    usernameKey: text("username_key").notNull(),
    role: text("role", { enum: ROLES }).notNull().default("player"),
    accepted: boolean("accepted").notNull().default(true),
    credits: integer("credits").notNull().default(100),
    /**
     * The player's IANA time zone ("Europe/Paris"), as their browser last said it; e-mails write
     * dates in it (UTC while unknown): docs/decisions/0144.
     */
    timeZone: text("time_zone"),
    /**
     * When the player proved the e-mail address is theirs (the one-time link of the sign-up
     * mail); null until then. Invitations, joining by link and reminders wait for it
     * (docs/decisions/0151). Accounts older than the rule count as confirmed (migration 0024).
     */
    emailConfirmedAt: timestamp("email_confirmed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("users_email_key").on(t.email),
    uniqueIndex("users_username_key").on(t.usernameKey),
  ],
);

/** Server-side sessions; the cookie holds a random token, the table its SHA-256. */
export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** Absolute end: 30 days after sign-in, however active the session is. */
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    /** Last request seen (updated at most hourly); 7 days without one ends the session. */
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    userAgent: text("user_agent"),
  },
  (t) => [
    index("sessions_account_idx").on(t.accountId),
    index("sessions_expires_idx").on(t.expiresAt),
  ],
);

/** Password reset links: one hour, single use; only the SHA-256 of the token is stored. */
export const passwordResetTokens = pgTable(
  "password_reset_tokens",
  {
    id: text("id").primaryKey(),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [
    index("password_reset_tokens_account_idx").on(t.accountId),
    index("password_reset_tokens_expires_idx").on(t.expiresAt),
  ],
);

/**
 * E-mail confirmation links (docs/decisions/0151): two days, single use; only the SHA-256 of the
 * token is stored. `email` is the address the link confirms: a link for an address the account no
 * longer has confirms nothing.
 */
export const emailConfirmationTokens = pgTable(
  "email_confirmation_tokens",
  {
    id: text("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    index("email_confirmation_tokens_user_idx").on(t.userId),
    index("email_confirmation_tokens_expires_idx").on(t.expiresAt),
  ],
);

/** Fixed-window counters shared by every app instance (login and API rate limits). */
export const rateLimits = pgTable("rate_limits", {
  key: text("key").primaryKey(),
  count: integer("count").notNull().default(0),
  resetAt: timestamp("reset_at", { withTimezone: true }).notNull(),
});
