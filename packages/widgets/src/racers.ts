/**
 * Racer ordering and price wording: pure functions, no React. Used by `RacerTable` and exported
 * from `@game/widgets/helpers` for servers (React Server Components) that want the same order.
 */
import { formatPrice } from "./format.js";
import type { Category, Racer } from "./types.js";

export type RacerSortKey = "rank" | "name" | "price";
export type SortDirection = "asc" | "desc";
export interface RacerSort {
  key: RacerSortKey;
  direction: SortDirection;
}

/** The spec's order: rank2024 ascending, unranked (0) last. */
export const DEFAULT_RACER_SORT: RacerSort = { key: "rank", direction: "asc" };
export const DEFAULT_CATEGORY: Category = "Pro Men";

const byName = (a: Racer, b: Racer) =>
  a.lastName.localeCompare(b.lastName, "en", { sensitivity: "base" }) ||
  a.firstName.localeCompare(b.firstName, "en", { sensitivity: "base" }) ||
  a.id - b.id;

/** Sorts a copy of `racers`. Unranked racers (rank 0) always come last when sorting by rank. */
export function sortRacers(
  racers: readonly Racer[],
  sort: RacerSort = DEFAULT_RACER_SORT,
): Racer[] {
  const sign = sort.direction === "desc" ? -1 : 1;
  const ranked = (r: Racer) => r.rank2024 > 0;
  return [...racers].sort((a, b) => {
    if (sort.key === "rank") {
      if (ranked(a) !== ranked(b)) return ranked(a) ? -1 : 1;
      return sign * (a.rank2024 - b.rank2024) || byName(a, b);
    }
    if (sort.key === "price") return sign * (a.price - b.price) || byName(a, b);
    return sign * byName(a, b);
  });
}

/**
 * The share of the round's teams holding the racer ("23.4%"); a dash before the round's first
 * count.
 */
export function pickedByText(racer: Pick<Racer, "pickedByPercent">): string {
  return racer.pickedByPercent == null ? "\u2013" : `${racer.pickedByPercent}%`;
}

/** The change since the previous round's price, in words a screen reader reads well. */
export function priceChangeText(racer: Pick<Racer, "price" | "previousPrice">): string {
  if (racer.previousPrice == null) return "New";
  const change = racer.price - racer.previousPrice;
  if (change === 0) return "No change";
  return change > 0 ? `+${formatPrice(change)}` : `-${formatPrice(-change)}`;
}
