/**
 * `@game/widgets/helpers`: the package's pure functions and constants. No React and no
 * `"use client"` marker (unlike the component entries), so React Server Components and other
 * server code can call them: a server component that calls `formatPrice` from a `"use client"`
 * entry gets a client reference instead of the function, and fails with "Attempted to call
 * formatPrice() from the server". The component entries re-export the same helpers for client code.
 */

export { EVENT_STATUS_LABELS } from "./events.js";
export {
  assetUrl,
  formatEventDate,
  formatPoints,
  formatPrice,
  portraitUrl,
  racerName,
} from "./format.js";
export { type Avatar, racerAvatar } from "./internal/avatar.js";
export {
  DEFAULT_CATEGORY,
  DEFAULT_RACER_SORT,
  pickedByText,
  priceChangeText,
  type RacerSort,
  type RacerSortKey,
  type SortDirection,
  sortRacers,
} from "./racers.js";
export { ANONYMOUS, samePlayer } from "./rankings.js";
export type * from "./types.js";
export { CATEGORIES, CATEGORY_SLUGS, toCategorySlug } from "./types.js";
