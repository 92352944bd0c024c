import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  nextPrice,
  PRICE_MAX,
  PRICE_MIN,
  type PricingResult,
  priceBand,
  roundPrice,
} from "./pricing.js";

/** Prices the game actually holds: whole thousands, some outside the rule's bounds (admin set). */
const price = fc.integer({ min: 1, max: 900 }).map((k) => k * 1_000);
const inRange = fc
  .integer({ min: PRICE_MIN / 1_000, max: PRICE_MAX / 1_000 })
  .map((k) => k * 1_000);
const result: fc.Arbitrary<PricingResult> = fc.oneof(
  fc.integer({ min: 1, max: 200 }).map((position) => ({ status: "finished" as const, position })),
  fc.constantFrom("DNF" as const, "DNS" as const, "DSQ" as const).map((status) => ({ status })),
  fc.constant(null),
);

describe("nextPrice", () => {
  it("moves podium and top-10 finishers up, DNF/DNS/DSQ and no result down", () => {
    fc.assert(
      fc.property(inRange, result, (p, r) => {
        const next = nextPrice(p, r);
        const band = priceBand(r);
        if (band === "podium" || band === "top10") {
          expect(next).toBeGreaterThanOrEqual(p);
          if (p < PRICE_MAX) expect(next).toBeGreaterThan(p);
        } else if (band === "top20") {
          expect(next).toBe(p);
        } else {
          expect(next).toBeLessThanOrEqual(p);
          if (p > PRICE_MIN) expect(next).toBeLessThan(p);
        }
      }),
    );
  });

  it("keeps prices in whole thousands within 50,000..500,000 (starting in range)", () => {
    fc.assert(
      fc.property(inRange, result, (p, r) => {
        const next = nextPrice(p, r);
        expect(next % 1_000).toBe(0);
        expect(next).toBeGreaterThanOrEqual(PRICE_MIN);
        expect(next).toBeLessThanOrEqual(PRICE_MAX);
      }),
    );
  });

  it("never moves a price against the result, even one an admin set outside the bounds", () => {
    fc.assert(
      fc.property(price, result, (p, r) => {
        const next = nextPrice(p, r);
        const band = priceBand(r);
        if (band === "podium" || band === "top10") expect(next).toBeGreaterThanOrEqual(p);
        else expect(next).toBeLessThanOrEqual(p);
      }),
    );
  });

  it("rewards a better place at least as much as a worse one", () => {
    fc.assert(
      fc.property(
        inRange,
        fc.integer({ min: 1, max: 100 }),
        fc.integer({ min: 1, max: 100 }),
        (p, a, b) => {
          const [better, worse] = a <= b ? [a, b] : [b, a];
          expect(nextPrice(p, { status: "finished", position: better })).toBeGreaterThanOrEqual(
            nextPrice(p, { status: "finished", position: worse }),
          );
          // Finishing, however far back, is never worse than not finishing.
          expect(nextPrice(p, { status: "finished", position: worse })).toBeGreaterThanOrEqual(
            nextPrice(p, { status: "DNF" }),
          );
          expect(nextPrice(p, { status: "DNF" })).toBeGreaterThanOrEqual(nextPrice(p, null));
        },
      ),
    );
  });

  it("is the worked example of the About page", () => {
    expect(nextPrice(320_000, { status: "finished", position: 1 })).toBe(368_000);
    expect(nextPrice(150_000, { status: "finished", position: 7 })).toBe(162_000);
    expect(nextPrice(95_000, { status: "finished", position: 15 })).toBe(95_000);
    expect(nextPrice(75_000, { status: "finished", position: 31 })).toBe(71_000);
    expect(nextPrice(210_000, { status: "DNF" })).toBe(189_000);
    expect(nextPrice(55_000, { status: "DNS" })).toBe(50_000);
    expect(nextPrice(480_000, { status: "finished", position: 2 })).toBe(500_000);
  });

  it("rounds halves up", () => {
    expect(roundPrice(71_250)).toBe(71_000);
    expect(roundPrice(71_500)).toBe(72_000);
  });
});
