import { apiAction } from "~/features/api/api.server";
import { eventRacersEndpoint } from "~/features/api/widget-endpoints.server";

/** `GET /api/v1/events/:id/racers?category=pro-women`: an event's racers, best ranked first. */
export const loader = eventRacersEndpoint;

export const action = apiAction;
