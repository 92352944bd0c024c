import { type ApiRacersResponse, categoryFromSlug } from "@game/core";
import { getPublicEvent, listPublicRacers } from "@game/db";
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

/** `GET /api/v1/events/:id/racers?category=pro-women`: an event's racers, best ranked first. */
export const loader = (args: LoaderFunctionArgs) =>
  apiGet(args, CACHE.catalogue, async (url) => {
    const { id, category } = parseParams(params, {
      id: args.params.id,
      ...queryOf(url, ["category"]),
    });
    const event = await getPublicEvent(args.context.readDb, id);
    if (!event) throw notFound("event_not_found", `There is no event ${id}.`);
    const racers = await listPublicRacers(
      args.context.readDb,
      id,
      category ? categoryFromSlug(category) : undefined,
    );
    return { data: racers, eventId: id, category: category ?? null } satisfies ApiRacersResponse;
  });

export const action = apiAction;
