import { apiAction } from "~/features/api/api.server";
import { teamEndpoint } from "~/features/api/widget-endpoints.server";

/**
 * `GET /api/v1/teams/:username?event=5`: a player's team, public once the event has locked (12
 * hours before the start), so nobody can copy a rival's picks while teams are still open.
 */
export const loader = teamEndpoint;

export const action = apiAction;
