import type { ApiResultsResponse } from "@game/core";
import { listPublicResults } from "@game/db";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiAction, CACHE, eventListGet } from "~/utils/api.server";

/**
 * `GET /api/v1/events/:id/results?category=pro-men`: an event's results, by category then place
 * (DNF, DNS, DSQ last), with the fantasy points each is worth. Empty until results are imported;
 * a corrected import replaces them, so they are cached like rankings.
 */
export const loader = (args: LoaderFunctionArgs) =>
  eventListGet(
    args,
    CACHE.live,
    (db, id, category): Promise<ApiResultsResponse["data"]> => listPublicResults(db, id, category),
  );

export const action = apiAction;
