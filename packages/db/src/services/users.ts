import { isTimeZone, normalizeEmail, SIGNUP_CREDITS } from "@game/core";
import { and, eq, isNull, ne, or, sql } from "drizzle-orm";
import type { DbOrTx } from "../client.js";
import { accounts, type Role, sessions, users } from "../schema/index.js";

export type UserRow = typeof users.$inferSelect;
export type AccountRow = typeof accounts.$inferSelect;

export class DuplicateError extends Error {
  constructor(readonly field: "email" | "username") {
    super(`${field} already taken`);
  }
}

/**
 * The field of a unique-constraint violation (PostgreSQL code 23505), looking through the
 * wrappers the drivers and drizzle put around it; null for any other error.
 */
function duplicateField(error: unknown): DuplicateError["field"] | null {
  for (let e = error as Record<string, unknown> | undefined; e; e = e.cause as typeof e) {
    if (e.code === "23505") {
      const where = `${e.constraint_name ?? e.constraint ?? ""} ${e.detail ?? ""} ${e.message ?? ""}`;
      return /username/.test(where) ? "username" : "email";
    }
  }
  return null;
}

export interface NewAccount {
  email: string;
  username: string;
  passwordHash: string;
  role?: Role;
  /**
   * Whether the e-mail address is known to be the player's. A sign-up's is not until the link
   * mailed to it is used (docs/decisions/0151); only someone who already proved it (an admin
   * making an account for a known address) may say so.
   */
  emailConfirmed?: boolean;
}

/**
 * Creates the credentials and the player profile together (accepted, 100 credits), the e-mail
 * address unconfirmed unless `emailConfirmed` says otherwise.
 */
export async function createAccount(db: DbOrTx, input: NewAccount): Promise<UserRow> {
  try {
    return await insertAccount(db, input);
  } catch (error) {
    // Two sign-ups racing past the checks below: the unique indexes decide, same answer.
    const field = duplicateField(error);
    if (field) throw new DuplicateError(field);
    throw error;
  }
}

function insertAccount(db: DbOrTx, input: NewAccount): Promise<UserRow> {
  const email = normalizeEmail(input.email);
  const username = input.username.trim();
  return db.transaction(async (tx) => {
    const [byEmail] = await tx
      .select({ id: accounts.id })
      .from(accounts)
      .where(eq(accounts.email, email));
    if (byEmail) throw new DuplicateError("email");
    const [byName] = await tx
      .select({ id: users.id })
      .from(users)
      .where(eq(users.usernameKey, username.toLowerCase()));
    if (byName) throw new DuplicateError("username");
    const [account] = await tx
      .insert(accounts)
      .values({ email, passwordHash: input.passwordHash })
      .returning();
    const [user] = await tx
      .insert(users)
      .values({
        id: account!.id,
        email,
        username,
        usernameKey: username.toLowerCase(),
        role: input.role ?? "player",
        accepted: true,
        credits: SIGNUP_CREDITS,
        emailConfirmedAt: input.emailConfirmed ? sql`now()` : null,
      })
      .returning();
    return user!;
  });
}

export async function findAccountByEmail(
  db: DbOrTx,
  email: string,
): Promise<AccountRow | undefined> {
  const [row] = await db
    .select()
    .from(accounts)
    .where(eq(accounts.email, normalizeEmail(email)));
  return row;
}

export async function getUserById(db: DbOrTx, id: number): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row;
}

export async function getUserByEmail(db: DbOrTx, email: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(eq(users.email, normalizeEmail(email)));
  return row;
}

export async function getUserByUsername(
  db: DbOrTx,
  username: string,
): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(eq(users.usernameKey, username.trim().toLowerCase()));
  return row;
}

/** Accepts or blocks a player; blocking also ends their sessions at once. */
export async function setUserAccepted(
  db: DbOrTx,
  userId: number,
  accepted: boolean,
): Promise<UserRow | undefined> {
  return db.transaction(async (tx) => {
    const [row] = await tx.update(users).set({ accepted }).where(eq(users.id, userId)).returning();
    if (row && !accepted) await tx.delete(sessions).where(eq(sessions.accountId, userId));
    return row;
  });
}

/** Replaces the stored password hash (a stronger cost, or a new password). */
export async function updatePasswordHash(
  db: DbOrTx,
  accountId: number,
  passwordHash: string,
): Promise<void> {
  await db.update(accounts).set({ passwordHash }).where(eq(accounts.id, accountId));
}

/**
 * Remembers the player's time zone (an IANA name, as their browser says it) for the dates of
 * their e-mails. Writes only when it changed; an unknown zone is ignored. True when written.
 */
export async function setUserTimeZone(
  db: DbOrTx,
  userId: number,
  timeZone: string,
): Promise<boolean> {
  if (!isTimeZone(timeZone)) return false;
  const rows = await db
    .update(users)
    .set({ timeZone })
    .where(and(eq(users.id, userId), or(isNull(users.timeZone), ne(users.timeZone, timeZone))))
    .returning({ id: users.id });
  return rows.length > 0;
}
