import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiAction, apiGet, CACHE } from "~/features/api/api.server";
import { apiCompetitionBySlug } from "~/features/api/public-api.server";

/** `GET /api/v1/competitions/:slug`: one competition with its rules, rounds and state. */
export const loader = (args: LoaderFunctionArgs) =>
  apiGet(args, CACHE.catalogue, () => apiCompetitionBySlug(args));

export const action = apiAction;
