import { publicLeagueRankings } from "@game/db";
import type { LeagueRankingsResponse } from "@game/widgets/client";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiAction, apiGet, CACHE, pageParam, parseParams, queryOf } from "~/utils/api.server";

const params = z.object({ page: pageParam });

/** `GET /api/v1/rankings/leagues?page=2`: mini leagues by total points, 50 a page. */
export const loader = (args: LoaderFunctionArgs) =>
  apiGet(args, CACHE.live, async (url) => {
    const { page } = parseParams(params, queryOf(url, ["page"]));
    const result = await publicLeagueRankings(args.context.db, { page });
    return {
      data: result.rows,
      page: result.page,
      pageCount: result.pageCount,
      pageSize: result.pageSize,
      total: result.total,
    } satisfies LeagueRankingsResponse;
  });

export const action = apiAction;
