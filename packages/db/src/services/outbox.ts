/**
 * The outbox: every e-mail the game sends is recorded here first, then marked sent or failed, so
 * admins can see what went out. Without SMTP it is the only destination (the admin reads it).
 */
import { count, desc, eq } from "drizzle-orm";
import type { DbOrTx } from "../client.js";
import { outbox } from "../schema/index.js";

export type OutboxRow = typeof outbox.$inferSelect;

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string | null;
}

/** What the admin sees for a mail: delivered, failed, or kept in the outbox only. */
export type OutboxStatus = "sent" | "failed" | "stored";

export function outboxStatus(row: Pick<OutboxRow, "sentAt" | "error">): OutboxStatus {
  if (row.sentAt) return "sent";
  if (row.error) return "failed";
  return "stored";
}

export async function recordMail(db: DbOrTx, mail: OutgoingMail, now = new Date()) {
  const [row] = await db
    .insert(outbox)
    .values({
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html ?? null,
      createdAt: now,
    })
    .returning();
  return row!;
}

export async function markMailSent(db: DbOrTx, id: number, at = new Date()): Promise<void> {
  await db.update(outbox).set({ sentAt: at, error: null }).where(eq(outbox.id, id));
}

/** Keeps the first line of the error, capped: enough for an admin, no stack traces. */
export async function markMailFailed(db: DbOrTx, id: number, error: string): Promise<void> {
  const message = (error.split("\n")[0] ?? "").slice(0, 500) || "delivery failed";
  await db.update(outbox).set({ error: message }).where(eq(outbox.id, id));
}

/**
 * Replaces a secret (a reset token) in a stored mail once it has been delivered, so the outbox
 * does not keep a live credential in plain text.
 */
export async function redactOutboxMail(
  db: DbOrTx,
  id: number,
  secret: string,
  replacement = "[removed after delivery]",
): Promise<void> {
  if (!secret) return;
  const row = await getOutboxMail(db, id);
  if (!row) return;
  await db
    .update(outbox)
    .set({
      text: row.text.replaceAll(secret, replacement),
      html: row.html?.replaceAll(secret, replacement) ?? null,
    })
    .where(eq(outbox.id, id));
}

/** Newest first, paged, with the total for the pager. */
export async function listOutbox(
  db: DbOrTx,
  opts: { limit?: number; offset?: number } = {},
): Promise<{ rows: OutboxRow[]; total: number }> {
  const limit = Math.min(Math.max(Math.trunc(opts.limit ?? 50), 1), 200);
  const offset = Math.max(Math.trunc(opts.offset ?? 0), 0);
  const [rows, [totals]] = await Promise.all([
    db
      .select()
      .from(outbox)
      .orderBy(desc(outbox.createdAt), desc(outbox.id))
      .limit(limit)
      .offset(offset),
    db.select({ total: count() }).from(outbox),
  ]);
  return { rows, total: totals?.total ?? 0 };
}

export async function getOutboxMail(db: DbOrTx, id: number): Promise<OutboxRow | undefined> {
  if (!Number.isSafeInteger(id) || id <= 0 || id > 2_147_483_647) return undefined;
  const [row] = await db.select().from(outbox).where(eq(outbox.id, id));
  return row;
}
