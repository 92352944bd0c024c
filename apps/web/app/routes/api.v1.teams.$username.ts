import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiAction, apiGet, CACHE } from "~/features/api/api.server";
import { apiTeam } from "~/features/api/public-api.server";

/**
 * `GET /api/v1/teams/:username?event=5`: a player's team, public once the event has locked (12
 * hours before the start), so nobody can copy a rival's picks while teams are still open.
 */
export const loader = (args: LoaderFunctionArgs) =>
  apiGet(args, CACHE.live, (url) => apiTeam(args, url));

export const action = apiAction;
