import { index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { partners } from "./admin.js";
import { accounts } from "./auth.js";

/**
 * `handoff`: minted by the sign-in popup, exchanged once by the partner iframe (minutes).
 * `session`: what the iframe keeps in memory and sends with its own POSTs (hours), because a
 * cookie set in a third-party iframe is blocked or partitioned by browsers.
 */
export const EMBED_TOKEN_KINDS = ["handoff", "session"] as const;
export type EmbedTokenKind = (typeof EMBED_TOKEN_KINDS)[number];

/** Short-lived credentials of players signed in inside a partner's iframe. Only hashes are stored. */
export const embedTokens = pgTable(
  "embed_tokens",
  {
    /** SHA-256 of the token: a leaked table gives no usable token. */
    id: text("id").primaryKey(),
    kind: text("kind", { enum: EMBED_TOKEN_KINDS }).notNull(),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    partnerId: integer("partner_id")
      .notNull()
      .references(() => partners.id, { onDelete: "cascade" }),
    /** The partner page the token was handed to (one of the partner's allowed origins). */
    origin: text("origin").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    /** Set when a handoff token is exchanged: it works once. */
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [
    index("embed_tokens_account_idx").on(t.accountId),
    index("embed_tokens_expires_idx").on(t.expiresAt),
  ],
);
