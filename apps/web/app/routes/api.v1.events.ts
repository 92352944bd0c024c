import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiAction, apiGet, CACHE } from "~/features/api/api.server";
import { apiEvents } from "~/features/api/public-api.server";

/** `GET /api/v1/events?competition=<slug>`: the events, all or one competition's rounds. */
export const loader = (args: LoaderFunctionArgs) =>
  apiGet(args, CACHE.catalogue, (url) => apiEvents(args, url));

export const action = apiAction;
