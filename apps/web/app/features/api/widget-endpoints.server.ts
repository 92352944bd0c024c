/**
 * The API endpoints the embed's widgets read as they first show, each exactly as its route serves
 * it (quota, CORS, caching), and the way from an API path to one: the embed's hello answers a
 * widget's first requests in-process with them (docs/decisions/0182).
 */
import type { AppLoadContext, LoaderFunctionArgs } from "@remix-run/node";
import { apiGet, CACHE } from "./api.server";
import {
  apiEventRacers,
  apiEvents,
  apiLeagueRankings,
  apiPlayerRankings,
  apiTeam,
} from "./public-api.server";

type Loader = (args: LoaderFunctionArgs) => Promise<Response>;

/** `GET /api/v1/events?competition=<slug>`. */
export const eventsEndpoint: Loader = (args) =>
  apiGet(args, CACHE.catalogue, (url) => apiEvents(args, url));

/** `GET /api/v1/events/:id/racers?category=<slug>`. */
export const eventRacersEndpoint: Loader = apiEventRacers;

/** `GET /api/v1/rankings/players?competition=<slug>&event=5&page=2`. */
export const playerRankingsEndpoint: Loader = (args) =>
  apiGet(args, CACHE.live, (url) => apiPlayerRankings(args, url), { ranking: "players" });

/** `GET /api/v1/rankings/leagues?competition=<slug>&page=2`. */
export const leagueRankingsEndpoint: Loader = (args) =>
  apiGet(args, CACHE.live, (url) => apiLeagueRankings(args, url), { ranking: "leagues" });

/** `GET /api/v1/teams/:username?event=5`. */
export const teamEndpoint: Loader = (args) => apiGet(args, CACHE.live, (url) => apiTeam(args, url));

/** The paths of the endpoints above, as the routes' file names define them. */
const WIDGET_PATHS: [RegExp, Loader][] = [
  [/^\/api\/v1\/events$/, eventsEndpoint],
  [/^\/api\/v1\/events\/(?<id>[^/]+)\/racers$/, eventRacersEndpoint],
  [/^\/api\/v1\/rankings\/players$/, playerRankingsEndpoint],
  [/^\/api\/v1\/rankings\/leagues$/, leagueRankingsEndpoint],
  [/^\/api\/v1\/teams\/(?<username>[^/]+)$/, teamEndpoint],
];

/**
 * The endpoint serving `pathname` and its path parameters (decoded, as the router gives them),
 * or undefined for any other path.
 */
export function widgetEndpoint(
  pathname: string,
): { loader: Loader; params: Record<string, string> } | undefined {
  for (const [pattern, loader] of WIDGET_PATHS) {
    const match = pattern.exec(pathname);
    if (!match) continue;
    const params: Record<string, string> = {};
    try {
      for (const [name, value] of Object.entries(match.groups ?? {})) {
        params[name] = decodeURIComponent(value);
      }
    } catch {
      return undefined;
    }
    return { loader, params };
  }
  return undefined;
}

/**
 * A `fetch` for the API client that serves the endpoints above in-process, as a request from
 * `origin` (the page's, or none for the game's own) through `context`: the caller's quota, CORS,
 * partner stats and caches apply as if the request had come over the network. Any other path
 * throws (as a network error would).
 */
export function inProcessFetch(context: AppLoadContext, origin: string | null): typeof fetch {
  return async (input) => {
    const url = new URL(String(input));
    const endpoint = widgetEndpoint(url.pathname);
    // A widget reading an endpoint not listed here: its first request must come from itself.
    if (!endpoint) throw new Error(`No in-process endpoint for ${url.pathname}`);
    const headers = new Headers({ Accept: "application/json" });
    if (origin) headers.set("Origin", origin);
    return endpoint.loader({
      request: new Request(url, { headers }),
      context,
      params: endpoint.params,
    });
  };
}
