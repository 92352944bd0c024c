/** Business constants from the spec (section 9). */
export const BUDGET = 1_000_000;
export const STARTING_BANK = BUDGET;
export const SIGNUP_CREDITS = 100;
export const TEAM_SIZE = 6;
export const MIN_FEMALE = 2;
export const MIN_JUNIOR = 1;
export const LOCK_HOURS = 12;
export const LOCK_MS = LOCK_HOURS * 60 * 60 * 1000;
export const MIN_AGE = 13;
export const UPLOAD_PREVIEW_ROWS = 5;

export const RACER_DEFAULTS = {
  price: 75_000,
  gameId: 5,
  rank2024: 0,
  totalPoint2024: 0,
  origin: "",
} as const;

/** Upload limits for racer and result CSV files (admin issue). */
export const CSV_MAX_BYTES = 5 * 1024 * 1024;
export const CSV_MAX_ROWS = 20_000;

export const LEAGUE_NAME_MAX = 60;
/**
 * Members a league needs to be in the public league ranking: a league of one is a player, and
 * leagues of one were free billboards for spam names (docs/decisions/0151).
 */
export const LEAGUE_RANKING_MIN_MEMBERS = 2;
/**
 * Invitation e-mails one player may send a day, across their leagues: a league's friends fit in
 * a day or two, and the invite link has no limit (decision 0151).
 */
export const INVITATIONS_PER_DAY = 20;
/** Invitation e-mails one address may receive a day, from every league together (0151). */
export const INVITATIONS_PER_RECIPIENT_PER_DAY = 3;
/** Leagues one player may own: enough for every circle of friends, too few to flood (0151). */
export const MAX_OWNED_LEAGUES = 10;
export const USERNAME_MIN = 3;
export const USERNAME_MAX = 24;
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 128;
/**
 * A short description of the password rules (password-policy.ts), for the hint next to a
 * new-password field. Here, not with the rules, so that the sign-up form on every page shows it
 * without shipping the list of common passwords (docs/decisions/0164).
 */
export const PASSWORD_HINT = `At least ${PASSWORD_MIN} characters; common passwords are refused.`;

/** The largest team any competition may have. */
export const MAX_TEAM_SIZE = 20;
