import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, lt, lte, ne, or, sql } from "drizzle-orm";
import type { DbOrTx } from "../client.js";
import { accounts, embedTokens, sessions, users } from "../schema/index.js";
import type { AccountRow, UserRow } from "./users.js";

const HOUR_MS = 60 * 60 * 1000;
/** Absolute lifetime: a session ends 30 days after sign-in, however active. */
export const SESSION_TTL_MS = 30 * 24 * HOUR_MS;
/** Idle lifetime: a session unused for 7 days ends. */
export const SESSION_IDLE_MS = 7 * 24 * HOUR_MS;
/** Last-seen is written at most this often per session: one small UPDATE an hour, not per request. */
export const SESSION_TOUCH_MS = HOUR_MS;

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
    lastSeenAt: now,
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

/**
 * The session lookup runs on every signed-in request: built once per database handle (a
 * prepared query: no SQL building or column walking per call), the values bound per call.
 */
const sessionLookups = new WeakMap<DbOrTx, ReturnType<typeof prepareSessionLookup>>();

function prepareSessionLookup(db: DbOrTx) {
  return db
    .select({
      account: accounts,
      user: users,
      expiresAt: sessions.expiresAt,
      lastSeenAt: sessions.lastSeenAt,
    })
    .from(sessions)
    .innerJoin(accounts, eq(accounts.id, sessions.accountId))
    .leftJoin(users, eq(users.id, sessions.accountId))
    .where(
      and(
        eq(sessions.id, sql.placeholder("id")),
        gt(sessions.expiresAt, sql.placeholder("now")),
        gt(sessions.lastSeenAt, sql.placeholder("idleSince")),
      ),
    )
    .prepare("gf_session_lookup");
}

/**
 * The account and profile behind a live session token, or null: a session is live until its
 * absolute expiry and while it has been used in the last 7 days. Using it moves last-seen forward,
 * written at most hourly.
 */
export async function getSession(
  db: DbOrTx,
  token: string,
  now = new Date(),
): Promise<SessionLookup | null> {
  if (!token) return null;
  const id = hashToken(token);
  const idleSince = new Date(now.getTime() - SESSION_IDLE_MS);
  let lookup = sessionLookups.get(db);
  if (!lookup) {
    lookup = prepareSessionLookup(db);
    sessionLookups.set(db, lookup);
  }
  // Placeholders skip the columns' encoders: the times go as ISO text, as the encoder would send.
  const [row] = await lookup.execute({
    id,
    now: now.toISOString(),
    idleSince: idleSince.toISOString(),
  });
  if (!row) return null;
  const staleBefore = new Date(now.getTime() - SESSION_TOUCH_MS);
  if (row.lastSeenAt < staleBefore) {
    // The condition repeats in SQL, so concurrent requests write it once.
    await db
      .update(sessions)
      .set({ lastSeenAt: now })
      .where(and(eq(sessions.id, id), lt(sessions.lastSeenAt, staleBefore)));
  }
  const { lastSeenAt: _, ...found } = row;
  return found;
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

/**
 * Signs an account out everywhere: its sessions and the tokens of partner iframes, except the
 * session `keepToken` (the browser that changed the password stays signed in). Returns how many
 * sessions ended.
 */
export async function endAccountSessions(
  db: DbOrTx,
  accountId: number,
  opts: { keepToken?: string | null } = {},
): Promise<number> {
  const mine = eq(sessions.accountId, accountId);
  const ended = await db
    .delete(sessions)
    .where(opts.keepToken ? and(mine, ne(sessions.id, hashToken(opts.keepToken))) : mine)
    .returning({ id: sessions.id });
  await db.delete(embedTokens).where(eq(embedTokens.accountId, accountId));
  return ended.length;
}

/** How many live sessions (signed-in browsers) an account has. */
export async function countAccountSessions(
  db: DbOrTx,
  accountId: number,
  now = new Date(),
): Promise<number> {
  const idleSince = new Date(now.getTime() - SESSION_IDLE_MS);
  const rows = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(
      and(
        eq(sessions.accountId, accountId),
        gt(sessions.expiresAt, now),
        gt(sessions.lastSeenAt, idleSince),
      ),
    );
  return rows.length;
}

/** Deletes sessions past their absolute expiry or idle for 7 days. */
export async function purgeExpiredSessions(db: DbOrTx, now = new Date()): Promise<number> {
  const idleSince = new Date(now.getTime() - SESSION_IDLE_MS);
  const deleted = await db
    .delete(sessions)
    .where(or(lte(sessions.expiresAt, now), lte(sessions.lastSeenAt, idleSince)))
    .returning({ id: sessions.id });
  return deleted.length;
}
