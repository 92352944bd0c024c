import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Category } from "./categories.js";
import {
  cheapestTeamCost,
  competitionInputSchema,
  competitionSlug,
  competitionState,
  parseDiscipline,
  rulesLocked,
  withRuleChanges,
} from "./competitions.js";
import { DEFAULT_RULES } from "./rules.js";
import { competitionRulesSchema } from "./rules-schema.js";
import { validateTeam } from "./team.js";

const XC = withRuleChanges(DEFAULT_RULES, {
  budget: 1_500_000,
  minWomen: 3,
  maxWomen: 3,
  minJuniors: 0,
});

describe("competitionState", () => {
  const round = (status: "open" | "closed" | "archived", extra = {}) => ({
    status,
    startsAt: "2027-05-01T10:00:00Z",
    ...extra,
  });
  it("follows the rounds", () => {
    expect(competitionState({}, [])).toBe("upcoming");
    expect(competitionState({}, [round("closed"), round("closed")])).toBe("upcoming");
    expect(competitionState({}, [round("open"), round("closed")])).toBe("live");
    expect(
      competitionState({}, [round("closed", { settledAt: "2027-05-02" }), round("closed")]),
    ).toBe("live");
    expect(competitionState({}, [round("archived"), round("open", { settledAt: 1 })])).toBe(
      "finished",
    );
    expect(competitionState({ archivedAt: new Date() }, [round("open")])).toBe("archived");
  });
});

describe("rulesLocked", () => {
  const rounds = [{ status: "closed" as const, startsAt: "2027-05-01T12:00:00Z" }];
  it("locks the rules at the first lock, as the round's own lock hours say", () => {
    expect(rulesLocked(rounds, { lockHours: 12 }, new Date("2027-04-30T23:59:59Z"))).toBe(false);
    expect(rulesLocked(rounds, { lockHours: 12 }, new Date("2027-05-01T00:00:00Z"))).toBe(true);
    expect(rulesLocked(rounds, { lockHours: 2 }, new Date("2027-05-01T09:00:00Z"))).toBe(false);
    expect(
      rulesLocked([{ ...rounds[0]!, frozenAt: 1 }], { lockHours: 12 }, new Date("2020-01-01")),
    ).toBe(true);
    expect(rulesLocked([], { lockHours: 12 }, new Date())).toBe(false);
  });
});

describe("competition input", () => {
  it("slugs names and reads the CLI's disciplines", () => {
    expect(competitionSlug("Pro Downhill Series 2028")).toBe("pro-downhill-series-2028");
    expect(competitionSlug("  Coupe de France VTT – Les Gets! ")).toBe(
      "coupe-de-france-vtt-les-gets",
    );
    expect(parseDiscipline("XC")).toBe("cross-country");
    expect(parseDiscipline("dh")).toBe("downhill");
    expect(parseDiscipline("bmx")).toBeUndefined();
    expect(competitionInputSchema.safeParse({ name: "!!", discipline: "downhill" }).success).toBe(
      false,
    );
    expect(competitionInputSchema.parse({ name: " XC Cup ", discipline: "cross-country" })).toEqual(
      { name: "XC Cup", discipline: "cross-country", season: "", description: "" },
    );
  });

  it("expresses an XC competition of exactly 3 men and 3 women with a 1,500,000 budget", () => {
    expect(competitionRulesSchema.safeParse(XC).success).toBe(true);
    const racers = [
      ...[1, 2, 3, 4].map((id) => ({
        id,
        gameId: 1,
        category: "Pro Women" as const,
        price: 100_000,
      })),
      ...[5, 6, 7, 8].map((id) => ({
        id,
        gameId: 1,
        category: "Pro Men" as const,
        price: 100_000,
      })),
    ];
    expect(validateTeam([1, 2, 3, 5, 6, 7], racers, { gameId: 1, rules: XC }).ok).toBe(true);
    const four = validateTeam([1, 2, 3, 4, 5, 6], racers, { gameId: 1, rules: XC });
    expect(four.ok).toBe(false);
    expect(JSON.stringify(four)).toContain("exactly 3 female riders");
  });

  it("turns the captain on and off, and leaves it alone when not named", () => {
    expect(DEFAULT_RULES.captain).toBe(false);
    const on = withRuleChanges(DEFAULT_RULES, { captain: true });
    expect(competitionRulesSchema.parse(on).captain).toBe(true);
    expect(withRuleChanges(on, { lockHours: 2 })).toMatchObject({ captain: true, lockHours: 2 });
    expect(withRuleChanges(on, { captain: false }).captain).toBe(false);
  });

  it("turns the bench on and off, and leaves it alone when not named", () => {
    expect(DEFAULT_RULES.bench).toBe(false);
    const on = withRuleChanges(DEFAULT_RULES, { bench: true });
    expect(competitionRulesSchema.parse(on).bench).toBe(true);
    expect(withRuleChanges(on, { captain: true, lockHours: 2 })).toMatchObject({
      bench: true,
      captain: true,
      lockHours: 2,
    });
    expect(withRuleChanges(on, { bench: false }).bench).toBe(false);
    expect(withRuleChanges(DEFAULT_RULES, { captain: true }).bench).toBe(false);
  });

  it("limits transfers and turns the wildcard on and off, leaving both alone when not named", () => {
    expect(DEFAULT_RULES.transfers).toBeNull();
    expect(DEFAULT_RULES.wildcard).toBe(false);
    const on = withRuleChanges(DEFAULT_RULES, {
      transfers: { free: 1, bank: 5, cost: 4 },
      wildcard: true,
    });
    expect(competitionRulesSchema.parse(on)).toMatchObject({
      transfers: { free: 1, bank: 5, cost: 4 },
      wildcard: true,
    });
    expect(withRuleChanges(on, { captain: true, lockHours: 2 })).toMatchObject({
      transfers: { free: 1, bank: 5, cost: 4 },
      wildcard: true,
      captain: true,
      lockHours: 2,
    });
    const off = withRuleChanges(on, { transfers: null, wildcard: false });
    expect(competitionRulesSchema.parse(off)).toMatchObject({ transfers: null, wildcard: false });
    expect(withRuleChanges(on, { wildcard: false })).toMatchObject({
      transfers: { free: 1, bank: 5, cost: 4 },
      wildcard: false,
    });
    // The rules are a copy: changing them later does not change the changes given.
    const given = { free: 2, bank: 2, cost: 0 };
    const copied = withRuleChanges(DEFAULT_RULES, { transfers: given });
    expect(copied.transfers).toEqual(given);
    expect(copied.transfers).not.toBe(given);
  });

  it("refuses a wildcard without limited transfers, and a bank below the free transfers", () => {
    const wild = competitionRulesSchema.safeParse(
      withRuleChanges(DEFAULT_RULES, { wildcard: true }),
    );
    expect(wild.success).toBe(false);
    expect(wild.error?.issues.map((i) => i.message).join(" ")).toContain(
      "A wildcard needs limited transfers",
    );
    const bank = competitionRulesSchema.safeParse(
      withRuleChanges(DEFAULT_RULES, { transfers: { free: 3, bank: 2, cost: 4 } }),
    );
    expect(bank.success).toBe(false);
    expect(bank.error?.issues.map((i) => i.message).join(" ")).toContain(
      "The free transfers kept must be at least the free transfers of a round.",
    );
  });

  it("refuses rules that cannot be met", () => {
    const r = competitionRulesSchema.safeParse(withRuleChanges(DEFAULT_RULES, { minWomen: 7 }));
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.message).join(" ")).toContain(
      "The minimum of women (7) is more than the team size (6).",
    );
  });
});

describe("cheapestTeamCost", () => {
  const CATS = ["Pro Men", "Pro Women", "17-18 Men", "17-18 Women"];
  const racer = fc.record({
    category: fc.constantFrom(...CATS),
    price: fc.integer({ min: 1, max: 50 }).map((n) => n * 1_000),
  });
  const rules = fc
    .record({
      teamSize: fc.integer({ min: 1, max: 5 }),
      minWomen: fc.integer({ min: 0, max: 3 }),
      maxWomen: fc.option(fc.integer({ min: 0, max: 5 }), { nil: null }),
      minJuniors: fc.integer({ min: 0, max: 3 }),
      maxJuniors: fc.option(fc.integer({ min: 0, max: 5 }), { nil: null }),
    })
    .map((c) => withRuleChanges(DEFAULT_RULES, c));

  /** Every subset of the team size, judged by the one team rule. */
  function bruteForce(
    r: ReturnType<typeof withRuleChanges>,
    list: { category: string; price: number }[],
  ) {
    const withIds = list.map((x, i) => ({
      ...x,
      category: x.category as Category,
      id: i + 1,
      gameId: 1,
    }));
    let best: number | null = null;
    const pick = (start: number, chosen: number[]) => {
      if (chosen.length === r.teamSize) {
        const ok = validateTeam(chosen, withIds, {
          gameId: 1,
          rules: r,
          budget: Number.MAX_SAFE_INTEGER,
        }).ok;
        if (ok) {
          const cost = chosen.reduce((s, id) => s + withIds[id - 1]!.price, 0);
          if (best === null || cost < best) best = cost;
        }
        return;
      }
      for (let i = start; i < withIds.length; i++) pick(i + 1, [...chosen, i + 1]);
    };
    pick(0, []);
    return best;
  }

  it("is the cheapest team the team rule accepts (property)", () => {
    fc.assert(
      fc.property(rules, fc.array(racer, { maxLength: 9 }), (r, list) => {
        if (!competitionRulesSchema.safeParse(r).success) return;
        expect(cheapestTeamCost(r, list)).toBe(bruteForce(r, list));
      }),
      { numRuns: 300 },
    );
  });
});
