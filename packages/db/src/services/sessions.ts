import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, lte } from "drizzle-orm";
import type { DbOrTx } from "../client.js";
import { accounts, sessions, users } from "../schema/index.js";
import type { AccountRow, UserRow } from "./users.js";

export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/** Only the hash is stored: a leaked sessions table gives no usable cookie. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Starts a session; returns the token for the cookie. */
export async function createSession(
  db: DbOrTx,
  accountId: number,
  opts: { now?: Date; userAgent?: string | null } = {},
): Promise<{ token: string; expiresAt: Date }> {
  const now = opts.now ?? new Date();
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  await db.insert(sessions).values({
    id: hashToken(token),
    accountId,
    createdAt: now,
    expiresAt,
    userAgent: opts.userAgent?.slice(0, 300) ?? null,
  });
  return { token, expiresAt };
}

export interface SessionLookup {
  account: AccountRow;
  /** The player profile; null when the account has none (spec: "No user profile found"). */
  user: UserRow | null;
  expiresAt: Date;
}

/** The account and profile behind a live session token, or null. */
export async function getSession(
  db: DbOrTx,
  token: string,
  now = new Date(),
): Promise<SessionLookup | null> {
  if (!token) return null;
  const [row] = await db
    .select({ account: accounts, user: users, expiresAt: sessions.expiresAt })
    .from(sessions)
    .innerJoin(accounts, eq(accounts.id, sessions.accountId))
    .leftJoin(users, eq(users.id, sessions.accountId))
    .where(and(eq(sessions.id, hashToken(token)), gt(sessions.expiresAt, now)));
  return row ?? null;
}

/**
 * Starts a fresh session at login and ends the one the browser carried before, if any, in one
 * transaction: a token planted before login (session fixation) never becomes a signed-in one.
 */
export async function rotateSession(
  db: DbOrTx,
  accountId: number,
  opts: { previousToken?: string | null; now?: Date; userAgent?: string | null } = {},
): Promise<{ token: string; expiresAt: Date }> {
  return db.transaction(async (tx) => {
    if (opts.previousToken) await deleteSession(tx, opts.previousToken);
    return createSession(tx, accountId, opts);
  });
}

export async function deleteSession(db: DbOrTx, token: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, hashToken(token)));
}

/** Ends every session of an account (blocking a user, changing a password). */
export async function deleteAccountSessions(db: DbOrTx, accountId: number): Promise<void> {
  await db.delete(sessions).where(eq(sessions.accountId, accountId));
}

export async function purgeExpiredSessions(db: DbOrTx, now = new Date()): Promise<number> {
  const deleted = await db
    .delete(sessions)
    .where(lte(sessions.expiresAt, now))
    .returning({ id: sessions.id });
  return deleted.length;
}
