import { type ApiResultsResponse, categoryFromSlug } from "@game/core";
import { getPublicEvent, listPublicResults } from "@game/db";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import {
  apiAction,
  apiGet,
  CACHE,
  categoryParam,
  idParam,
  notFound,
  parseParams,
  queryOf,
} from "~/utils/api.server";

const params = z.object({ id: idParam("event id"), category: categoryParam.optional() });

/**
 * `GET /api/v1/events/:id/results?category=pro-men`: an event's results, by category then place
 * (DNF, DNS, DSQ last), with the fantasy points each is worth. Empty until results are imported;
 * a corrected import replaces them, so they are cached like rankings.
 */
export const loader = (args: LoaderFunctionArgs) =>
  apiGet(args, CACHE.live, async (url) => {
    const { id, category } = parseParams(params, {
      id: args.params.id,
      ...queryOf(url, ["category"]),
    });
    const event = await getPublicEvent(args.context.readDb, id);
    if (!event) throw notFound("event_not_found", `There is no event ${id}.`);
    const results = await listPublicResults(
      args.context.readDb,
      id,
      category ? categoryFromSlug(category) : undefined,
    );
    return { data: results, eventId: id, category: category ?? null } satisfies ApiResultsResponse;
  });

export const action = apiAction;
