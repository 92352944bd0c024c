import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiEventRacers } from "~/features/api/public-api.server";
import { apiAction, CACHE, eventListGet } from "~/utils/api.server";

/** `GET /api/v1/events/:id/racers?category=pro-women`: an event's racers, best ranked first. */
export const loader = (args: LoaderFunctionArgs) =>
  eventListGet(args, CACHE.catalogue, apiEventRacers);

export const action = apiAction;
