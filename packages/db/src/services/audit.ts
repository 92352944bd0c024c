/**
 * The audit log: every admin write, and a player's action on another player (a league owner
 * removing a member), records who did it, what, and when. Writes call `recordAudit` inside their
 * own transaction, so a change and its record commit (or fail) together.
 */
import { count, desc, eq } from "drizzle-orm";
import type { DbOrTx } from "../client.js";
import { auditLog } from "../schema/index.js";

export type AuditRow = typeof auditLog.$inferSelect;

/** Every action the log records (the dashboard filters by these). */
export const AUDIT_ACTIONS = [
  "racers.import",
  "racer.set",
  "racer.withdraw",
  "racer.reinstate",
  "racer.portrait",
  "results.import",
  "results.finalize",
  "scores.settle",
  "season.advance",
  "reminders.send",
  "event.status",
  "event.schedule",
  "event.create",
  "competition.create",
  "competition.rules",
  "competition.archive",
  "racers.copy",
  "user.accept",
  "user.block",
  "user.grant-admin",
  "user.revoke-admin",
  "partner.add",
  "partner.rename",
  "partner.origins",
  "partner.disable",
  "partner.enable",
  "partner.delete",
  "league.remove-member",
  "db.seed",
  "token.create",
  "token.revoke",
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * Who is acting: the signed-in admin (or player) on the web, or the command line. Same shape as
 * the actor the scoring services take, so one value serves every admin write.
 */
export interface AdminActor {
  /** "web:alice@example.com", "cli:alice" (the OS user who ran the CLI) or "cli". */
  actor: string;
  /** The admin's user id (web), or null (CLI). */
  actorId: number | null;
}

/** The command line when it does not know who ran it. */
export const CLI_ACTOR: AdminActor = { actor: "cli", actorId: null };

/**
 * The command line run by `username` (the OS account: the CLI looks it up, this package never
 * does): "cli:alice", or plain "cli" without a usable name.
 */
export function cliActor(username?: string | null): AdminActor {
  // Control characters would make the entry unsafe to print in a terminal.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
  const name = (username ?? "").replace(/[\u0000-\u001f\u007f-\u009f]/g, "").trim();
  return name ? { actor: `cli:${name}`, actorId: null } : CLI_ACTOR;
}

export function webActor(user: { id: number; email: string }): AdminActor {
  return { actor: `web:${user.email}`, actorId: user.id };
}

/**
 * An admin action the input does not allow: an unknown event or user, a bad value. The message is
 * meant for the admin (a form error, or the CLI's one-line reason).
 */
export class AdminActionError extends Error {
  constructor(
    message: string,
    readonly code: "not-found" | "invalid" = "invalid",
  ) {
    super(message);
    this.name = "AdminActionError";
  }
}

export async function recordAudit(
  db: DbOrTx,
  actor: AdminActor,
  action: AuditAction,
  target: string,
  detail?: Record<string, unknown>,
): Promise<void> {
  await db.insert(auditLog).values({
    actorId: actor.actorId,
    actor: actor.actor.slice(0, 300),
    action,
    target: target.slice(0, 300),
    detail: detail ?? null,
  });
}

/** Newest first, paged, with the total for the pager; optionally one action only. */
export async function listAudit(
  db: DbOrTx,
  opts: { limit?: number; offset?: number; action?: string } = {},
): Promise<{ rows: AuditRow[]; total: number }> {
  const limit = Math.min(Math.max(Math.trunc(opts.limit ?? 50), 1), 200);
  const offset = Math.max(Math.trunc(opts.offset ?? 0), 0);
  const where = opts.action ? eq(auditLog.action, opts.action) : undefined;
  const [rows, [totals]] = await Promise.all([
    db
      .select()
      .from(auditLog)
      .where(where)
      .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
      .limit(limit)
      .offset(offset),
    db.select({ total: count() }).from(auditLog).where(where),
  ]);
  return { rows, total: totals?.total ?? 0 };
}
