import type { ApiRacer, Category } from "@game/core";
import { and, asc, eq, type SQL, sql } from "drizzle-orm";
import type { DbOrTx } from "../client.js";
import { racers } from "../schema/index.js";
import { pickedByPercentSql } from "./picks.js";

export type RacerRow = typeof racers.$inferSelect;

/** A racer's public fields: everything but the name key and timestamps. */
export const publicRacerColumns = {
  id: racers.id,
  gameId: racers.gameId,
  category: racers.category,
  firstName: racers.firstName,
  lastName: racers.lastName,
  picture: racers.picture,
  origin: racers.origin,
  rank2024: racers.rank2024,
  totalPoint2024: racers.totalPoint2024,
  price: racers.price,
  pickedByPercent: pickedByPercentSql,
};

/**
 * A racer as the game shows it (table row, grid slot, detail modal): the API's racer (its shape
 * is @game/core's schema) without the previous round's price.
 */
export type PublicRacer = Omit<ApiRacer, "previousPrice">;

/**
 * The spec's order of racers: rank2024 ascending with unranked racers (rank 0) last, then by
 * name, then id, so the order is stable.
 */
export const racerListOrder = [
  sql`(${racers.rank2024} = 0)`,
  asc(racers.rank2024),
  asc(racers.lastName),
  asc(racers.firstName),
  asc(racers.id),
];

/**
 * The racers of one event, optionally of one category, in the spec's order (racerListOrder), as
 * the game shows them (with their "picked by" share).
 */
export function listRacers(
  db: DbOrTx,
  opts: { gameId: number; category?: Category },
): Promise<PublicRacer[]> {
  const where: SQL[] = [eq(racers.gameId, opts.gameId)];
  if (opts.category) where.push(eq(racers.category, opts.category));
  return db
    .select(publicRacerColumns)
    .from(racers)
    .where(and(...where))
    .orderBy(...racerListOrder);
}
