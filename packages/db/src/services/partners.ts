/**
 * Partner sites that embed the widgets: a name, the web origins allowed to embed, and a generated
 * publishable key (public by design: it identifies the partner, the origins authorise it).
 */
import { randomBytes } from "node:crypto";
import { asc } from "drizzle-orm";
import type { DbOrTx } from "../client.js";
import { partners } from "../schema/index.js";
import { AdminActionError, type AdminActor, recordAudit } from "./audit.js";

export type PartnerListRow = typeof partners.$inferSelect;

export const PARTNER_NAME_MAX = 80;
export const PARTNER_ORIGINS_MAX = 20;

export interface PartnerInput {
  name: string;
  origins: string[];
}

export type PartnerInputResult =
  | { ok: true; value: PartnerInput }
  | { ok: false; errors: { name?: string; origins?: string } };

/**
 * An origin exactly as browsers send it (`https://news.example`, `http://localhost:8080`), from
 * what an admin typed; null when it is not one (a path, a query, another scheme).
 */
export function parseOrigin(value: string): string | null {
  const text = value.trim();
  if (!text || text.length > 300) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  if (url.username || url.password || url.search || url.hash) return null;
  if (url.pathname !== "/" && url.pathname !== "") return null;
  return url.origin;
}

/** Checks a partner form (the dashboard's and the CLI's): one rule set for both. */
export function parsePartnerInput(input: {
  name?: unknown;
  origins?: unknown;
}): PartnerInputResult {
  const errors: { name?: string; origins?: string } = {};
  const name = typeof input.name === "string" ? input.name.trim() : "";
  if (!name) errors.name = "Give the partner a name.";
  else if (name.length > PARTNER_NAME_MAX) {
    errors.name = `Partner names have at most ${PARTNER_NAME_MAX} characters.`;
  }
  const raw = (Array.isArray(input.origins) ? input.origins : [input.origins])
    .flatMap((o) => (typeof o === "string" ? o.split(/[\s,]+/) : []))
    .filter((o) => o.trim() !== "");
  const origins: string[] = [];
  for (const text of raw) {
    const origin = parseOrigin(text);
    if (!origin) {
      errors.origins = `"${text.slice(0, 80)}" is not a web origin (like https://news.example).`;
      break;
    }
    if (!origins.includes(origin)) origins.push(origin);
  }
  if (!errors.origins && origins.length === 0) errors.origins = "Add at least one origin.";
  if (origins.length > PARTNER_ORIGINS_MAX) {
    errors.origins = `At most ${PARTNER_ORIGINS_MAX} origins per partner.`;
  }
  if (errors.name || errors.origins) return { ok: false, errors };
  return { ok: true, value: { name, origins } };
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
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(partners)
      .values({ ...parsed.value, publishableKey: newPublishableKey() })
      .returning();
    await recordAudit(tx, actor, "partner.add", `partner:${row!.id}`, {
      name: row!.name,
      origins: row!.origins,
    });
    return row!;
  });
}

export function listPartners(db: DbOrTx): Promise<PartnerListRow[]> {
  return db.select().from(partners).orderBy(asc(partners.name), asc(partners.id));
}
