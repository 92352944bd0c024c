/**
 * The partner rules: a partner's name and the list of origins allowed to embed its widgets. The
 * dashboard's form, the CLI and the db services all check through these (docs/decisions/0063,
 * 0085).
 */
import { z } from "zod";
import { parseOrigin } from "./origins.js";

export const PARTNER_NAME_MAX = 80;
export const PARTNER_ORIGINS_MAX = 20;
/** The longest origins text a form may post (far above 20 origins of 300 characters). */
export const PARTNER_ORIGINS_TEXT_MAX = 5000;

export const PARTNER_NAME_REQUIRED = "Give the partner a name.";
export const PARTNER_NAME_TOO_LONG = `Partner names have at most ${PARTNER_NAME_MAX} characters.`;
export const PARTNER_ORIGINS_REQUIRED = "Add at least one origin.";

/** A partner's name, trimmed. */
export const partnerNameSchema = z
  .string({ error: PARTNER_NAME_REQUIRED })
  .trim()
  .min(1, PARTNER_NAME_REQUIRED)
  .max(PARTNER_NAME_MAX, PARTNER_NAME_TOO_LONG);

/**
 * The add-partner form (dashboard): the name, and the origins as typed (one per line, or
 * separated by spaces or commas). The origins themselves are read by `parsePartnerInput`.
 */
export const partnerFormSchema = z.object({
  name: partnerNameSchema,
  origins: z
    .string({ error: PARTNER_ORIGINS_REQUIRED })
    .trim()
    .min(1, PARTNER_ORIGINS_REQUIRED)
    .max(PARTNER_ORIGINS_TEXT_MAX, "That is too many origins."),
});

export interface PartnerInput {
  name: string;
  origins: string[];
}

export type PartnerInputResult =
  | { ok: true; value: PartnerInput }
  | { ok: false; errors: { name?: string; origins?: string } };

/** A partner's name, trimmed, or the reason it is not one. */
export function parsePartnerName(
  value: unknown,
): { ok: true; value: string } | { ok: false; error: string } {
  const parsed = partnerNameSchema.safeParse(typeof value === "string" ? value : "");
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, error: parsed.error.issues[0]?.message ?? PARTNER_NAME_REQUIRED };
}

/**
 * Origins from what an admin typed (a string separated by spaces, commas or lines, or a list of
 * them), normalised and deduplicated in order; or the first one that is not an origin. An empty
 * list is allowed here: callers decide whether one is needed.
 */
export function parseOriginList(
  value: unknown,
): { ok: true; value: string[] } | { ok: false; error: string } {
  const raw = (Array.isArray(value) ? value : [value])
    .flatMap((o) => (typeof o === "string" ? o.split(/[\s,]+/) : []))
    .filter((o) => o.trim() !== "");
  const origins: string[] = [];
  for (const text of raw) {
    if (text.includes("*")) {
      // Refused rather than half-supported: CORS answers one exact origin (docs/decisions/0085).
      return {
        ok: false,
        error: `"${text.slice(0, 80)}": wildcard origins are not supported; list each site's origin (like https://news.example.com).`,
      };
    }
    const origin = parseOrigin(text);
    if (!origin) {
      return {
        ok: false,
        error: `"${text.slice(0, 80)}" is not a web origin (like https://news.example).`,
      };
    }
    if (!origins.includes(origin)) origins.push(origin);
  }
  return { ok: true, value: origins };
}

/** Why a partner's full origin list cannot be one (none, too many), or null when it can. */
export function originCountError(origins: readonly string[]): string | null {
  if (origins.length === 0) return PARTNER_ORIGINS_REQUIRED;
  if (origins.length > PARTNER_ORIGINS_MAX) {
    return `At most ${PARTNER_ORIGINS_MAX} origins per partner.`;
  }
  return null;
}

/** Checks a new partner (the dashboard's form and the CLI's `partners add`): one rule set. */
export function parsePartnerInput(input: {
  name?: unknown;
  origins?: unknown;
}): PartnerInputResult {
  const errors: { name?: string; origins?: string } = {};
  const name = parsePartnerName(input.name);
  if (!name.ok) errors.name = name.error;
  const origins = parseOriginList(input.origins);
  if (!origins.ok) errors.origins = origins.error;
  else {
    const count = originCountError(origins.value);
    if (count) errors.origins = count;
  }
  if (!name.ok || !origins.ok || errors.origins) return { ok: false, errors };
  return { ok: true, value: { name: name.value, origins: origins.value } };
}

/**
 * What a partner's widget and API figures are worth (docs/decisions/0154): browsers report them,
 * so a script can too. Said on the dashboard and by `game-admin partners stats`.
 */
export const PARTNER_STATS_NOTE =
  "Widget loads and API calls are what visitors' browsers report: a page view's widgets count once and one address can report only so many a minute, but a script can send the same reports, so read them as traffic figures, not exact counts. Sign-ins and saved teams are the game's own records.";
