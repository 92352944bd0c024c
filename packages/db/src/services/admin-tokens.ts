/**
 * Admin API tokens (decision 0171): a timing system pushes results with one. An admin names a
 * token when creating it; the token itself is shown once and only its SHA-256 is stored. A revoked
 * token keeps its row (the audit log names it) and never works again.
 */
import { randomBytes } from "node:crypto";
import { and, asc, eq, isNull } from "drizzle-orm";
import type { DbOrTx } from "../client.js";
import { adminTokens } from "../schema/index.js";
import { type AdminActor, recordAudit } from "./audit.js";
import { hashToken } from "./sessions.js";

/** Tokens start with this, so a leaked one is recognisable (secret scanners, logs). */
export const ADMIN_TOKEN_PREFIX = "gfa_";

/** A token name: what the audit log and `tokens list` show. */
export const ADMIN_TOKEN_NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;

export class AdminTokenError extends Error {}

export interface AdminTokenRow {
  name: string;
  createdAt: Date;
  createdBy: string;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/** Creates a token named `name` (unique, even among revoked ones) and answers it, once. */
export async function createAdminToken(
  db: DbOrTx,
  input: { name: string; audit: AdminActor; now?: Date },
): Promise<{ name: string; token: string }> {
  const name = input.name.trim().toLowerCase();
  if (!ADMIN_TOKEN_NAME.test(name)) {
    throw new AdminTokenError(
      "A token name is 1-64 letters, digits, dots, dashes or underscores, starting with a letter or digit.",
    );
  }
  const token = `${ADMIN_TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
  const created = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(adminTokens)
      .values({
        name,
        tokenHash: hashToken(token),
        createdBy: input.audit.actor,
        createdAt: input.now ?? new Date(),
      })
      .onConflictDoNothing({ target: adminTokens.name })
      .returning({ name: adminTokens.name });
    if (row) await recordAudit(tx, input.audit, "token.create", `token:${name}`, {});
    return row !== undefined;
  });
  if (!created) throw new AdminTokenError(`There is already a token named ${name}.`);
  return { name, token };
}

/** Revokes the token named `name`. False when there is none, or it was revoked already. */
export function revokeAdminToken(
  db: DbOrTx,
  input: { name: string; audit: AdminActor; now?: Date },
): Promise<boolean> {
  const name = input.name.trim().toLowerCase();
  return db.transaction(async (tx) => {
    const rows = await tx
      .update(adminTokens)
      .set({ revokedAt: input.now ?? new Date() })
      .where(and(eq(adminTokens.name, name), isNull(adminTokens.revokedAt)))
      .returning({ name: adminTokens.name });
    if (rows.length > 0) await recordAudit(tx, input.audit, "token.revoke", `token:${name}`, {});
    return rows.length > 0;
  });
}

export function listAdminTokens(db: DbOrTx): Promise<AdminTokenRow[]> {
  return db
    .select({
      name: adminTokens.name,
      createdAt: adminTokens.createdAt,
      createdBy: adminTokens.createdBy,
      lastUsedAt: adminTokens.lastUsedAt,
      revokedAt: adminTokens.revokedAt,
    })
    .from(adminTokens)
    .orderBy(asc(adminTokens.name));
}

/**
 * The name of the live token `token` is, or null (unknown, revoked, malformed). Marks it used
 * at most once a minute, so a timing system pushing every few seconds does not write each time.
 */
export async function verifyAdminToken(
  db: DbOrTx,
  token: string,
  now = new Date(),
): Promise<string | null> {
  if (!token.startsWith(ADMIN_TOKEN_PREFIX) || token.length > 200) return null;
  const [row] = await db
    .select({ id: adminTokens.id, name: adminTokens.name, lastUsedAt: adminTokens.lastUsedAt })
    .from(adminTokens)
    .where(and(eq(adminTokens.tokenHash, hashToken(token)), isNull(adminTokens.revokedAt)));
  if (!row) return null;
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > 60_000) {
    await db.update(adminTokens).set({ lastUsedAt: now }).where(eq(adminTokens.id, row.id));
  }
  return row.name;
}
