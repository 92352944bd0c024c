/**
 * Password reset by e-mail and password change. A reset token lives one hour, works once, and
 * only its SHA-256 is stored (a leaked table gives no usable link). A new password ends the
 * account's other sessions, partner-iframe tokens and outstanding reset links.
 */
import { randomBytes } from "node:crypto";
import { and, eq, gt, isNull, lte, ne, or } from "drizzle-orm";
import type { DbOrTx } from "../client.js";
import { accounts, passwordResetTokens } from "../schema/index.js";
import { endAccountSessions, hashToken } from "./sessions.js";

export const PASSWORD_RESET_TTL_MS = 60 * 60 * 1000;

/** Tokens are 43 base64url characters; anything far longer is not one of ours. */
const MAX_TOKEN_LENGTH = 200;

/** Issues a reset token for the account; returns the token for the e-mailed link. */
export async function createPasswordReset(
  db: DbOrTx,
  accountId: number,
  opts: { now?: Date } = {},
): Promise<{ token: string; expiresAt: Date }> {
  const now = opts.now ?? new Date();
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + PASSWORD_RESET_TTL_MS);
  await db.insert(passwordResetTokens).values({
    id: hashToken(token),
    accountId,
    createdAt: now,
    expiresAt,
  });
  return { token, expiresAt };
}

const liveToken = (token: string, now: Date) =>
  and(
    eq(passwordResetTokens.id, hashToken(token)),
    isNull(passwordResetTokens.usedAt),
    gt(passwordResetTokens.expiresAt, now),
  );

/** The account a reset token is for, while it is unused and unexpired; null otherwise. */
export async function findPasswordReset(
  db: DbOrTx,
  token: string,
  now = new Date(),
): Promise<{ accountId: number; email: string } | null> {
  if (!token || token.length > MAX_TOKEN_LENGTH) return null;
  const [row] = await db
    .select({ accountId: accounts.id, email: accounts.email })
    .from(passwordResetTokens)
    .innerJoin(accounts, eq(accounts.id, passwordResetTokens.accountId))
    .where(liveToken(token, now));
  return row ?? null;
}

/**
 * Sets a new password with a reset token, in one transaction: the token is burnt by the same
 * UPDATE that checks it (of two concurrent uses exactly one wins), the hash replaced, and every
 * session, iframe token and other reset link of the account ended. Null when the token is
 * unknown, used or expired.
 */
export async function resetPassword(
  db: DbOrTx,
  token: string,
  passwordHash: string,
  opts: { now?: Date } = {},
): Promise<{ accountId: number } | null> {
  if (!token || token.length > MAX_TOKEN_LENGTH) return null;
  const now = opts.now ?? new Date();
  return db.transaction(async (tx) => {
    const [used] = await tx
      .update(passwordResetTokens)
      .set({ usedAt: now })
      .where(liveToken(token, now))
      .returning({ accountId: passwordResetTokens.accountId });
    if (!used) return null;
    await tx.update(accounts).set({ passwordHash }).where(eq(accounts.id, used.accountId));
    await tx
      .delete(passwordResetTokens)
      .where(
        and(
          eq(passwordResetTokens.accountId, used.accountId),
          ne(passwordResetTokens.id, hashToken(token)),
        ),
      );
    await endAccountSessions(tx, used.accountId);
    return { accountId: used.accountId };
  });
}

/**
 * A signed-in player's new password: replaces the hash and ends every other session, iframe
 * token and reset link; the session `keepToken` (the browser that asked) stays signed in.
 */
export async function changePassword(
  db: DbOrTx,
  accountId: number,
  passwordHash: string,
  opts: { keepToken?: string | null } = {},
): Promise<{ endedSessions: number }> {
  return db.transaction(async (tx) => {
    await tx.update(accounts).set({ passwordHash }).where(eq(accounts.id, accountId));
    await tx.delete(passwordResetTokens).where(eq(passwordResetTokens.accountId, accountId));
    const endedSessions = await endAccountSessions(tx, accountId, { keepToken: opts.keepToken });
    return { endedSessions };
  });
}

/** Drops reset tokens that are expired or used (used ones are kept only until then). */
export async function purgeExpiredPasswordResets(db: DbOrTx, now = new Date()): Promise<number> {
  const deleted = await db
    .delete(passwordResetTokens)
    .where(or(lte(passwordResetTokens.expiresAt, now), lte(passwordResetTokens.usedAt, now)))
    .returning({ id: passwordResetTokens.id });
  return deleted.length;
}
