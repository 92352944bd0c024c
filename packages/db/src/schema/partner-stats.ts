import { date, integer, pgTable, primaryKey } from "drizzle-orm/pg-core";
import { partners } from "./admin.js";

/**
 * What each partner's site brought, per UTC day: counters only, no visitor data
 * (docs/decisions/0092-partner-stats.md). One row per partner and day, incremented by upserts.
 */
export const partnerDailyStats = pgTable(
  "partner_daily_stats",
  {
    partnerId: integer("partner_id")
      .notNull()
      .references(() => partners.id, { onDelete: "cascade" }),
    /** The UTC day, `YYYY-MM-DD`. */
    day: date("day", { mode: "string" }).notNull(),
    /** Widgets (custom elements) shown on the partner's pages. */
    widgetLoads: integer("widget_loads").notNull().default(0),
    /** Public API requests from the partner's origins (or carrying its key). */
    apiCalls: integer("api_calls").notNull().default(0),
    /** Readers signed in inside the partner's team-builder iframe. */
    signIns: integer("sign_ins").notNull().default(0),
    /** Teams saved from the partner's team-builder iframe. */
    teamSaves: integer("team_saves").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.partnerId, t.day] })],
);
