import { apiAction } from "~/features/api/api.server";
import { apiEventResults } from "~/features/api/public-api.server";

/**
 * `GET /api/v1/events/:id/results?category=pro-men`: an event's results, by category then place
 * (DNF, DNS, DSQ last), with the fantasy points each is worth. Empty until results are imported;
 * a corrected import replaces them, so they are cached like rankings.
 */
export const loader = apiEventResults;

export const action = apiAction;
