/**
 * Reads the team form (`team-form.ts`) on the server: one schema for the form data (a save, or
 * an add/remove without JavaScript) and the URL parameters (a draft being built without
 * JavaScript). Apart from the fields so that the team builder's browser code ships no zod.
 */
import { firstIssue, teamSelectionSchema } from "@game/core";
import { z } from "zod";
import { TEAM_FIELDS } from "./team-form";

const id = z.coerce
  .number({ error: "Unknown rider." })
  .int("Unknown rider.")
  .positive("Unknown rider.")
  .max(2 ** 31 - 1, "Unknown rider.");

export const teamFormSchema = z
  .object({
    game: z.coerce
      .number({ error: "Game not found." })
      .int("Game not found.")
      .positive("Game not found.")
      .max(2 ** 31 - 1, "Game not found."),
    racer: teamSelectionSchema,
    add: id.optional(),
    remove: id.optional(),
    intent: z.literal("save").optional(),
    captain: id.optional(),
    makeCaptain: id.optional(),
    toBench: id.optional(),
    wildcard: z.literal("on").optional(),
    wildcardShown: z.literal("1").optional(),
  })
  .transform((v, ctx) => {
    // A captain who is not in the draft (removed since) is no captain.
    const captain = v.captain !== undefined && v.racer.includes(v.captain) ? v.captain : null;
    // The wildcard box: ticked or not when the form showed it; else left as it is.
    const wildcard = v.wildcardShown ? v.wildcard === "on" : undefined;
    const base = { game: v.game, racers: v.racer, captain, wildcard };
    if (v.intent === "save") return { ...base, intent: "save" as const };
    if (v.add !== undefined) return { ...base, intent: "add" as const, racerId: v.add };
    if (v.remove !== undefined) return { ...base, intent: "remove" as const, racerId: v.remove };
    if (v.makeCaptain !== undefined) {
      return { ...base, intent: "captain" as const, racerId: v.makeCaptain };
    }
    if (v.toBench !== undefined) return { ...base, intent: "bench" as const, racerId: v.toBench };
    ctx.addIssue({ code: "custom", message: "Choose a rider to add or remove, or save." });
    return z.NEVER;
  });

export type TeamForm = z.output<typeof teamFormSchema>;

/** Anything with `get`/`getAll`: FormData and URLSearchParams alike. */
interface FieldSource {
  get(name: string): FormDataEntryValue | null;
  getAll(name: string): FormDataEntryValue[];
}

const single = (source: FieldSource, name: string) => {
  const value = source.get(name);
  return value === null || value === "" ? undefined : value;
};

export function readTeamForm(
  source: FieldSource,
): { ok: true; form: TeamForm } | { ok: false; error: string } {
  const parsed = teamFormSchema.safeParse({
    game: single(source, TEAM_FIELDS.game),
    racer: source.getAll(TEAM_FIELDS.racer),
    add: single(source, TEAM_FIELDS.add),
    remove: single(source, TEAM_FIELDS.remove),
    intent: single(source, TEAM_FIELDS.intent),
    captain: single(source, TEAM_FIELDS.captain),
    makeCaptain: single(source, TEAM_FIELDS.makeCaptain),
    toBench: single(source, TEAM_FIELDS.toBench),
    wildcard: single(source, TEAM_FIELDS.wildcard),
    wildcardShown: single(source, TEAM_FIELDS.wildcardShown),
  });
  return parsed.success
    ? { ok: true, form: parsed.data }
    : { ok: false, error: firstIssue(parsed.error) };
}

/** The draft carried in a URL (`?draft=1&racer=12&racer=5`); null when the URL has none. */
export function readDraftParam(params: URLSearchParams): number[] | null {
  if (!params.has("draft")) return null;
  const parsed = teamSelectionSchema.safeParse(params.getAll(TEAM_FIELDS.racer));
  return parsed.success ? parsed.data : [];
}

/** The draft's captain carried in a URL (`&captain=12`), when it is one of `draft`; else null. */
export function readCaptainParam(params: URLSearchParams, draft: readonly number[]): number | null {
  const parsed = id.safeParse(params.get(TEAM_FIELDS.captain) ?? undefined);
  return parsed.success && draft.includes(parsed.data) ? parsed.data : null;
}
