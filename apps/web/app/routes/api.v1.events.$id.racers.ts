import { apiAction } from "~/features/api/api.server";
import { apiEventRacers } from "~/features/api/public-api.server";

/** `GET /api/v1/events/:id/racers?category=pro-women`: an event's racers, best ranked first. */
export const loader = apiEventRacers;

export const action = apiAction;
