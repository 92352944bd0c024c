import type { ApiTeamResponse } from "@game/core";
import { getPublicTeam } from "@game/db";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import {
  ApiError,
  apiAction,
  apiGet,
  CACHE,
  idParam,
  notFound,
  parseParams,
  queryOf,
} from "~/utils/api.server";

const params = z.object({
  username: z
    .string({ error: "username is required." })
    .trim()
    .min(1, "username is required.")
    .max(64, "username is too long."),
  event: idParam("event").optional(),
});

/**
 * `GET /api/v1/teams/:username?event=5`: a player's team, public once the event has locked (12
 * hours before the start), so nobody can copy a rival's picks while teams are still open.
 */
export const loader = (args: LoaderFunctionArgs) =>
  apiGet(args, CACHE.live, async (url) => {
    const { username, event } = parseParams(params, {
      username: args.params.username,
      ...queryOf(url, ["event"]),
    });
    const result = await getPublicTeam(args.context.readDb, {
      username,
      eventId: event,
      now: args.context.now(),
    });
    if (result.ok) return { data: result.team } satisfies ApiTeamResponse;
    switch (result.reason) {
      case "not-locked":
        throw new ApiError(
          403,
          "team_private",
          `Teams stay private until the event locks at ${result.locksAt.toISOString()}.`,
        );
      case "user-not-found":
        throw notFound("player_not_found", "There is no player with that username.");
      case "event-not-found":
        throw notFound("event_not_found", `There is no event ${event}.`);
      case "team-not-found":
        throw notFound("team_not_found", "This player has no team for that event.");
    }
  });

export const action = apiAction;
