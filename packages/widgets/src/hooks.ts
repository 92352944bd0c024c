/**
 * Data hooks over `createGameClient`, reading the client from one `<GravityProvider client>`.
 * They fetch in effects only (nothing runs during a server render: the first render is the
 * loading state) and abort the request they no longer need.
 */
import {
  createElement,
  type ReactElement,
  type ReactNode,
  useCallback,
  useEffect,
  useState,
} from "react";
import type { GameClient } from "./client.js";
import { GameClientContext, useOptionalGameClient } from "./internal/client-context.js";
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

export interface GravityProviderProps {
  /** The client every hook below uses (`createGameClient({ baseUrl })`). */
  client: GameClient;
  children?: ReactNode;
}

/**
 * Gives one API client to every hook and widget below it. Portraits then resolve against the
 * client's `baseUrl` (absolute URLs, no `imageBase` needed).
 */
export function GravityProvider({ client, children }: GravityProviderProps): ReactElement {
  return createElement(GameClientContext.Provider, { value: client }, children);
}

/** The client of the nearest `<GravityProvider>`; throws outside one, naming the fix. */
export function useGameClient(): GameClient {
  const client = useOptionalGameClient();
  if (!client) {
    throw new Error(
      "Gravity Fantasy hooks need a client: wrap them in <GravityProvider client={createGameClient({ baseUrl })}>.",
    );
  }
  return client;
}

/**
 * `GET /api/v1/events` (one competition's rounds with `competition`). `enabled: false` fetches
 * nothing (e.g. the event is already known).
 */
export function useEvents(
  options: { enabled?: boolean; competition?: string | null } = {},
): AsyncResult<EventsResponse> {
  const client = useGameClient();
  const enabled = options.enabled ?? true;
  const competition = options.competition || undefined;
  return useApi(
    enabled ? (signal) => client.getEvents({ signal, competition }) : null,
    `events|${client.baseUrl}|${enabled}|${competition}`,
  );
}

/** `GET /api/v1/events/:id/racers?category=...` (nothing while `eventId` is null). */
export function useRacers(
  eventId: number | string | null | undefined,
  category?: Category | CategorySlug,
): AsyncResult<RacersResponse> {
  const client = useGameClient();
  return useApi(
    eventId != null
      ? (signal) => client.getRacers(eventId, category ? { signal, category } : { signal })
      : null,
    `racers|${client.baseUrl}|${eventId ?? ""}|${category ?? ""}`,
  );
}

/** `GET /api/v1/rankings/players?competition=:slug&event=:id&page=N` */
export function usePlayerRankings(
  options: { competition?: string; event?: number | string; page?: number } = {},
): AsyncResult<PlayerRankingsResponse> {
  const client = useGameClient();
  const { competition, event, page } = options;
  return useApi(
    (signal) => client.getPlayerRankings({ signal, competition, event, page }),
    `players|${client.baseUrl}|${competition}|${event ?? ""}|${page ?? ""}`,
  );
}

/** `GET /api/v1/rankings/leagues?competition=:slug&page=N` */
export function useLeagueRankings(
  options: { competition?: string; page?: number } = {},
): AsyncResult<LeagueRankingsResponse> {
  const client = useGameClient();
  const { competition, page } = options;
  return useApi(
    (signal) => client.getLeagueRankings({ signal, competition, page }),
    `leagues|${client.baseUrl}|${competition}|${page ?? ""}`,
  );
}

/** `GET /api/v1/teams/:username?event=:id` (nothing while `username` is empty). */
export function useTeam(
  username: string | null | undefined,
  event?: number | string,
): AsyncResult<TeamResponse> {
  const client = useGameClient();
  return useApi(
    username ? (signal) => client.getTeam(username, { signal, event }) : null,
    `team|${client.baseUrl}|${username ?? ""}|${event ?? ""}`,
  );
}
