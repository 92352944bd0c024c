import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BUDGET } from "./constants.js";
import { PRICE_STEP } from "./pricing.js";
import {
  budgetAfterSave,
  draftPrice,
  type HeldRacer,
  sellingPrice,
  teamWorth,
} from "./selling-price.js";

/** Prices as the game holds them: mostly whole thousands, sometimes not (an admin's import). */
const price = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 50, max: 500 }).map((k) => k * 1_000) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 600_000 }) },
);

describe("sellingPrice", () => {
  it("refunds today's price after a fall, the price paid plus half the rise after a rise", () => {
    expect(sellingPrice(60_000, 57_000)).toBe(57_000);
    expect(sellingPrice(320_000, 288_000)).toBe(288_000);
    expect(sellingPrice(60_000, 60_000)).toBe(60_000);
    expect(sellingPrice(60_000, 67_000)).toBe(63_000);
    expect(sellingPrice(60_000, 61_999)).toBe(60_000);
    expect(sellingPrice(60_000, 62_000)).toBe(61_000);
  });

  it("is never above today's price nor the price paid plus half the rise, never below both", () => {
    fc.assert(
      fc.property(price, price, (paid, now) => {
        const s = sellingPrice(paid, now);
        expect(Number.isSafeInteger(s)).toBe(true);
        expect(s).toBeLessThanOrEqual(now);
        expect(s).toBeGreaterThanOrEqual(Math.min(paid, now));
        if (now > paid) expect(s - paid).toBeLessThanOrEqual((now - paid) / 2);
        if (now > paid) expect((s - paid) % 1_000).toBe(0);
      }),
      { numRuns: 1_000 },
    );
  });

  it("moves with today's price, never by more than it (to the price step)", () => {
    fc.assert(
      fc.property(price, price, price, (paid, a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        const moved = sellingPrice(paid, hi) - sellingPrice(paid, lo);
        expect(moved).toBeGreaterThanOrEqual(0);
        // Half a rise is rounded down to the 1,000 step, so between two prices off the step
        // (272,001 and 273,000) the selling price can move by one whole step.
        expect(moved).toBeLessThanOrEqual(Math.ceil((hi - lo) / 1_000) * 1_000);
      }),
      { numRuns: 1_000 },
    );
  });
});

/** A player's saved team: its budget and what was paid for each racer held, by id. */
interface Saved {
  budget: number;
  paid: Map<number, number>;
}

const heldOf = (t: Saved, prices: readonly number[]) =>
  new Map<number, HeldRacer>([...t.paid].map(([id, paid]) => [id, { paid, now: prices[id]! }]));
const bankOf = (t: Saved) => t.budget - [...t.paid.values()].reduce((s, p) => s + p, 0);
/** What the player has by any measure that ignores the rule: bank + the team at today's prices. */
const marketOf = (t: Saved, prices: readonly number[]) =>
  bankOf(t) + [...t.paid.keys()].reduce((s, id) => s + prices[id]!, 0);
const worthOf = (t: Saved, prices: readonly number[]) =>
  teamWorth(t.budget, heldOf(t, prices).values());

/**
 * A save as the server makes it: the draft judged against the team's worth with each racer at
 * its draft price; when it fits, the budget moves by the sales and kept racers keep their price
 * paid. Null when refused (over budget).
 */
function save(t: Saved, draft: readonly number[], prices: readonly number[]) {
  const held = heldOf(t, prices);
  const worth = teamWorth(t.budget, held.values());
  const cost = draft.reduce((s, id) => s + draftPrice(prices[id]!, held.get(id)), 0);
  if (cost > worth) return null;
  const next: Saved = {
    budget: budgetAfterSave(t.budget, held, draft),
    paid: new Map(draft.map((id) => [id, held.get(id)?.paid ?? prices[id]!])),
  };
  return { next, bank: worth - cost };
}

const POOL = 10;
type Step = { kind: "save"; draft: number[] } | { kind: "price"; id: number; price: number };
const step: fc.Arbitrary<Step> = fc.oneof(
  fc
    .uniqueArray(fc.integer({ min: 0, max: POOL - 1 }), { maxLength: 6 })
    .map((draft) => ({ kind: "save" as const, draft })),
  fc
    .record({ id: fc.integer({ min: 0, max: POOL - 1 }), price })
    .map((r) => ({ kind: "price" as const, ...r })),
);

describe("saves and price moves", () => {
  it("alice: selling a fallen racer and buying him back does not raise the bank", () => {
    // Gwin (id 0) paid 60,000 of a team costing 988,000: a 12,000 bank.
    const prices = [60_000, 928_000];
    const team: Saved = {
      budget: BUDGET,
      paid: new Map([
        [0, 60_000],
        [1, 928_000],
      ]),
    };
    expect(bankOf(team)).toBe(12_000);
    prices[0] = 57_000;
    const sold = save(team, [1], prices)!;
    expect(sold.bank).toBe(12_000 + 57_000);
    const back = save(sold.next, [1, 0], prices)!;
    expect(back.bank).toBe(12_000);
    expect(bankOf(back.next)).toBe(12_000);
    expect(back.next.budget).toBe(BUDGET - 3_000);
  });

  it("a move of 1 across a step moves a held racer's worth by the whole step", () => {
    // Paid 5,001; at 413,001 half the rise is 204,000, at 413,000 it rounds down to 203,000.
    const worth = (now: number) => teamWorth(BUDGET, [{ paid: 5_001, now }]);
    expect(worth(413_001) - worth(413_000)).toBe(PRICE_STEP);
  });

  it("no sequence of saves raises bank + team value unless a price rose", () => {
    fc.assert(
      fc.property(
        fc.array(price, { minLength: POOL, maxLength: POOL }),
        fc.array(step, { maxLength: 40 }),
        (start, steps) => {
          const prices = [...start];
          let team: Saved = { budget: BUDGET, paid: new Map() };
          const first = { worth: worthOf(team, prices), market: marketOf(team, prices) };
          let rose = false;
          for (const s of steps) {
            const before = { worth: worthOf(team, prices), market: marketOf(team, prices) };
            if (s.kind === "save") {
              const saved = save(team, s.draft, prices);
              if (!saved) continue;
              team = saved.next;
              // The bank the save reports is the one stored, and never negative.
              expect(bankOf(team)).toBe(saved.bank);
              expect(saved.bank).toBeGreaterThanOrEqual(0);
              // A save only moves money between the bank and the team: it never creates any.
              expect(worthOf(team, prices)).toBe(before.worth);
              expect(marketOf(team, prices)).toBeLessThanOrEqual(before.market);
            } else {
              const move = s.price - prices[s.id]!;
              rose ||= move > 0;
              prices[s.id] = s.price;
              const moved = worthOf(team, prices) - before.worth;
              // A price move changes what the team is worth its way, and by no more than itself
              // to the price step: half a rise is rounded down to the step, so a move of 1 across
              // a step (413,001 to 413,000 after paying 5,001) takes a whole step off the worth.
              if (move <= 0) expect(moved).toBeLessThanOrEqual(0);
              if (move >= 0) expect(moved).toBeGreaterThanOrEqual(0);
              expect(Math.abs(moved)).toBeLessThanOrEqual(
                Math.ceil(Math.abs(move) / PRICE_STEP) * PRICE_STEP,
              );
            }
          }
          if (!rose) {
            expect(worthOf(team, prices)).toBeLessThanOrEqual(first.worth);
            expect(marketOf(team, prices)).toBeLessThanOrEqual(first.market);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
