import type { ApiLeagueRankingsResponse } from "@game/core";
import { publicLeagueRankings } from "@game/db";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import {
  apiAction,
  apiGet,
  CACHE,
  pageParam,
  pageSizeParam,
  parseParams,
  queryOf,
} from "~/utils/api.server";

const params = z.object({ page: pageParam, pageSize: pageSizeParam });

/**
 * `GET /api/v1/rankings/leagues?page=2&pageSize=20`: mini leagues by total points, 50 a page by
 * default; a page past the last is empty.
 */
export const loader = (args: LoaderFunctionArgs) =>
  apiGet(
    args,
    CACHE.live,
    async (url) => {
      const { page, pageSize } = parseParams(params, queryOf(url, ["page", "pageSize"]));
      const result = await publicLeagueRankings(args.context.readDb, { page, pageSize });
      return {
        data: result.rows,
        page: result.page,
        pageCount: result.pageCount,
        pageSize: result.pageSize,
        total: result.total,
      } satisfies ApiLeagueRankingsResponse;
    },
    { ranking: "leagues" },
  );

export const action = apiAction;
