/**
 * The league forms' names: their intents and where they post. The checks are apart
 * (`form-schemas.ts`): they carry zod and the name rules, which the browser fetches only when a
 * league form is first focused (docs/decisions/0178).
 */
export const LEAGUE_INTENTS = [
  "create",
  "invite",
  "accept",
  "dismiss",
  "leave",
  "delete",
  "reset-code",
  "remove",
  "renew",
] as const;
export type LeagueIntent = (typeof LEAGUE_INTENTS)[number];

/** Where every league form posts. */
export const LEAGUE_ACTION = "/leagues/actions";
