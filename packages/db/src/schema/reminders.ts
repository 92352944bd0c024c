import { integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./auth.js";

/**
 * Deadline reminders sent: one row per player per round, claimed by `INSERT ... ON CONFLICT DO
 * NOTHING` before the mail is written, so a player gets exactly one reminder per round across
 * restarts and app processes. No foreign keys: written in batches of thousands.
 */
export const remindersSent = pgTable(
  "reminders_sent",
  {
    userId: integer("user_id").notNull(),
    eventId: integer("event_id").notNull(),
    sentAt: timestamp("sent_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.eventId] })],
);

/** Players who turned deadline reminders off (from a reminder, or in their account). */
export const reminderOptouts = pgTable("reminder_optouts", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Keys the app and the command line share through the database (both must sign the same
 * unsubscribe links). Created with a random value by the migration that adds the table.
 */
export const appKeys = pgTable("app_keys", {
  name: text("name").primaryKey(),
  value: text("value").notNull(),
});
