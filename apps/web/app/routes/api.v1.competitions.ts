import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiAction, apiGet, CACHE } from "~/features/api/api.server";
import { apiCompetitions } from "~/features/api/public-api.server";

/** `GET /api/v1/competitions`: every competition with its rules, rounds and state. */
export const loader = (args: LoaderFunctionArgs) =>
  apiGet(args, CACHE.catalogue, () => apiCompetitions(args));

export const action = apiAction;
