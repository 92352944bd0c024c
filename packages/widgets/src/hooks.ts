/**
 * Data hooks over `createGameClient`. They fetch in effects only (nothing runs during a server
 * render: the first render is the loading state) and abort the request they no longer need.
 */
import { useCallback, useEffect, useState } from "react";
import type { GameClient } from "./client.js";
import type {
  Category,
  CategorySlug,
  EventsResponse,
  LeagueRankingsResponse,
  PlayerRankingsResponse,
  RacersResponse,
  TeamResponse,
} from "./types.js";

export interface AsyncResult<T> {
  /** The last successful answer (kept while the next one loads). */
  data: T | undefined;
  error: Error | undefined;
  loading: boolean;
  /** Fetches again. */
  reload: () => void;
}

/**
 * Runs `load` in an effect whenever `key` changes, aborting the previous call. `load` returning
 * null means "nothing to fetch" (e.g. no username yet).
 */
export function useApi<T>(
  load: ((signal: AbortSignal) => Promise<T>) | null,
  key: string,
): AsyncResult<T> {
  const [state, setState] = useState<{ data?: T; error?: Error; loading: boolean }>({
    loading: load !== null,
  });
  const [nonce, setNonce] = useState(0);
  const reload = useCallback(() => setNonce((n) => n + 1), []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for `load`'s inputs
  useEffect(() => {
    if (!load) {
      setState((s) => ({ data: s.data, loading: false }));
      return;
    }
    const controller = new AbortController();
    setState((s) => ({ data: s.data, loading: true }));
    load(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setState({ data, loading: false });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setState((s) => ({
          data: s.data,
          loading: false,
          error: error instanceof Error ? error : new Error(String(error)),
        }));
      },
    );
    return () => controller.abort();
  }, [key, nonce]);

  return { data: state.data, error: state.error, loading: state.loading, reload };
}

/** `GET /api/v1/events` */
export function useEvents(client: GameClient | null | undefined): AsyncResult<EventsResponse> {
  return useApi(
    client ? (signal) => client.getEvents({ signal }) : null,
    `events|${client?.baseUrl ?? ""}|${client ? 1 : 0}`,
  );
}

/** `GET /api/v1/events/:id/racers?category=...` */
export function useRacers(
  client: GameClient | null | undefined,
  eventId: number | string | null | undefined,
  category?: Category | CategorySlug,
): AsyncResult<RacersResponse> {
  return useApi(
    client && eventId != null
      ? (signal) => client.getRacers(eventId, category ? { signal, category } : { signal })
      : null,
    `racers|${client?.baseUrl ?? ""}|${client ? 1 : 0}|${eventId ?? ""}|${category ?? ""}`,
  );
}

/** `GET /api/v1/rankings/players?event=:id&page=N` */
export function usePlayerRankings(
  client: GameClient | null | undefined,
  options: { event?: number | string; page?: number } = {},
): AsyncResult<PlayerRankingsResponse> {
  const { event, page } = options;
  return useApi(
    client ? (signal) => client.getPlayerRankings({ signal, event, page }) : null,
    `players|${client?.baseUrl ?? ""}|${client ? 1 : 0}|${event ?? ""}|${page ?? ""}`,
  );
}

/** `GET /api/v1/rankings/leagues?page=N` */
export function useLeagueRankings(
  client: GameClient | null | undefined,
  options: { page?: number } = {},
): AsyncResult<LeagueRankingsResponse> {
  const { page } = options;
  return useApi(
    client ? (signal) => client.getLeagueRankings({ signal, page }) : null,
    `leagues|${client?.baseUrl ?? ""}|${client ? 1 : 0}|${page ?? ""}`,
  );
}

/** `GET /api/v1/teams/:username?event=:id` */
export function useTeam(
  client: GameClient | null | undefined,
  username: string | null | undefined,
  event?: number | string,
): AsyncResult<TeamResponse> {
  return useApi(
    client && username ? (signal) => client.getTeam(username, { signal, event }) : null,
    `team|${client?.baseUrl ?? ""}|${client ? 1 : 0}|${username ?? ""}|${event ?? ""}`,
  );
}
