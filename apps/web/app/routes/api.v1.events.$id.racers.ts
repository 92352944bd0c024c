import type { ApiRacersResponse } from "@game/core";
import { listPublicRacers } from "@game/db";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiAction, CACHE, eventListGet } from "~/utils/api.server";

/** `GET /api/v1/events/:id/racers?category=pro-women`: an event's racers, best ranked first. */
export const loader = (args: LoaderFunctionArgs) =>
  eventListGet(
    args,
    CACHE.catalogue,
    (db, id, category): Promise<ApiRacersResponse["data"]> => listPublicRacers(db, id, category),
  );

export const action = apiAction;
