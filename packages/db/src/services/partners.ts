/**
 * Partner sites that embed the widgets: a name, the web origins allowed to embed, and a generated
 * publishable key (public by design: it identifies the partner, the origins authorise it).
 *
 * Admins add, rename, edit origins, disable/enable and delete partners (docs/decisions/0063).
 * CORS and the iframe's `frame-ancestors` read the table on every request (`isPartnerOrigin`,
 * `getPartnerByKey`), so each change applies to the next request.
 */
import { randomBytes } from "node:crypto";
import {
  originCountError,
  parseOrigin,
  parseOriginList,
  parsePartnerInput,
  parsePartnerName,
} from "@game/core";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "../client.js";
import { embedTokens, partners } from "../schema/index.js";
import { AdminActionError, type AdminActor, recordAudit } from "./audit.js";

export type PartnerListRow = typeof partners.$inferSelect;

/**
 * Refuses origins that another partner (enabled or disabled) already lists: an origin belongs to
 * one partner, so disabling it stops that origin everywhere (docs/decisions/0085). The database
 * enforces the same rule (trigger `partners_origin_owner`); this check names the owner first.
 */
async function checkOriginsFree(
  tx: DbOrTx,
  origins: readonly string[],
  exceptId?: number,
): Promise<void> {
  if (origins.length === 0) return;
  const others = await tx
    .select({ id: partners.id, name: partners.name, origins: partners.origins })
    .from(partners)
    .orderBy(asc(partners.id));
  for (const origin of origins) {
    const owner = others.find(
      (p) => p.id !== exceptId && p.origins.some((o) => (parseOrigin(o) ?? o) === origin),
    );
    if (owner) {
      throw new AdminActionError(
        `${origin} already belongs to ${owner.name} (partner ${owner.id}): an origin belongs to one partner.`,
      );
    }
  }
}

/** The trigger's refusal (a claim that raced past checkOriginsFree), in the service's words. */
function ownerConflict(error: unknown): AdminActionError | null {
  for (let e: unknown = error, depth = 0; e && typeof e === "object" && depth < 5; depth += 1) {
    const { code, constraint_name, constraint, message } = e as Record<string, unknown>;
    if (
      code === "23505" &&
      (constraint_name === "partners_origin_owner" || constraint === "partners_origin_owner") &&
      typeof message === "string"
    ) {
      return new AdminActionError(message.replace(/^The origin /, ""));
    }
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}

/** Runs a partner write, turning the database's origin-owner refusal into an admin error. */
async function claimingOrigins<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    throw ownerConflict(error) ?? error;
  }
}

export function newPublishableKey(): string {
  return `pk_${randomBytes(18).toString("base64url")}`;
}

export async function addPartner(
  db: DbOrTx,
  input: { name?: unknown; origins?: unknown },
  actor: AdminActor,
): Promise<PartnerListRow> {
  const parsed = parsePartnerInput(input);
  if (!parsed.ok) {
    throw new AdminActionError(parsed.errors.name ?? parsed.errors.origins ?? "Invalid partner.");
  }
  return claimingOrigins(() =>
    db.transaction(async (tx) => {
      // Two partners of one name cannot be told apart on the dashboard or in the audit log.
      const [same] = await tx
        .select({ id: partners.id, name: partners.name })
        .from(partners)
        .where(sql`lower(${partners.name}) = lower(${parsed.value.name})`);
      if (same) {
        throw new AdminActionError(
          `Partner ${same.id} is already named "${same.name}": choose another name, or edit that partner.`,
        );
      }
      await checkOriginsFree(tx, parsed.value.origins);
      const [row] = await tx
        .insert(partners)
        .values({ ...parsed.value, publishableKey: newPublishableKey() })
        .returning();
      await recordAudit(tx, actor, "partner.add", `partner:${row!.id}`, {
        name: row!.name,
        origins: row!.origins,
      });
      return row!;
    }),
  );
}

export function listPartners(db: DbOrTx): Promise<PartnerListRow[]> {
  return db.select().from(partners).orderBy(asc(partners.name), asc(partners.id));
}

/** One partner by id, or undefined. */
export async function getPartner(db: DbOrTx, id: number): Promise<PartnerListRow | undefined> {
  if (!Number.isSafeInteger(id) || id <= 0) return undefined;
  const [row] = await db.select().from(partners).where(eq(partners.id, id));
  return row;
}

/** What an admin write did: the partner as it is now, and whether anything changed. */
export interface PartnerChange {
  partner: PartnerListRow;
  changed: boolean;
}

/** The partner row, locked until the transaction ends (concurrent edits wait their turn). */
async function lockPartner(tx: DbOrTx, id: number): Promise<PartnerListRow> {
  const [row] =
    Number.isSafeInteger(id) && id > 0
      ? await tx.select().from(partners).where(eq(partners.id, id)).for("update")
      : [];
  if (!row) throw new AdminActionError(`No partner with id ${id}.`, "not-found");
  return row;
}

const target = (id: number) => `partner:${id}`;

/** Renames a partner (same rules as a new partner's name). */
export async function renamePartner(
  db: DbOrTx,
  id: number,
  name: unknown,
  actor: AdminActor,
): Promise<PartnerChange> {
  const parsed = parsePartnerName(name);
  if (!parsed.ok) throw new AdminActionError(parsed.error);
  return db.transaction(async (tx) => {
    const before = await lockPartner(tx, id);
    if (before.name === parsed.value) return { partner: before, changed: false };
    const [row] = await tx
      .update(partners)
      .set({ name: parsed.value })
      .where(eq(partners.id, id))
      .returning();
    await recordAudit(tx, actor, "partner.rename", target(id), {
      from: before.name,
      to: parsed.value,
    });
    return { partner: row!, changed: true };
  });
}

/**
 * How to change a partner's origins: `set` replaces the whole list; `add` and `remove` edit it
 * (both may be given). Values are read like the add form's (see `parseOriginList`).
 */
export type OriginChange = { set: unknown } | { add?: unknown; remove?: unknown };

export interface PartnerOriginsChange extends PartnerChange {
  added: string[];
  removed: string[];
}

function originList(value: unknown): string[] {
  const parsed = parseOriginList(value);
  if (!parsed.ok) throw new AdminActionError(parsed.error);
  return parsed.value;
}

/**
 * Changes the origins allowed to embed a partner's widgets. Origins are checked and normalised
 * as when the partner was added; at least one must remain (to stop every embed, disable the
 * partner). Removing an origin the partner does not list is an error, so a typo is not mistaken
 * for a revocation. Iframe sign-ins made on a removed origin end at once.
 */
export async function changePartnerOrigins(
  db: DbOrTx,
  id: number,
  change: OriginChange,
  actor: AdminActor,
): Promise<PartnerOriginsChange> {
  const set = "set" in change ? originList(change.set) : null;
  const add = "set" in change ? [] : originList(change.add);
  const remove = "set" in change ? [] : originList(change.remove);
  if (!set && add.length === 0 && remove.length === 0) {
    throw new AdminActionError("Give origins to add or remove.");
  }
  return claimingOrigins(() =>
    db.transaction(async (tx) => {
      const before = await lockPartner(tx, id);
      // Rows written before origins were normalised on the way in compare by their normal form.
      const current = [...new Set(before.origins.map((o) => parseOrigin(o) ?? o))];
      let next: string[];
      if (set) {
        next = set;
      } else {
        const missing = remove.filter((o) => !current.includes(o));
        if (missing.length > 0) {
          throw new AdminActionError(
            missing.length === 1
              ? `${missing[0]} is not an origin of ${before.name}.`
              : `${missing.join(", ")} are not origins of ${before.name}.`,
          );
        }
        next = [...current.filter((o) => !remove.includes(o)), ...add];
        next = [...new Set(next)];
      }
      const countError = originCountError(next);
      if (countError) {
        throw new AdminActionError(
          next.length === 0
            ? "A partner needs at least one origin: to stop every embed, disable the partner."
            : countError,
        );
      }
      const added = next.filter((o) => !current.includes(o));
      const removed = current.filter((o) => !next.includes(o));
      // The order means nothing: the same origins in another order are no change.
      if (added.length === 0 && removed.length === 0) {
        return { partner: before, changed: false, added, removed };
      }
      await checkOriginsFree(tx, added, id);
      const [row] = await tx
        .update(partners)
        .set({ origins: next })
        .where(eq(partners.id, id))
        .returning();
      if (removed.length > 0) {
        await tx
          .delete(embedTokens)
          .where(and(eq(embedTokens.partnerId, id), inArray(embedTokens.origin, removed)));
      }
      await recordAudit(tx, actor, "partner.origins", target(id), {
        added,
        removed,
        origins: next,
      });
      return { partner: row!, changed: true, added, removed };
    }),
  );
}

/**
 * Switches a partner off: it keeps its key, origins and history, but from the next request its
 * origins get no CORS, its iframe is refused (and unframable), and its readers' iframe sign-ins
 * end. `enablePartner` switches it back on with the same key, so its pages work again unchanged.
 */
export async function disablePartner(
  db: DbOrTx,
  id: number,
  actor: AdminActor,
  now: Date = new Date(),
): Promise<PartnerChange> {
  return db.transaction(async (tx) => {
    const before = await lockPartner(tx, id);
    if (before.disabledAt) return { partner: before, changed: false };
    const [row] = await tx
      .update(partners)
      .set({ disabledAt: now })
      .where(eq(partners.id, id))
      .returning();
    await tx.delete(embedTokens).where(eq(embedTokens.partnerId, id));
    await recordAudit(tx, actor, "partner.disable", target(id), { name: before.name });
    return { partner: row!, changed: true };
  });
}

export async function enablePartner(
  db: DbOrTx,
  id: number,
  actor: AdminActor,
): Promise<PartnerChange> {
  return db.transaction(async (tx) => {
    const before = await lockPartner(tx, id);
    if (!before.disabledAt) return { partner: before, changed: false };
    const [row] = await tx
      .update(partners)
      .set({ disabledAt: null })
      .where(eq(partners.id, id))
      .returning();
    await recordAudit(tx, actor, "partner.enable", target(id), { name: before.name });
    return { partner: row!, changed: true };
  });
}

/**
 * Deletes a partner for good: its key can never work again (its iframe sign-ins go with it).
 * Only a disabled partner can be deleted, so a live partner's pages never break in one step;
 * the audit log keeps its name, key and origins.
 */
export async function deletePartner(
  db: DbOrTx,
  id: number,
  actor: AdminActor,
): Promise<PartnerListRow> {
  return db.transaction(async (tx) => {
    const before = await lockPartner(tx, id);
    if (!before.disabledAt) {
      throw new AdminActionError(
        `Disable ${before.name} before deleting it (deleting cannot be undone).`,
      );
    }
    await tx.delete(partners).where(eq(partners.id, id));
    await recordAudit(tx, actor, "partner.delete", target(id), {
      name: before.name,
      publishableKey: before.publishableKey,
      origins: before.origins,
    });
    return before;
  });
}
