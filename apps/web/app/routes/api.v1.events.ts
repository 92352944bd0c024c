import type { ApiEventsResponse } from "@game/core";
import { listPublicEvents } from "@game/db";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { absoluteUrl, apiAction, apiGet, CACHE } from "~/utils/api.server";

/** `GET /api/v1/events`: the season's events. */
export const loader = (args: LoaderFunctionArgs) =>
  apiGet(args, CACHE.catalogue, async () => {
    const list = await listPublicEvents(args.context.readDb);
    return {
      data: list.map((e) => ({
        id: e.id,
        name: e.name,
        cover: absoluteUrl(e.cover, args.request, args.context),
        logo: absoluteUrl(e.logo, args.request, args.context),
        description: e.description,
        status: e.status,
        startsAt: e.startsAt.toISOString(),
      })),
    } satisfies ApiEventsResponse;
  });

export const action = apiAction;
