/**
 * Confirming a player's e-mail address (docs/decisions/0151). Sign-up mails a link; until it is
 * used the account plays but cannot see or accept invitations, join a league by link or receive
 * reminders, so registering someone else's address gains nothing. A link lives two days, works
 * once, confirms only the address it was sent to, and only its SHA-256 is stored.
 */
import { randomBytes } from "node:crypto";
import { and, eq, gt, isNotNull, isNull, lte } from "drizzle-orm";
import type { DbOrTx } from "../client.js";
import { emailConfirmationTokens, users } from "../schema/index.js";
import { hashToken } from "./sessions.js";

export const EMAIL_CONFIRMATION_TTL_MS = 2 * 24 * 60 * 60 * 1000;

/** Tokens are 43 base64url characters; anything far longer is not one of ours. */
const MAX_TOKEN_LENGTH = 200;

/**
 * Issues a confirmation link's token for the player's current address; null when the address is
 * already confirmed (or the player is gone). Earlier links keep working until they expire.
 */
export async function createEmailConfirmation(
  db: DbOrTx,
  userId: number,
  opts: { now?: Date } = {},
): Promise<{ token: string; email: string; expiresAt: Date } | null> {
  const now = opts.now ?? new Date();
  const [user] = await db
    .select({ email: users.email })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.emailConfirmedAt)));
  if (!user) return null;
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + EMAIL_CONFIRMATION_TTL_MS);
  await db.insert(emailConfirmationTokens).values({
    id: hashToken(token),
    userId,
    email: user.email,
    createdAt: now,
    expiresAt,
  });
  return { token, email: user.email, expiresAt };
}

export interface EmailConfirmationLink {
  userId: number;
  email: string;
  username: string;
}

/**
 * Whom a link is for, while it is unexpired and the account still has the address it names;
 * null otherwise. Reading it uses nothing up: the confirmation is a separate POST, so a mail
 * scanner following the link confirms nothing.
 */
export async function findEmailConfirmation(
  db: DbOrTx,
  token: string,
  now = new Date(),
): Promise<EmailConfirmationLink | null> {
  if (!token || token.length > MAX_TOKEN_LENGTH) return null;
  const [row] = await db
    .select({ userId: users.id, email: users.email, username: users.username })
    .from(emailConfirmationTokens)
    .innerJoin(
      users,
      and(
        eq(users.id, emailConfirmationTokens.userId),
        eq(users.email, emailConfirmationTokens.email),
      ),
    )
    .where(
      and(
        eq(emailConfirmationTokens.id, hashToken(token)),
        gt(emailConfirmationTokens.expiresAt, now),
      ),
    );
  return row ?? null;
}

/**
 * Confirms the address with a link's token, in one transaction: the token is burnt by the same
 * DELETE that checks it (of two concurrent uses exactly one wins), the account's other links go
 * with it. Null when the token is unknown, used, expired or names an address the account no
 * longer has; `alreadyConfirmed` when the address was confirmed before (nothing changes).
 */
export async function confirmEmail(
  db: DbOrTx,
  token: string,
  opts: { now?: Date } = {},
): Promise<{ userId: number; email: string; alreadyConfirmed: boolean } | null> {
  if (!token || token.length > MAX_TOKEN_LENGTH) return null;
  const now = opts.now ?? new Date();
  return db.transaction(async (tx) => {
    const [used] = await tx
      .delete(emailConfirmationTokens)
      .where(
        and(
          eq(emailConfirmationTokens.id, hashToken(token)),
          gt(emailConfirmationTokens.expiresAt, now),
        ),
      )
      .returning({ userId: emailConfirmationTokens.userId, email: emailConfirmationTokens.email });
    if (!used) return null;
    const [user] = await tx
      .select({ email: users.email, confirmedAt: users.emailConfirmedAt })
      .from(users)
      .where(eq(users.id, used.userId))
      .for("update");
    if (!user || user.email !== used.email) return null;
    await tx.delete(emailConfirmationTokens).where(eq(emailConfirmationTokens.userId, used.userId));
    if (user.confirmedAt) return { userId: used.userId, email: user.email, alreadyConfirmed: true };
    await tx.update(users).set({ emailConfirmedAt: now }).where(eq(users.id, used.userId));
    return { userId: used.userId, email: user.email, alreadyConfirmed: false };
  });
}

/** Whether the player has confirmed their e-mail address. */
export async function isEmailConfirmed(db: DbOrTx, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), isNotNull(users.emailConfirmedAt)));
  return row !== undefined;
}

/** Drops expired confirmation links (used ones are deleted when used). */
export async function purgeExpiredEmailConfirmations(
  db: DbOrTx,
  now = new Date(),
): Promise<number> {
  const deleted = await db
    .delete(emailConfirmationTokens)
    .where(lte(emailConfirmationTokens.expiresAt, now))
    .returning({ id: emailConfirmationTokens.id });
  return deleted.length;
}
