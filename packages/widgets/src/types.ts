/**
 * Domain types of the widgets and of the public JSON API.
 *
 * They mirror the game's private rules package but are declared here so that the published
 * package and its `.d.ts` files never depend on it (it is not published).
 * `core-compat.test.ts` fails when the two drift apart, and `api-types.test.ts` when the API's
 * answers (`Api*` and `*Response` here) stop matching the rules package's zod schemas of them.
 *
 * The component types (`Racer`, `GameEvent`, ...) are lenient, so a partner can pass its own
 * data; the `Api*` types are exactly what the API sends, and are assignable to them.
 */

/** The four racer categories, in the order the tabs show them. */
export const CATEGORIES = ["Pro Men", "Pro Women", "17-18 Men", "17-18 Women"] as const;
export type Category = (typeof CATEGORIES)[number];

/** URL-safe names used by routes and the public API (`?category=pro-women`). */
export const CATEGORY_SLUGS = {
  "Pro Men": "pro-men",
  "Pro Women": "pro-women",
  "17-18 Men": "junior-men",
  "17-18 Women": "junior-women",
} as const satisfies Record<Category, string>;
export type CategorySlug = (typeof CATEGORY_SLUGS)[Category];

/** Accepts "Pro Women" or "pro-women"; returns the slug. */
export function toCategorySlug(category: Category | CategorySlug): CategorySlug {
  return (CATEGORY_SLUGS as Record<string, CategorySlug>)[category] ?? (category as CategorySlug);
}

export type EventStatus = "open" | "closed" | "archived";

/** Colour theme of a widget. `auto` follows `prefers-color-scheme`. */
export type Theme = "light" | "dark" | "auto";

/** A racer as the API returns it (`GET /api/v1/events/:id/racers`). */
export interface Racer {
  id: number;
  category: Category;
  firstName: string;
  lastName: string;
  /** Portrait file name under `/img/racer_portrait/`; null or "" when there is none. */
  picture?: string | null;
  origin?: string | null;
  gameId?: number;
  /** 2024 ranking; 0 means unranked. */
  rank2024: number;
  totalPoint2024?: number;
  /** Price in whole (fake) dollars, e.g. 75000. */
  price: number;
  /**
   * The racer's price in the previous round of the series (prices move with results); absent or
   * null in a first round. The racer table can show the change (`showPriceChange`).
   */
  previousPrice?: number | null;
  /**
   * Share of the round's teams holding the racer, in percent (one decimal); null before the
   * round's first count.
   */
  pickedByPercent?: number | null;
}

/** A racer exactly as the API sends it: every field present. */
export interface ApiRacer extends Racer {
  picture: string | null;
  origin: string;
  gameId: number;
  totalPoint2024: number;
  previousPrice: number | null;
  pickedByPercent: number | null;
}

/** One line of the team-builder checklist (same shape as the rules package's `Requirement`). */
export interface Requirement {
  id: "size" | "female" | "junior" | "budget" | (string & {});
  label: string;
  met: boolean;
  detail?: string;
}

/** An event (a game) as the API returns it (`GET /api/v1/events`). */
export interface GameEvent {
  id: number;
  name: string;
  /** Cover image URL (absolute, or root-relative like `/img/events/5-cover.jpg`). */
  cover?: string | null;
  /** Logo image URL (absolute, or root-relative). */
  logo?: string | null;
  description?: string | null;
  status: EventStatus;
  /** Start of the race, ISO 8601 (`2025-05-04T09:00:00Z`); null when not announced. */
  startsAt?: string | null;
}

/** An event exactly as the API sends it (images as absolute URLs). */
export interface ApiEvent extends GameEvent {
  cover: string;
  logo: string;
  description: string;
  startsAt: string;
}

/** One row of the player ranking (`GET /api/v1/rankings/players`). */
export interface PlayerRanking {
  /** Position as computed by the server; equal points share a rank ("1, 1, 3"). */
  rank: number;
  /** Stable id of the player (used to find "your" row); falls back to `username`. */
  id?: string | number;
  /** Missing usernames are shown as "Anonymous". */
  username?: string | null;
  /** Missing points are shown as 0. */
  points?: number | null;
  /** Rank before the last results; drives the movement arrow. */
  previousRank?: number | null;
}

/** One row of the league ranking (`GET /api/v1/rankings/leagues`). */
export interface LeagueRanking {
  rank: number;
  id?: string | number;
  name: string;
  /** Average of the accepted members' scores; missing is shown as 0. */
  totalPoints?: number | null;
  memberCount?: number;
}

/** A player ranking row exactly as the API sends it. */
export interface ApiPlayerRanking extends PlayerRanking {
  username: string;
  points: number;
  previousRank: number | null;
}

/** A league ranking row exactly as the API sends it. */
export interface ApiLeagueRanking extends LeagueRanking {
  id: number;
  totalPoints: number;
  memberCount: number;
}

/** A paginated list. Pages are 1-based. */
export interface Page<T> {
  data: T[];
  page: number;
  pageCount: number;
  pageSize: number;
  total: number;
}

/** `GET /api/v1/events` */
export interface EventsResponse {
  data: ApiEvent[];
}

/** `GET /api/v1/events/:id/racers?category=pro-men` */
export interface RacersResponse {
  data: ApiRacer[];
  eventId: number;
  /** The category asked for, or null when all categories were returned. */
  category: CategorySlug | null;
}

/** One racer's result in a scored event. */
export interface RaceResult {
  racerId: number;
  firstName: string;
  lastName: string;
  category: Category;
  /** Portrait file name, as on Racer. */
  picture: string | null;
  /** "finished", or a non-finish. */
  status: "finished" | "DNF" | "DNS" | "DSQ";
  /** Place within the category; null for DNF, DNS and DSQ. */
  position: number | null;
  /** Fantasy points the result is worth. */
  points: number;
  /** How many teams picked the racer for the event. */
  pickedBy: number;
}

/** `GET /api/v1/events/:id/results?category=pro-men` (by category, then place). */
export interface ResultsResponse {
  data: RaceResult[];
  eventId: number;
  /** The category asked for, or null when all categories were returned. */
  category: CategorySlug | null;
}

/** `GET /api/v1/rankings/players?event=:id&page=N` */
export interface PlayerRankingsResponse extends Page<ApiPlayerRanking> {
  eventId: number | null;
}

/** `GET /api/v1/rankings/leagues?page=N` */
export interface LeagueRankingsResponse extends Page<ApiLeagueRanking> {}

/** A player's team for one event. */
export interface Team {
  username: string;
  eventId: number;
  /** In slot order: the starters, then the bench rider where the competition has a bench. */
  racers: Racer[];
  /** The captain's racer id (their points count double), or null. */
  captainId?: number | null;
  /** The bench rider's racer id (scores only for a starter who does not start), or null. */
  benchId?: number | null;
  /** Sum of the racers' prices. */
  cost: number;
  /** Budget left (1,000,000 minus cost). */
  bank: number;
  /** Points scored so far; null before results are in. */
  points: number | null;
  /** True from 12 hours before the event starts. */
  locked: boolean;
}

/** A team exactly as the API sends it. */
export interface ApiTeam extends Team {
  racers: ApiRacer[];
  captainId: number | null;
  benchId: number | null;
}

/** `GET /api/v1/teams/:username?event=:id` */
export interface TeamResponse {
  data: ApiTeam;
}

/** Body of every non-2xx answer of the API. */
export interface ApiErrorBody {
  error: { code: string; message: string };
}
