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
export const USERNAME_MIN = 3;
export const USERNAME_MAX = 24;
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 128;
