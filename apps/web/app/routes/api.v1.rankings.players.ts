import type { ApiPlayerRankingsResponse } from "@game/core";
import { getPublicEvent, publicPlayerRankings } from "@game/db";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import {
  apiAction,
  apiGet,
  CACHE,
  idParam,
  notFound,
  pageParam,
  pageSizeParam,
  parseParams,
  queryOf,
} from "~/utils/api.server";

const params = z.object({
  event: idParam("event").optional(),
  page: pageParam,
  pageSize: pageSizeParam,
});

/**
 * `GET /api/v1/rankings/players?event=5&page=2`: the season ranking, or one event's with
 * `event`; 50 players a page by default (`pageSize`, 1 to 100); a page past the last is empty. Anonymous: the public API never reads a session, so answers can be
 * cached by CDNs.
 */
export const loader = (args: LoaderFunctionArgs) =>
  apiGet(
    args,
    CACHE.live,
    async (url) => {
      const { event, page, pageSize } = parseParams(
        params,
        queryOf(url, ["event", "page", "pageSize"]),
      );
      if (event !== undefined && !(await getPublicEvent(args.context.readDb, event))) {
        throw notFound("event_not_found", `There is no event ${event}.`);
      }
      const result = await publicPlayerRankings(args.context.readDb, {
        page,
        pageSize,
        eventId: event,
      });
      return {
        data: result.rows,
        page: result.page,
        pageCount: result.pageCount,
        pageSize: result.pageSize,
        total: result.total,
        eventId: event ?? null,
      } satisfies ApiPlayerRankingsResponse;
    },
    { ranking: "players" },
  );

export const action = apiAction;
