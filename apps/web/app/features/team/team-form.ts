/**
 * The team form, shared by the browser and the server. The same fields travel as form data (a
 * save, or an add/remove without JavaScript) and as URL parameters (a draft being built without
 * JavaScript), and one schema reads both.
 */
import { firstIssue, teamSelectionSchema } from "@game/core";
import { z } from "zod";

export const TEAM_FIELDS = {
  /** The event the team is for. */
  game: "game",
  /** The draft, one racer id per value, in slot order. */
  racer: "racer",
  /** Submit button: add this racer to the draft. */
  add: "add",
  /** Submit button: remove this racer from the draft. */
  remove: "remove",
  /** Submit button: save the draft as the team. */
  intent: "intent",
} as const;

/** What the team form's action answers. */
export interface TeamActionResult {
  ok: boolean;
  /** The alert: the spec's save messages, or why a rider could not be added. */
  message: string;
  /** Why the server refused, one line each. */
  reasons: string[];
  /** The draft the page should show after this answer. */
  draft: number[];
}

/** The spec's alert texts. */
export const SAVE_OK = "Team saved successfully!";
export const SAVE_FAILED = "Failed to save team.";

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
  })
  .transform((v, ctx) => {
    const base = { game: v.game, racers: v.racer };
    if (v.intent === "save") return { ...base, intent: "save" as const };
    if (v.add !== undefined) return { ...base, intent: "add" as const, racerId: v.add };
    if (v.remove !== undefined) return { ...base, intent: "remove" as const, racerId: v.remove };
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

/** The team-setup URL for an event, optionally with a draft, a category tab and a rider shown. */
export function teamSetupHref(
  game: number,
  opts: { draft?: readonly number[] | null; category?: string | null; show?: number | null } = {},
): string {
  const params = new URLSearchParams({ game: String(game) });
  if (opts.category) params.set("category", opts.category);
  if (opts.draft) {
    params.set("draft", "1");
    for (const racerId of opts.draft) params.append(TEAM_FIELDS.racer, String(racerId));
  }
  if (opts.show) params.set("show", String(opts.show));
  return `/team-setup?${params}`;
}
