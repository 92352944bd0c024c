import { apiAction } from "~/features/api/api.server";
import { eventsEndpoint } from "~/features/api/widget-endpoints.server";

/** `GET /api/v1/events?competition=<slug>`: the events, all or one competition's rounds. */
export const loader = eventsEndpoint;

export const action = apiAction;
