import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiAction, apiGet, CACHE } from "~/features/api/api.server";
import { apiLeagueRankings } from "~/features/api/public-api.server";

/**
 * `GET /api/v1/rankings/leagues?competition=<slug>&page=2&pageSize=20`: a competition's mini
 * leagues (the default competition's without `competition`) by total points, 50 a page by
 * default; a page past the last is empty; 404 for an unknown competition.
 */
export const loader = (args: LoaderFunctionArgs) =>
  apiGet(args, CACHE.live, (url) => apiLeagueRankings(args, url), { ranking: "leagues" });

export const action = apiAction;
