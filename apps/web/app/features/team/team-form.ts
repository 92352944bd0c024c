/**
 * The team form, shared by the browser and the server: its fields, its answer and its addresses.
 * The same fields travel as form data (a save, or an add/remove without JavaScript) and as URL
 * parameters (a draft being built without JavaScript); one schema reads both, on the server
 * (`team-form.server.ts`: the browser never parses the form, so it does not ship zod).
 */

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
  /** The draft's captain, a racer id of the draft (where the rules have captains). */
  captain: "captain",
  /** Submit button: name this racer of the draft captain (again: no captain). */
  makeCaptain: "makeCaptain",
  /** Submit button: put this starter on the bench (the bench rider starts instead). */
  toBench: "toBench",
  /** Checkbox: play the wildcard this round ("on"); read only with `wildcardShown`. */
  wildcard: "wildcard",
  /** Hidden: the form showed the wildcard box (so an unticked box means "not this round"). */
  wildcardShown: "wildcardShown",
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
  /** The draft's captain after this answer (docs/decisions/0168), or null. */
  captain: number | null;
}

/** The spec's alert texts. */
export const SAVE_OK = "Team saved successfully!";
export const SAVE_FAILED = "Failed to save team.";

/** The team-setup URL for an event, optionally with a draft, a category tab and a rider shown. */
export function teamSetupHref(
  game: number,
  opts: {
    draft?: readonly number[] | null;
    category?: string | null;
    show?: number | null;
    captain?: number | null;
  } = {},
): string {
  const params = new URLSearchParams({ game: String(game) });
  if (opts.category) params.set("category", opts.category);
  if (opts.draft) {
    params.set("draft", "1");
    for (const racerId of opts.draft) params.append(TEAM_FIELDS.racer, String(racerId));
    if (opts.captain != null && opts.draft.includes(opts.captain)) {
      params.set(TEAM_FIELDS.captain, String(opts.captain));
    }
  }
  if (opts.show) params.set("show", String(opts.show));
  return `/team-setup?${params}`;
}
