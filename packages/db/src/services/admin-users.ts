/** Admin views and writes on players: list and search, accept, block, grant admin. Audited. */
import { normalizeEmail } from "@game/core";
import { asc, count, eq, ilike, or, type SQL, sql } from "drizzle-orm";
import type { DbOrTx } from "../client.js";
import { seasonStandings, users } from "../schema/index.js";
import { AdminActionError, type AdminActor, recordAudit } from "./audit.js";
import { RANKED_COMPETITION_SQL } from "./competitions.js";
import { deleteAccountSessions } from "./sessions.js";
import type { UserRow } from "./users.js";

export type AdminUserRow = Pick<
  UserRow,
  "id" | "email" | "username" | "role" | "accepted" | "createdAt"
> & {
  /** Points in the competition the rankings show (0 when not ranked there). */
  points: number;
};

/** A user named by id (the dashboard's buttons) or by e-mail (the CLI). */
export type UserRef = { id: number } | { email: string };

const columns = {
  id: users.id,
  email: users.email,
  username: users.username,
  role: users.role,
  accepted: users.accepted,
  points: sql<number>`coalesce((
    select ${seasonStandings.points} from ${seasonStandings}
    where ${seasonStandings.competitionId} = ${RANKED_COMPETITION_SQL}
      and ${seasonStandings.userId} = ${users.id}), 0)::int`,
  createdAt: users.createdAt,
};

/** Escapes LIKE wildcards so a search for "a_b" means that text. */
function likeText(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Users by sign-up order, optionally those whose e-mail or username contains `q`. */
export async function listUsersForAdmin(
  db: DbOrTx,
  opts: { q?: string; limit?: number; offset?: number } = {},
): Promise<{ rows: AdminUserRow[]; total: number }> {
  const limit = Math.min(Math.max(Math.trunc(opts.limit ?? 50), 1), 10_000);
  const offset = Math.max(Math.trunc(opts.offset ?? 0), 0);
  const q = opts.q?.trim().slice(0, 100);
  const where: SQL | undefined = q
    ? or(ilike(users.email, likeText(q)), ilike(users.username, likeText(q)))
    : undefined;
  const [rows, [totals]] = await Promise.all([
    db.select(columns).from(users).where(where).orderBy(asc(users.id)).limit(limit).offset(offset),
    db.select({ total: count() }).from(users).where(where),
  ]);
  return { rows, total: totals?.total ?? 0 };
}

async function lockUser(tx: DbOrTx, ref: UserRef): Promise<UserRow> {
  let where: SQL;
  let label: string;
  if ("id" in ref) {
    if (!Number.isSafeInteger(ref.id) || ref.id <= 0 || ref.id > 2_147_483_647) {
      throw new AdminActionError(`No user with id ${ref.id}.`, "not-found");
    }
    where = eq(users.id, ref.id);
    label = `id ${ref.id}`;
  } else {
    where = eq(users.email, normalizeEmail(ref.email));
    label = `e-mail ${normalizeEmail(ref.email)}`;
  }
  const [row] = await tx.select().from(users).where(where).for("update");
  if (!row) throw new AdminActionError(`No user with ${label}.`, "not-found");
  return row;
}

export interface UserChange {
  user: AdminUserRow;
  /** False when the user already was in that state (nothing written, nothing audited). */
  changed: boolean;
}

async function view(tx: DbOrTx, u: UserRow): Promise<AdminUserRow> {
  const [row] = await tx.select(columns).from(users).where(eq(users.id, u.id));
  const { id, email, username, role, accepted, createdAt } = u;
  return { id, email, username, role, accepted, createdAt, points: row?.points ?? 0 };
}

/** Makes a user an admin (how the first admin is made: `game-admin users grant-admin`). */
export function grantAdmin(db: DbOrTx, ref: UserRef, actor: AdminActor): Promise<UserChange> {
  return db.transaction(async (tx) => {
    const before = await lockUser(tx, ref);
    if (before.role === "admin") return { user: await view(tx, before), changed: false };
    const [after] = await tx
      .update(users)
      .set({ role: "admin" })
      .where(eq(users.id, before.id))
      .returning();
    await recordAudit(tx, actor, "user.grant-admin", `user:${before.id}`, { email: before.email });
    return { user: await view(tx, after!), changed: true };
  });
}

/**
 * Makes an admin a player again. The last admin cannot be removed (nobody could sign in to the
 * dashboard any more); an admin on the dashboard cannot demote themselves (ask another admin).
 */
export function revokeAdmin(db: DbOrTx, ref: UserRef, actor: AdminActor): Promise<UserChange> {
  return db.transaction(async (tx) => {
    const before = await lockUser(tx, ref);
    if (before.role !== "admin") return { user: await view(tx, before), changed: false };
    if (actor.actorId !== null && actor.actorId === before.id) {
      throw new AdminActionError("You cannot remove your own admin rights: ask another admin.");
    }
    // Locks every admin row: two revocations at once cannot both pass this check.
    const admins = await tx
      .select({ id: users.id })
      .from(users)
      .where(eq(users.role, "admin"))
      .for("update");
    if (admins.length <= 1) {
      throw new AdminActionError(
        `${before.email} is the last admin and cannot be removed: grant another admin first.`,
      );
    }
    const [after] = await tx
      .update(users)
      .set({ role: "player" })
      .where(eq(users.id, before.id))
      .returning();
    await recordAudit(tx, actor, "user.revoke-admin", `user:${before.id}`, { email: before.email });
    return { user: await view(tx, after!), changed: true };
  });
}

/**
 * Blocks a user: they can no longer log in, and every session they have ends now (the next
 * request they make is a visitor's). An admin cannot block themselves from the dashboard.
 */
export function blockUser(db: DbOrTx, ref: UserRef, actor: AdminActor): Promise<UserChange> {
  return db.transaction(async (tx) => {
    const before = await lockUser(tx, ref);
    if (actor.actorId !== null && actor.actorId === before.id) {
      throw new AdminActionError("You cannot block yourself.");
    }
    // Sessions end even when the flag was already off: blocking is also "sign them out".
    await deleteAccountSessions(tx, before.id);
    if (!before.accepted) return { user: await view(tx, before), changed: false };
    const [after] = await tx
      .update(users)
      .set({ accepted: false })
      .where(eq(users.id, before.id))
      .returning();
    await recordAudit(tx, actor, "user.block", `user:${before.id}`, { email: before.email });
    return { user: await view(tx, after!), changed: true };
  });
}

/** Accepts a user (again): they can log in. */
export function acceptUser(db: DbOrTx, ref: UserRef, actor: AdminActor): Promise<UserChange> {
  return db.transaction(async (tx) => {
    const before = await lockUser(tx, ref);
    if (before.accepted) return { user: await view(tx, before), changed: false };
    const [after] = await tx
      .update(users)
      .set({ accepted: true })
      .where(eq(users.id, before.id))
      .returning();
    await recordAudit(tx, actor, "user.accept", `user:${before.id}`, { email: before.email });
    return { user: await view(tx, after!), changed: true };
  });
}
