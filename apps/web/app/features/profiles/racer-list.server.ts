/** /view-racers: the current game's racers of one category and their previous round's prices. */
import type { Category } from "@game/core";
import { listRacers, previousRoundPrices } from "@game/db";
import type { AppLoadContext } from "@remix-run/node";

export async function racerList(context: AppLoadContext, gameId: number, category: Category) {
  const [rows, previous] = await Promise.all([
    listRacers(context.readDb, { gameId, category }),
    previousRoundPrices(context.readDb, gameId),
  ]);
  return { rows, previous };
}
