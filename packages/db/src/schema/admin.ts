import { index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./auth.js";

/** Every admin write: who, what, when. */
export const auditLog = pgTable(
  "audit_log",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    actorId: integer("actor_id").references(() => users.id, { onDelete: "set null" }),
    /** "web:alice@example.com", "cli": how the write came in. */
    actor: text("actor").notNull(),
    action: text("action").notNull(),
    target: text("target").notNull().default(""),
    detail: jsonb("detail"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("audit_log_created_idx").on(t.createdAt)],
);

/** Outgoing e-mail. In the embedded default this is where mail goes (the admin reads it). */
export const outbox = pgTable(
  "outbox",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    html: text("html"),
    /** Extra headers to deliver with the mail (List-Unsubscribe on reminders). */
    headers: jsonb("headers").$type<Record<string, string>>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    error: text("error"),
  },
  (t) => [index("outbox_created_idx").on(t.createdAt)],
);

/** Partner sites allowed to embed the widgets. */
export const partners = pgTable("partners", {
  id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
  name: text("name").notNull(),
  publishableKey: text("publishable_key").notNull().unique(),
  origins: text("origins").array().notNull().default([]),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  /**
   * Set while an admin has switched the partner off: it keeps its key and history, but no origin
   * of it gets CORS or may frame the iframe (docs/decisions/0063).
   */
  disabledAt: timestamp("disabled_at", { withTimezone: true }),
});

/**
 * Admin API tokens: what a timing system sends to push results (`Authorization: Bearer ...`).
 * Named by an admin (`game-admin tokens create --name <n>`), shown once, stored as SHA-256;
 * revoked tokens keep their row so the audit log's actor stays explained (docs/decisions/0171).
 */
export const adminTokens = pgTable("admin_tokens", {
  id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
  name: text("name").notNull().unique(),
  /** SHA-256 of the token: a leaked table gives no usable token. */
  tokenHash: text("token_hash").notNull().unique(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  createdBy: text("created_by").notNull(),
  lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
  revokedAt: timestamp("revoked_at", { withTimezone: true }),
});
