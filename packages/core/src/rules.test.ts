import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CATEGORIES, type Category } from "./categories.js";
import { lockTime } from "./events.js";
import { legacyValidateTeam } from "./fixtures/legacy-team-rule.js";
import { nextPrice } from "./pricing.js";
import { type CompetitionRules, DEFAULT_RULES, describeRules } from "./rules.js";
import { competitionRulesSchema } from "./rules-schema.js";
import { pointsForPosition, teamScore } from "./scoring.js";
import { addBlockMessage, requirementChecklist, type TeamRacer, validateTeam } from "./team.js";

const GAME = 5;

/** Cross-country as Pinkbike runs it: exactly 3 men and 3 women, a 1,500,000 budget. */
const XC: CompetitionRules = competitionRulesSchema.parse({
  ...DEFAULT_RULES,
  budget: 1_500_000,
  categories: [
    { name: "Elite Men", women: false, junior: false },
    { name: "Elite Women", women: true, junior: false },
  ],
  women: { min: 3, max: 3 },
  juniors: { min: 0, max: null },
});

const racerArb = (categories: readonly string[]) =>
  fc.record({
    category: fc.constantFrom(...categories),
    price: fc.integer({ min: 0, max: 400_000 }),
    gameId: fc.constantFrom(GAME, GAME, GAME, 6),
  });

describe("DEFAULT_RULES: the spec's game", () => {
  it("is valid by the schema and states the spec's numbers", () => {
    expect(competitionRulesSchema.parse(DEFAULT_RULES)).toEqual(DEFAULT_RULES);
    expect(DEFAULT_RULES).toMatchObject({
      teamSize: 6,
      budget: 1_000_000,
      women: { min: 2, max: null },
      juniors: { min: 1, max: null },
      points: { first: 100, second: 80, third: 65, topTen: 50, finisher: 10, none: 0 },
      lockHours: 12,
    });
    expect(DEFAULT_RULES.categories.map((c) => c.name)).toEqual([...CATEGORIES]);
  });

  it("accepts and refuses exactly what the team rule did before rules were data", () => {
    fc.assert(
      fc.property(
        fc.array(racerArb(CATEGORIES), { maxLength: 9 }),
        fc.array(fc.nat({ max: 12 }), { maxLength: 9 }),
        fc.option(fc.integer({ min: 0, max: 2_000_000 }), { nil: undefined }),
        (pool, picks, budget) => {
          const known: TeamRacer[] = pool.map((r, i) => ({
            ...r,
            id: i + 1,
            category: r.category as Category,
          }));
          // Picks may repeat (duplicates) or miss the pool (unknown racers), as requests can.
          const ids = picks.map((p) => p + 1);
          const opts = { gameId: GAME, ...(budget === undefined ? {} : { budget }) };
          expect(validateTeam(ids, known, { ...opts, rules: DEFAULT_RULES })).toEqual(
            legacyValidateTeam(ids, known, opts),
          );
          expect(validateTeam(ids, known, opts)).toEqual(legacyValidateTeam(ids, known, opts));
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it("keeps the spec's checklist and messages", () => {
    expect(requirementChecklist([]).map((r) => r.label)).toEqual([
      "6 riders",
      "At least 2 female riders",
      "At least 1 junior rider",
      "Within budget",
    ]);
    expect(addBlockMessage("team-full")).toBe("Your team already has 6 riders");
    expect(describeRules(DEFAULT_RULES)).toEqual([
      "Pick exactly 6 riders within a $1,000,000 budget.",
      "Your team has at least 2 female riders (Pro Women or 17-18 Women).",
      "Your team has at least 1 junior rider (17-18 Men or 17-18 Women).",
      "Points per rider: 100 for a win, 80 for 2nd, 65 for 3rd, 50 for 4th to 10th, 10 for any other finish, 0 without a finish.",
      "Teams lock 12 hours before each round starts.",
      "Prices move between $50,000 and $500,000 by the published rule.",
    ]);
  });

  it("states the captain rule when the competition has captains (decision 0168)", () => {
    const lines = describeRules({ ...DEFAULT_RULES, captain: true });
    expect(lines).toContain("Name one rider of your team captain: their points count double.");
    expect(describeRules(DEFAULT_RULES).some((l) => /captain/i.test(l))).toBe(false);
  });

  it("reads stored rules without the captain option as the spec's game: no captain", () => {
    const { captain: _, ...stored } = DEFAULT_RULES;
    expect(competitionRulesSchema.parse(stored).captain).toBe(false);
  });
});

describe("a cross-country competition of 3 men and 3 women", () => {
  const team = (women: number, price = 200_000): TeamRacer[] =>
    Array.from({ length: 6 }, (_, i) => ({
      id: i + 1,
      category: (i < women ? "Elite Women" : "Elite Men") as Category,
      price,
      gameId: GAME,
    }));
  const ids = [1, 2, 3, 4, 5, 6];

  it("accepts 3 + 3 within 1,500,000", () => {
    expect(validateTeam(ids, team(3, 250_000), { gameId: GAME, rules: XC })).toMatchObject({
      ok: true,
      cost: 1_500_000,
      bank: 0,
    });
  });

  it("refuses 4 women, and 2, with the reason", () => {
    for (const women of [4, 2]) {
      const check = validateTeam(ids, team(women), { gameId: GAME, rules: XC });
      expect(check.ok).toBe(false);
      expect(check.issues).toEqual([
        { code: "female", count: women, message: "Pick exactly 3 female riders (Elite Women)." },
      ]);
    }
  });

  it("lists what it needs, and no junior rule", () => {
    expect(requirementChecklist(team(4), undefined, XC)).toEqual([
      { id: "size", label: "6 riders", met: true, detail: "6/6" },
      { id: "female", label: "Exactly 3 female riders", met: false, detail: "4/3" },
      { id: "budget", label: "Within budget", met: true, detail: "300,000 left" },
    ]);
    expect(describeRules(XC).slice(0, 2)).toEqual([
      "Pick exactly 6 riders within a $1,500,000 budget.",
      "Your team has exactly 3 female riders (Elite Women).",
    ]);
  });
});

describe("competitionRulesSchema refuses rules that cannot be met", () => {
  const refuse = (change: Partial<CompetitionRules>) => {
    const r = competitionRulesSchema.safeParse({ ...DEFAULT_RULES, ...change });
    expect(r.success).toBe(false);
    return r.error!.issues.map((i) => i.message);
  };

  it("says why", () => {
    expect(refuse({ women: { min: 7, max: null } })).toContain(
      "The minimum of women (7) is more than the team size (6).",
    );
    expect(refuse({ juniors: { min: 2, max: 1 } })).toContain(
      "The maximum of juniors (1) is below the minimum (2).",
    );
    expect(refuse({ points: { ...DEFAULT_RULES.points, second: 120 } })).toEqual([
      "Points must not rise with a worse result.",
    ]);
    // Only women's categories offered, but at most 3 women in a team of 6.
    expect(
      refuse({
        categories: [{ name: "Elite Women", women: true, junior: false }],
        women: { min: 0, max: 3 },
        juniors: { min: 0, max: null },
      }),
    ).toEqual([
      "No team can meet these rules with the categories offered (check the minimums and maximums).",
    ]);
  });

  it("accepts exactly the rules some team can meet (an exhaustive search agrees)", () => {
    const kinds = [
      { name: "A", women: false, junior: false },
      { name: "B", women: true, junior: false },
      { name: "C", women: false, junior: true },
      { name: "D", women: true, junior: true },
    ];
    const group = fc
      .record({ min: fc.nat({ max: 5 }), max: fc.option(fc.nat({ max: 5 }), { nil: null }) })
      .filter((g) => g.max === null || g.max >= g.min);
    fc.assert(
      fc.property(
        fc.subarray(kinds, { minLength: 1 }),
        fc.integer({ min: 1, max: 5 }),
        group,
        group,
        (categories, teamSize, women, juniors) => {
          const rules = { ...DEFAULT_RULES, categories, teamSize, women, juniors };
          // Every team of `teamSize` from the categories, tried with the team rule itself.
          const teams = (n: number): string[][] =>
            n === 0 ? [[]] : teams(n - 1).flatMap((t) => categories.map((c) => [...t, c.name]));
          const someTeam = teams(teamSize).some((names) => {
            const racers = names.map((category, i) => ({
              id: i + 1,
              category: category as Category,
              price: 0,
              gameId: GAME,
            }));
            return validateTeam(
              racers.map((r) => r.id),
              racers,
              { gameId: GAME, rules },
            ).ok;
          });
          expect(competitionRulesSchema.safeParse(rules).success).toBe(someTeam);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("the rest of the rules follow the competition", () => {
  it("scores by its points table", () => {
    const table = { first: 30, second: 20, third: 15, topTen: 5, finisher: 1, none: 0 };
    expect([1, 2, 3, 7, 40, null].map((p) => pointsForPosition(p, table))).toEqual([
      30, 20, 15, 5, 1, 0,
    ]);
    const results = new Map([
      [1, { position: 1 }],
      [2, { status: "DNF" as const }],
    ]);
    expect(teamScore([1, 2, 3], results, table)).toBe(30);
    expect(teamScore([1, 2, 3], results)).toBe(100);
  });

  it("locks its hours before the start", () => {
    const event = { startsAt: "2027-04-18T16:00:00Z" };
    expect(lockTime(event).toISOString()).toBe("2027-04-18T04:00:00.000Z");
    expect(lockTime(event, 2).toISOString()).toBe("2027-04-18T14:00:00.000Z");
    expect(lockTime(event, 0).toISOString()).toBe("2027-04-18T16:00:00.000Z");
  });

  it("bounds prices by its own limits", () => {
    expect(nextPrice(480_000, { status: "finished", position: 1 })).toBe(500_000);
    expect(nextPrice(480_000, { status: "finished", position: 1 }, { min: 1, max: 900_000 })).toBe(
      552_000,
    );
  });
});
