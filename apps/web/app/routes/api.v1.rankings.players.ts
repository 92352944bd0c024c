import { apiAction } from "~/features/api/api.server";
import { playerRankingsEndpoint } from "~/features/api/widget-endpoints.server";

/**
 * `GET /api/v1/rankings/players?competition=<slug>&event=5&page=2`: a competition's season
 * ranking (the default competition without `competition`), or one event's with `event`; 50
 * players a page by default (`pageSize`, 1 to 100); a page past the last is empty; 404 for an
 * unknown competition or event. Anonymous: the public API never reads a session, so answers can
 * be cached by CDNs.
 */
export const loader = playerRankingsEndpoint;

export const action = apiAction;
