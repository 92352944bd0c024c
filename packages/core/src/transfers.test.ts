/* Transfers and the wildcard (docs/decisions/0170): FPL's account, one round at a time. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_RULES, describeRules } from "./rules.js";
import { competitionRulesSchema } from "./rules-schema.js";
import { transferRound } from "./team.js";

const FPL = { ...DEFAULT_RULES, transfers: { free: 1, bank: 5, cost: 4 }, wildcard: true };

describe("transferRound", () => {
  it("leaves the spec's game unlimited", () => {
    expect(transferRound(3, 6, false, DEFAULT_RULES)).toEqual({
      available: null,
      changes: 6,
      extra: 0,
      cost: 0,
      left: null,
    });
  });

  it("makes a team's first round free, then gives one free change a round", () => {
    const first = transferRound(null, 6, false, FPL);
    expect(first).toEqual({ available: null, changes: 6, extra: 0, cost: 0, left: 0 });
    expect(transferRound(first.left, 1, false, FPL)).toMatchObject({
      available: 1,
      cost: 0,
      left: 0,
    });
    expect(transferRound(0, 3, false, FPL)).toMatchObject({
      available: 1,
      extra: 2,
      cost: 8,
      left: 0,
    });
  });

  it("keeps unused free changes up to the bank", () => {
    expect(transferRound(0, 0, false, FPL).left).toBe(1);
    expect(transferRound(1, 0, false, FPL).left).toBe(2);
    expect(transferRound(5, 0, false, FPL)).toMatchObject({ available: 5, left: 5 });
    expect(transferRound(2, 2, false, FPL)).toMatchObject({ available: 3, cost: 0, left: 1 });
  });

  it("the wildcard makes a round's changes free and keeps the banked ones", () => {
    expect(transferRound(2, 6, true, FPL)).toEqual({
      available: 3,
      changes: 6,
      extra: 0,
      cost: 0,
      left: 3,
    });
    // Without the wildcard option in the rules, asking for it changes nothing.
    expect(transferRound(2, 6, true, { ...FPL, wildcard: false })).toMatchObject({ cost: 12 });
  });

  it("property: over a season the account never goes below 0 or above the bank, and every extra change costs", () => {
    fc.assert(
      fc.property(
        fc.record({ free: fc.nat(4), more: fc.nat(4), cost: fc.nat(20) }),
        fc.array(fc.record({ changes: fc.nat(7), wildcard: fc.boolean() }), { maxLength: 12 }),
        ({ free, more, cost }, rounds) => {
          const rules = { ...FPL, transfers: { free, bank: free + more, cost } };
          let left: number | null = null;
          let wildcards = 0;
          for (const r of rounds) {
            const wildcard = r.wildcard && wildcards === 0;
            if (wildcard) wildcards += 1;
            const out = transferRound(left, r.changes, wildcard, rules);
            expect(out.cost).toBe(out.extra * cost);
            expect(out.extra).toBeLessThanOrEqual(r.changes);
            if (out.available !== null) {
              expect(out.available).toBeLessThanOrEqual(free + more);
              if (!wildcard) expect(out.extra).toBe(Math.max(0, r.changes - out.available));
            }
            expect(out.left).not.toBeNull();
            expect(out.left!).toBeGreaterThanOrEqual(0);
            expect(out.left!).toBeLessThanOrEqual(free + more);
            left = out.left;
          }
        },
      ),
    );
  });
});

describe("the transfer rules", () => {
  it("are stated in words, and must make sense", () => {
    expect(describeRules(FPL)).toEqual(
      expect.arrayContaining([
        "From round 2, your team has 1 free change a round; unused ones are kept, up to 5; each extra change costs 4 points. Your first round's picks are free.",
        "Once per competition you can play your wildcard: that round's changes are all free.",
      ]),
    );
    expect(
      competitionRulesSchema.safeParse({ ...FPL, transfers: { free: 2, bank: 1, cost: 4 } })
        .success,
    ).toBe(false);
    expect(competitionRulesSchema.safeParse({ ...DEFAULT_RULES, wildcard: true }).success).toBe(
      false,
    );
    const { transfers: _t, wildcard: _w, ...stored } = DEFAULT_RULES;
    expect(competitionRulesSchema.parse(stored)).toMatchObject({
      transfers: null,
      wildcard: false,
    });
  });
});
