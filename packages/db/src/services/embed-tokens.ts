/**
 * Credentials for players signed in inside a partner's iframe. Browsers block (or partition)
 * cookies in third-party iframes, so the iframe cannot use the site's session cookie:
 *  1. the sign-in popup (first party, where the session cookie works) mints a `handoff` token,
 *     valid for minutes and usable once, and posts it to the iframe;
 *  2. the iframe exchanges it for a `session` token it keeps in memory only and sends with its
 *     own POSTs. Both are bound to the partner they were issued for.
 * Only SHA-256 hashes are stored.
 */
import { randomBytes } from "node:crypto";
import { and, eq, gt, isNull, lte } from "drizzle-orm";
import type { DbOrTx } from "../client.js";
import { embedTokens, users } from "../schema/index.js";
import { hashToken } from "./sessions.js";

export const EMBED_HANDOFF_TTL_MS = 5 * 60 * 1000;
export const EMBED_SESSION_TTL_MS = 2 * 60 * 60 * 1000;

export interface EmbedPlayer {
  id: number;
  username: string;
}

function newToken(): string {
  return randomBytes(32).toString("base64url");
}

/** Mints the single-use token the popup hands to the iframe. */
export async function createEmbedHandoff(
  db: DbOrTx,
  input: { accountId: number; partnerId: number; origin: string; now?: Date },
): Promise<{ token: string; expiresAt: Date }> {
  const now = input.now ?? new Date();
  const token = newToken();
  const expiresAt = new Date(now.getTime() + EMBED_HANDOFF_TTL_MS);
  await db.insert(embedTokens).values({
    id: hashToken(token),
    kind: "handoff",
    accountId: input.accountId,
    partnerId: input.partnerId,
    origin: input.origin,
    createdAt: now,
    expiresAt,
  });
  return { token, expiresAt };
}

/**
 * Exchanges a handoff token for an iframe session. The handoff is burnt by the same UPDATE that
 * checks it, so of two concurrent exchanges exactly one wins. Null when the token is unknown,
 * used, expired, issued for another partner, or its player is missing or blocked.
 */
export async function exchangeEmbedHandoff(
  db: DbOrTx,
  input: { token: string; partnerId: number; now?: Date },
): Promise<{ token: string; expiresAt: Date; player: EmbedPlayer; origin: string } | null> {
  if (!input.token || input.token.length > 200) return null;
  const now = input.now ?? new Date();
  return db.transaction(async (tx) => {
    const [used] = await tx
      .update(embedTokens)
      .set({ usedAt: now })
      .where(
        and(
          eq(embedTokens.id, hashToken(input.token)),
          eq(embedTokens.kind, "handoff"),
          eq(embedTokens.partnerId, input.partnerId),
          isNull(embedTokens.usedAt),
          gt(embedTokens.expiresAt, now),
        ),
      )
      .returning({ accountId: embedTokens.accountId, origin: embedTokens.origin });
    if (!used) return null;
    const player = await activePlayer(tx, used.accountId);
    if (!player) return null;
    const token = newToken();
    const expiresAt = new Date(now.getTime() + EMBED_SESSION_TTL_MS);
    await tx.insert(embedTokens).values({
      id: hashToken(token),
      kind: "session",
      accountId: used.accountId,
      partnerId: input.partnerId,
      origin: used.origin,
      createdAt: now,
      expiresAt,
    });
    return { token, expiresAt, player, origin: used.origin };
  });
}

/** The player behind a live iframe session of this partner, or null. */
export async function getEmbedSession(
  db: DbOrTx,
  input: { token: string; partnerId: number; now?: Date },
): Promise<{ player: EmbedPlayer; origin: string; expiresAt: Date } | null> {
  if (!input.token || input.token.length > 200) return null;
  const now = input.now ?? new Date();
  const [row] = await db
    .select({
      id: users.id,
      username: users.username,
      accepted: users.accepted,
      origin: embedTokens.origin,
      expiresAt: embedTokens.expiresAt,
    })
    .from(embedTokens)
    .innerJoin(users, eq(users.id, embedTokens.accountId))
    .where(
      and(
        eq(embedTokens.id, hashToken(input.token)),
        eq(embedTokens.kind, "session"),
        eq(embedTokens.partnerId, input.partnerId),
        gt(embedTokens.expiresAt, now),
      ),
    );
  // A blocked player is signed out everywhere, iframes included.
  if (!row?.accepted) return null;
  return {
    player: { id: row.id, username: row.username },
    origin: row.origin,
    expiresAt: row.expiresAt,
  };
}

/** Ends an iframe session (the iframe's "Sign out"). */
export async function deleteEmbedSession(db: DbOrTx, token: string): Promise<void> {
  await db
    .delete(embedTokens)
    .where(and(eq(embedTokens.id, hashToken(token)), eq(embedTokens.kind, "session")));
}

/** Drops expired tokens (and spent handoffs, once expired). */
export async function purgeExpiredEmbedTokens(db: DbOrTx, now = new Date()): Promise<number> {
  const gone = await db
    .delete(embedTokens)
    .where(lte(embedTokens.expiresAt, now))
    .returning({ id: embedTokens.id });
  return gone.length;
}

async function activePlayer(db: DbOrTx, accountId: number): Promise<EmbedPlayer | null> {
  const [row] = await db
    .select({ id: users.id, username: users.username, accepted: users.accepted })
    .from(users)
    .where(eq(users.id, accountId));
  return row?.accepted ? { id: row.id, username: row.username } : null;
}
