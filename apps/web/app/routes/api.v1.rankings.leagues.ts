import { apiAction } from "~/features/api/api.server";
import { leagueRankingsEndpoint } from "~/features/api/widget-endpoints.server";

/**
 * `GET /api/v1/rankings/leagues?competition=<slug>&page=2&pageSize=20`: a competition's mini
 * leagues (the default competition's without `competition`) by total points, 50 a page by
 * default; a page past the last is empty; 404 for an unknown competition.
 */
export const loader = leagueRankingsEndpoint;

export const action = apiAction;
