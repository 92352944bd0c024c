/* The bench rider (docs/decisions/0169): team size, limits on the starters, and the auto-sub. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CATEGORIES, type Category } from "./categories.js";
import { countsAsJunior, countsAsWoman, DEFAULT_RULES, describeRules, groupMet } from "./rules.js";
import {
  addBlockMessage,
  addBlockReason,
  autoSub,
  requirementChecklist,
  type SubRacer,
  type TeamRacer,
  validateTeam,
} from "./team.js";

const GAME = 5;
const BENCH = { ...DEFAULT_RULES, bench: true };
let nextId = 1;
const racer = (category: Category, price = 100_000): TeamRacer => ({
  id: nextId++,
  category,
  price,
  gameId: GAME,
});
const six = () => [
  racer("Pro Women"),
  racer("Pro Women"),
  racer("17-18 Men"),
  racer("Pro Men"),
  racer("Pro Men"),
  racer("Pro Men"),
];
const ids = (t: readonly TeamRacer[]) => t.map((r) => r.id);

describe("a team with a bench rider", () => {
  it("holds one more racer where the rules have a bench, and only there", () => {
    const team = [...six(), racer("Pro Men")];
    expect(validateTeam(ids(team), team, { gameId: GAME, rules: BENCH }).ok).toBe(true);
    expect(validateTeam(ids(team.slice(0, 6)), team, { gameId: GAME, rules: BENCH }).ok).toBe(true);
    expect(validateTeam(ids(team), team, { gameId: GAME }).issues.map((i) => i.message)).toEqual([
      "A team needs exactly 6 riders (you have 7).",
    ]);
    const eight = [...team, racer("Pro Men")];
    expect(
      validateTeam(ids(eight), eight, { gameId: GAME, rules: BENCH }).issues.map((i) => i.message),
    ).toEqual(["A team needs exactly 6 riders, and may add 1 on the bench (you have 8)."]);
  });

  it("judges the limits on the starters: a woman on the bench does not count", () => {
    const starters = [
      racer("Pro Women"),
      racer("17-18 Men"),
      racer("Pro Men"),
      racer("Pro Men"),
      racer("Pro Men"),
      racer("Pro Men"),
    ];
    const team = [...starters, racer("Pro Women")];
    const check = validateTeam(ids(team), team, { gameId: GAME, rules: BENCH });
    expect(check.issues.map((i) => i.code)).toEqual(["female"]);
    expect(requirementChecklist(team, undefined, BENCH).slice(0, 2)).toEqual([
      { id: "size", label: "6 riders", met: true, detail: "6/6, bench 1/1" },
      { id: "female", label: "At least 2 female riders", met: false, detail: "1/2" },
    ]);
  });

  it("counts the bench rider's price against the budget", () => {
    const team = [...six(), racer("Pro Men", 500_000)];
    const check = validateTeam(ids(team), team, { gameId: GAME, rules: BENCH });
    expect(check).toMatchObject({ ok: false, cost: 1_100_000 });
  });

  it("is full at the starters plus the bench rider", () => {
    const team = six();
    expect(addBlockReason(team, racer("Pro Men"), { rules: BENCH })).toBeNull();
    expect(addBlockReason([...team, racer("Pro Men")], racer("Pro Men"), { rules: BENCH })).toBe(
      "team-full",
    );
    expect(addBlockMessage("team-full", BENCH)).toBe(
      "Your team already has 6 riders and a bench rider",
    );
    expect(describeRules(BENCH).some((l) => l.includes("on the bench"))).toBe(true);
  });
});

describe("autoSub", () => {
  const sub = (id: number, category: Category): SubRacer => ({ id, category });
  const starters = [
    sub(1, "Pro Women"),
    sub(2, "Pro Women"),
    sub(3, "17-18 Men"),
    sub(4, "Pro Men"),
    sub(5, "Pro Men"),
    sub(6, "Pro Men"),
  ];
  const startedBut =
    (...out: number[]) =>
    (id: number) =>
      !out.includes(id);

  it("brings the bench rider on for a starter who did not start", () => {
    expect(autoSub(starters, sub(7, "Pro Men"), startedBut(5), BENCH)).toBe(5);
  });

  it("never breaks a limit: a man cannot come on for one of the two women", () => {
    expect(autoSub(starters, sub(7, "Pro Men"), startedBut(2), BENCH)).toBeNull();
    expect(autoSub(starters, sub(7, "Pro Women"), startedBut(2), BENCH)).toBe(2);
    // A junior woman keeps both limits for a woman (and would for a junior).
    expect(autoSub(starters, sub(7, "17-18 Women"), startedBut(3), BENCH)).toBe(3);
  });

  it("does nothing without the rule, a bench rider, a non-starter, or when the bench rider did not start", () => {
    expect(autoSub(starters, sub(7, "Pro Men"), startedBut(5), DEFAULT_RULES)).toBeNull();
    expect(autoSub(starters, null, startedBut(5), BENCH)).toBeNull();
    expect(autoSub(starters, sub(7, "Pro Men"), startedBut(), BENCH)).toBeNull();
    expect(autoSub(starters, sub(7, "Pro Men"), startedBut(5, 7), BENCH)).toBeNull();
  });

  it("property: equals a search of every non-starter, lowest id first, that keeps the limits", () => {
    const cat = fc.constantFrom<Category>(...CATEGORIES);
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: 40 }), { minLength: 7, maxLength: 7 }),
        fc.array(cat, { minLength: 7, maxLength: 7 }),
        fc.array(fc.boolean(), { minLength: 7, maxLength: 7 }),
        fc.nat({ max: 3 }),
        fc.nat({ max: 2 }),
        (idList, cats, startedList, minWomen, minJuniors) => {
          const rules = {
            ...BENCH,
            women: { min: minWomen, max: null },
            juniors: { min: minJuniors, max: null },
          };
          const team = idList.map((id, i) => sub(id, cats[i]!));
          const bench = team[6]!;
          const first = team.slice(0, 6);
          const started = (id: number) => startedList[idList.indexOf(id)]!;
          const fits = (t: SubRacer[]) =>
            groupMet(rules, "women", t.filter((r) => countsAsWoman(rules, r.category)).length) &&
            groupMet(rules, "juniors", t.filter((r) => countsAsJunior(rules, r.category)).length);
          let expected: number | null = null;
          if (started(bench.id)) {
            for (const s of [...first].sort((a, b) => a.id - b.id)) {
              if (!started(s.id) && fits(first.map((r) => (r === s ? bench : r)))) {
                expected = s.id;
                break;
              }
            }
          }
          expect(autoSub(first, bench, started, rules)).toBe(expected);
          // The answer does not depend on the order the team is read in.
          expect(autoSub([...first].reverse(), bench, started, rules)).toBe(expected);
        },
      ),
    );
  });
});
