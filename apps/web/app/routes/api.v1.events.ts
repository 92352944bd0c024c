import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiEvents } from "~/features/api/public-api.server";
import { apiAction, apiGet, CACHE } from "~/utils/api.server";

/** `GET /api/v1/events`: the season's events. */
export const loader = (args: LoaderFunctionArgs) =>
  apiGet(args, CACHE.catalogue, () => apiEvents(args));

export const action = apiAction;
