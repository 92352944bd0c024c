import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiLeagueRankings } from "~/features/api/public-api.server";
import { apiAction, apiGet, CACHE } from "~/utils/api.server";

/**
 * `GET /api/v1/rankings/leagues?page=2&pageSize=20`: mini leagues by total points, 50 a page by
 * default; a page past the last is empty.
 */
export const loader = (args: LoaderFunctionArgs) =>
  apiGet(args, CACHE.live, (url) => apiLeagueRankings(args, url), { ranking: "leagues" });

export const action = apiAction;
