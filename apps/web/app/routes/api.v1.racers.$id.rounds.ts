import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiAction, apiGet, CACHE } from "~/features/api/api.server";
import { apiRacerRounds } from "~/features/api/public-api.server";

/**
 * `GET /api/v1/racers/:id/rounds`: the racer's entry in every round of their series (price,
 * started or withdrawn, result, fantasy points once scored), in race order.
 */
export const loader = (args: LoaderFunctionArgs) =>
  apiGet(args, CACHE.catalogue, () => apiRacerRounds(args));

export const action = apiAction;
