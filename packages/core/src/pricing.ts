/*
 * The published pricing rule: how a racer's price moves from one round of a series to the next,
 * from their result in the round just raced (docs/decisions/0100). Pure, so the About page, the
 * season advance and the property tests all state the same rule.
 */

/** No price goes below this by the rule (a cheap racer stays affordable, never free). */
export const PRICE_MIN = 50_000;
/** No price goes above this by the rule (one star never eats half the 1,000,000 budget). */
export const PRICE_MAX = 500_000;
/** Prices move in whole thousands. */
export const PRICE_STEP = 1_000;

/** A racer's result in the round, as the results file said (null: not in the results at all). */
export type PricingResult =
  | { status: "finished"; position: number }
  | { status: "DNF" | "DNS" | "DSQ"; position?: null }
  | null;

/** The bands of the rule, best first: what a result does to the price, in percent. */
export const PRICE_BANDS = [
  { id: "podium", label: "Podium (1st to 3rd)", percent: 15 },
  { id: "top10", label: "Top 10 (4th to 10th)", percent: 8 },
  { id: "top20", label: "11th to 20th", percent: 0 },
  { id: "finished", label: "Finished below 20th", percent: -5 },
  { id: "dnf", label: "Did not finish (DNF)", percent: -10 },
  { id: "dns", label: "Did not start, disqualified or no result (DNS, DSQ)", percent: -15 },
] as const;

export type PriceBand = (typeof PRICE_BANDS)[number]["id"];

/** Which band a result falls in. */
export function priceBand(result: PricingResult): PriceBand {
  if (!result) return "dns";
  switch (result.status) {
    case "finished":
      if (result.position <= 3) return "podium";
      if (result.position <= 10) return "top10";
      if (result.position <= 20) return "top20";
      return "finished";
    case "DNF":
      return "dnf";
    default:
      return "dns";
  }
}

/** The percentage a band moves the price by. */
export function bandPercent(band: PriceBand): number {
  return PRICE_BANDS.find((b) => b.id === band)!.percent;
}

/** Rounds to the nearest 1,000 (halves up). */
export function roundPrice(value: number): number {
  return Math.floor(value / PRICE_STEP + 0.5) * PRICE_STEP;
}

/**
 * The racer's price for the next round: the band's percentage applied to today's price, rounded
 * to the nearest 1,000 and kept within 50,000..500,000. The bound never moves a price against the
 * result: a rise never lowers a price an admin set above the maximum, a fall never raises one set
 * below the minimum.
 */
export function nextPrice(
  price: number,
  result: PricingResult,
  bounds: { min: number; max: number } = { min: PRICE_MIN, max: PRICE_MAX },
): number {
  const percent = bandPercent(priceBand(result));
  if (percent === 0) return price;
  const raw = roundPrice(price * (1 + percent / 100));
  const bounded = Math.min(bounds.max, Math.max(bounds.min, raw));
  return percent > 0 ? Math.max(price, bounded) : Math.min(price, bounded);
}
