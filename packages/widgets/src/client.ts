/**
 * A small typed client for the public JSON API (`/api/v1`). No React, no globals touched at
 * import time: usable on the server, in workers and in the browser.
 */
import {
  type ApiErrorBody,
  type Category,
  type CategorySlug,
  type EventsResponse,
  type LeagueRankingsResponse,
  type PlayerRankingsResponse,
  type RacersResponse,
  type ResultsResponse,
  type TeamResponse,
  toCategorySlug,
} from "./types.js";

export type * from "./types.js";
export { CATEGORIES, CATEGORY_SLUGS, toCategorySlug } from "./types.js";

export interface GameClientOptions {
  /** Origin of the game, e.g. `https://gravity-fantasy.example` ("" for same-origin calls). */
  baseUrl: string;
  /** A fetch implementation; defaults to the global `fetch` at call time. */
  fetch?: typeof fetch;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
  /** Fetch credentials mode (e.g. "include" to send the session cookie cross-origin). */
  credentials?: "omit" | "same-origin" | "include";
  /**
   * A partner's publishable key, sent as `X-Partner-Key`: the higher request quota for partner
   * servers (an unknown key is refused with 401). Browsers need none.
   */
  partnerKey?: string;
}

export interface RequestOptions {
  /** Aborts the request. */
  signal?: AbortSignal;
}

/** Thrown for non-2xx answers and unreadable bodies. */
export class GameApiError extends Error {
  override name = "GameApiError";
  constructor(
    message: string,
    /** HTTP status (0 when the body could not be read). */
    readonly status: number,
    /** `error.code` of the body, or `http_<status>`. */
    readonly code: string,
  ) {
    super(message);
  }
}

export interface GameClient {
  readonly baseUrl: string;
  /** `GET /api/v1/events`, or one competition's rounds (`?competition=<slug>`). */
  getEvents(options?: RequestOptions & { competition?: string }): Promise<EventsResponse>;
  /** `GET /api/v1/events/:id/racers?category=pro-men` (all categories without one). */
  getRacers(
    eventId: number | string,
    options?: RequestOptions & { category?: Category | CategorySlug },
  ): Promise<RacersResponse>;
  /** `GET /api/v1/events/:id/results?category=pro-men` (all categories without one). */
  getResults(
    eventId: number | string,
    options?: RequestOptions & { category?: Category | CategorySlug },
  ): Promise<ResultsResponse>;
  /**
   * `GET /api/v1/rankings/players?competition=:slug&event=:id&page=N&pageSize=M` (pageSize 1 to
   * 100, default 50; a page past the last is empty; without a competition, the live one's).
   */
  getPlayerRankings(
    options?: RequestOptions & {
      competition?: string;
      event?: number | string;
      page?: number;
      pageSize?: number;
    },
  ): Promise<PlayerRankingsResponse>;
  /** `GET /api/v1/rankings/leagues?competition=:slug&page=N&pageSize=M` */
  getLeagueRankings(
    options?: RequestOptions & { competition?: string; page?: number; pageSize?: number },
  ): Promise<LeagueRankingsResponse>;
  /** `GET /api/v1/teams/:username?event=:id` */
  getTeam(
    username: string,
    options?: RequestOptions & { event?: number | string },
  ): Promise<TeamResponse>;
}

function query(params: Record<string, string | number | undefined>): string {
  const parts = Object.entries(params)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
  return parts.length ? `?${parts.join("&")}` : "";
}

export function createGameClient(options: GameClientOptions): GameClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");

  async function get<T>(path: string, signal: AbortSignal | undefined): Promise<T> {
    const doFetch = options.fetch ?? globalThis.fetch;
    const res = await doFetch(`${baseUrl}/api/v1${path}`, {
      method: "GET",
      headers: {
        accept: "application/json",
        ...(options.partnerKey ? { "X-Partner-Key": options.partnerKey } : {}),
        ...options.headers,
      },
      ...(options.credentials ? { credentials: options.credentials } : {}),
      ...(signal ? { signal } : {}),
    });
    let body: unknown;
    try {
      body = await res.json();
    } catch {
      throw new GameApiError(
        `Unexpected response from the game API (HTTP ${res.status}).`,
        res.status,
        `http_${res.status}`,
      );
    }
    if (!res.ok) {
      const error = (body as Partial<ApiErrorBody> | null)?.error;
      throw new GameApiError(
        error?.message ?? `The game API answered HTTP ${res.status}.`,
        res.status,
        error?.code ?? `http_${res.status}`,
      );
    }
    return body as T;
  }

  return {
    baseUrl,
    getEvents: (o = {}) => get(`/events${query({ competition: o.competition })}`, o.signal),
    getRacers: (eventId, o = {}) =>
      get(
        `/events/${encodeURIComponent(String(eventId))}/racers${query({
          category: o.category ? toCategorySlug(o.category) : undefined,
        })}`,
        o.signal,
      ),
    getResults: (eventId, o = {}) =>
      get(
        `/events/${encodeURIComponent(String(eventId))}/results${query({
          category: o.category ? toCategorySlug(o.category) : undefined,
        })}`,
        o.signal,
      ),
    getPlayerRankings: (o = {}) =>
      get(
        `/rankings/players${query({
          competition: o.competition,
          event: o.event,
          page: o.page,
          pageSize: o.pageSize,
        })}`,
        o.signal,
      ),
    getLeagueRankings: (o = {}) =>
      get(
        `/rankings/leagues${query({ competition: o.competition, page: o.page, pageSize: o.pageSize })}`,
        o.signal,
      ),
    getTeam: (username, o = {}) =>
      get(`/teams/${encodeURIComponent(username)}${query({ event: o.event })}`, o.signal),
  };
}
