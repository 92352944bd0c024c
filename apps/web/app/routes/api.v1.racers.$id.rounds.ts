import type { ApiRacerRoundsResponse } from "@game/core";
import { listRacerRounds } from "@game/db";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiAction, apiGet, CACHE, idParam, notFound, parseParams } from "~/utils/api.server";

const params = z.object({ id: idParam("racer id") });

/**
 * `GET /api/v1/racers/:id/rounds`: the racer's entry in every round of their series (price,
 * started or withdrawn, result, fantasy points once scored), in race order.
 */
export const loader = (args: LoaderFunctionArgs) =>
  apiGet(args, CACHE.catalogue, async () => {
    const { id } = parseParams(params, { id: args.params.id });
    const rounds = await listRacerRounds(args.context.readDb, id);
    if (!rounds) throw notFound("racer_not_found", `There is no racer ${id}.`);
    return {
      data: rounds.map((r) => ({ ...r, startsAt: r.startsAt.toISOString() })),
      racerId: id,
    } satisfies ApiRacerRoundsResponse;
  });

export const action = apiAction;
