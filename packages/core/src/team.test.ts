import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CATEGORIES, type Category } from "./categories.js";
import { BUDGET } from "./constants.js";
import { DEFAULT_RULES } from "./rules.js";
import {
  ADD_BLOCK_MESSAGES,
  addBlockReason,
  bank,
  countFemale,
  countJunior,
  requirementChecklist,
  startedRace,
  type TeamIssueCode,
  type TeamRacer,
  teamCost,
  validateTeam,
} from "./team.js";

const GAME = 5;
const OTHER_GAME = 6;

let nextId = 1;
function racer(category: Category, price = 100_000, gameId = GAME): TeamRacer {
  return { id: nextId++, category, price, gameId };
}

/** A valid team: 2 Pro Women, 1 17-18 Men, 3 Pro Men at 100,000 each (cost 600,000). */
function validSix(): TeamRacer[] {
  return [
    racer("Pro Women"),
    racer("Pro Women"),
    racer("17-18 Men"),
    racer("Pro Men"),
    racer("Pro Men"),
    racer("Pro Men"),
  ];
}

const ids = (rs: readonly TeamRacer[]) => rs.map((r) => r.id);
const codes = (v: { issues: { code: TeamIssueCode }[] }) => v.issues.map((i) => i.code).sort();

describe("validateTeam: the captain (decision 0168)", () => {
  const withCaptain = { ...DEFAULT_RULES, captain: true };

  it("accepts a captain of the team, and no captain at all", () => {
    const team = validSix();
    expect(
      validateTeam(ids(team), team, { gameId: GAME, rules: withCaptain, captainId: team[2]!.id })
        .ok,
    ).toBe(true);
    expect(validateTeam(ids(team), team, { gameId: GAME, rules: withCaptain }).ok).toBe(true);
  });

  it("refuses a captain off the team, and any captain where the rules have none", () => {
    const team = validSix();
    const off = validateTeam(ids(team), team, { gameId: GAME, rules: withCaptain, captainId: 999 });
    expect(off.issues).toEqual([
      { code: "captain", racerId: 999, message: "Your captain must be one of your riders." },
    ]);
    const none = validateTeam(ids(team), team, { gameId: GAME, captainId: team[0]!.id });
    expect(none.issues).toEqual([
      { code: "captain", racerId: team[0]!.id, message: "This competition has no captains." },
    ]);
  });
});

describe("validateTeam", () => {
  it("accepts a valid team and reports cost and bank", () => {
    const team = validSix();
    const v = validateTeam(ids(team), team, { gameId: GAME });
    expect(v).toEqual({ ok: true, issues: [], cost: 600_000, bank: 400_000 });
  });

  it("accepts the known racers as a Map as well as an array", () => {
    const team = validSix();
    const map = new Map(team.map((r) => [r.id, r]));
    expect(validateTeam(ids(team), map, { gameId: GAME }).ok).toBe(true);
  });

  it("accepts a team costing exactly the budget", () => {
    const team = validSix();
    team[0]!.price = BUDGET - 500_000; // others are 5 x 100,000
    const v = validateTeam(ids(team), team, { gameId: GAME });
    expect(v.cost).toBe(BUDGET);
    expect(v.bank).toBe(0);
    expect(v.ok).toBe(true);
  });

  it("refuses a team one dollar over budget, with a negative bank", () => {
    const team = validSix();
    team[0]!.price = BUDGET - 500_000 + 1; // others are 5 x 100,000
    const v = validateTeam(ids(team), team, { gameId: GAME });
    expect(v.ok).toBe(false);
    expect(codes(v)).toEqual(["budget"]);
    expect(v.cost).toBe(BUDGET + 1);
    expect(v.bank).toBe(-1);
    const issue = v.issues[0]!;
    expect(issue.code === "budget" && issue.cost).toBe(BUDGET + 1);
    expect(issue.message).toContain("1,000,000");
  });

  it("uses a custom budget when given", () => {
    const team = validSix();
    expect(validateTeam(ids(team), team, { gameId: GAME, budget: 599_999 }).ok).toBe(false);
    const v = validateTeam(ids(team), team, { gameId: GAME, budget: 600_000 });
    expect(v.ok).toBe(true);
    expect(v.bank).toBe(0);
  });

  it("requires exactly 6 riders", () => {
    const team = validSix();
    const seven = [...team, racer("Pro Men")];
    const v7 = validateTeam(ids(seven), seven, { gameId: GAME });
    expect(codes(v7)).toEqual(["size"]);
    expect(v7.issues[0]).toMatchObject({ code: "size", count: 7 });

    const five = team.slice(0, 5);
    const v5 = validateTeam(ids(five), five, { gameId: GAME });
    expect(codes(v5)).toEqual(["size"]);
    expect(v5.issues[0]).toMatchObject({ code: "size", count: 5 });
    expect(v5.issues[0]!.message).toContain("exactly 6");
  });

  it("requires at least 2 female riders; Pro Women and 17-18 Women both count", () => {
    const oneFemale = [
      racer("Pro Women"),
      racer("17-18 Men"),
      racer("Pro Men"),
      racer("Pro Men"),
      racer("Pro Men"),
      racer("Pro Men"),
    ];
    const v = validateTeam(ids(oneFemale), oneFemale, { gameId: GAME });
    expect(codes(v)).toEqual(["female"]);
    expect(v.issues[0]).toMatchObject({ code: "female", count: 1 });

    const juniorWomen = [
      racer("17-18 Women"),
      racer("17-18 Women"),
      racer("Pro Men"),
      racer("Pro Men"),
      racer("Pro Men"),
      racer("Pro Men"),
    ];
    // Two 17-18 Women are both female and junior: a valid team.
    expect(validateTeam(ids(juniorWomen), juniorWomen, { gameId: GAME }).ok).toBe(true);
  });

  it("requires at least 1 junior; 17-18 Men and 17-18 Women both count", () => {
    const noJunior = [
      racer("Pro Women"),
      racer("Pro Women"),
      racer("Pro Men"),
      racer("Pro Men"),
      racer("Pro Men"),
      racer("Pro Men"),
    ];
    const v = validateTeam(ids(noJunior), noJunior, { gameId: GAME });
    expect(codes(v)).toEqual(["junior"]);
    expect(v.issues[0]).toMatchObject({ code: "junior", count: 0 });

    const withJuniorWoman = [...noJunior.slice(0, 5), racer("17-18 Women")];
    expect(validateTeam(ids(withJuniorWoman), withJuniorWoman, { gameId: GAME }).ok).toBe(true);
  });

  it("refuses duplicates and counts each racer once", () => {
    const team = validSix();
    // Six entries, but Pro Women #1 twice and the junior missing.
    const picked = [team[0]!.id, team[0]!.id, team[3]!.id, team[4]!.id, team[5]!.id, team[1]!.id];
    const v = validateTeam(picked, team, { gameId: GAME });
    expect(v.ok).toBe(false);
    expect(codes(v)).toEqual(["duplicate", "junior"]);
    expect(v.issues.find((i) => i.code === "duplicate")).toMatchObject({
      racerIds: [team[0]!.id],
    });
    // A duplicate is not charged twice.
    expect(v.cost).toBe(500_000);
  });

  it("refuses two female entries that are the same racer", () => {
    const team = validSix();
    const picked = [team[0]!.id, team[0]!.id, team[2]!.id, team[3]!.id, team[4]!.id, team[5]!.id];
    const v = validateTeam(picked, team, { gameId: GAME });
    expect(codes(v)).toEqual(["duplicate", "female"]);
  });

  it("refuses unknown racers", () => {
    const team = validSix();
    const picked = [...ids(team).slice(0, 5), 999_999];
    const v = validateTeam(picked, team, { gameId: GAME });
    expect(v.ok).toBe(false);
    expect(codes(v)).toContain("unknown-racer");
    expect(v.issues.find((i) => i.code === "unknown-racer")).toMatchObject({
      racerIds: [999_999],
    });
  });

  it("refuses racers of another event", () => {
    const team = validSix();
    team[5] = { ...team[5]!, gameId: OTHER_GAME };
    const v = validateTeam(ids(team), team, { gameId: GAME });
    expect(codes(v)).toEqual(["wrong-event"]);
    expect(v.issues[0]).toMatchObject({ racerIds: [team[5]!.id] });
  });

  it("returns every unmet requirement at once, not just the first", () => {
    const other = racer("Pro Men", 900_000, OTHER_GAME);
    const expensive = racer("Pro Men", 900_000);
    const picked = [other.id, other.id, expensive.id, 424_242];
    const v = validateTeam(picked, [other, expensive], { gameId: GAME });
    expect(v.ok).toBe(false);
    expect(codes(v)).toEqual(
      ["size", "female", "junior", "duplicate", "unknown-racer", "wrong-event", "budget"].sort(),
    );
    for (const issue of v.issues) expect(issue.message.length).toBeGreaterThan(0);
  });

  it("reports size, female and junior for an empty team", () => {
    const v = validateTeam([], [], { gameId: GAME });
    expect(codes(v)).toEqual(["female", "junior", "size"]);
    expect(v.cost).toBe(0);
    expect(v.bank).toBe(BUDGET);
  });
});

// ---------------------------------------------------------------------------------------------
// Property: validateTeam against an independent reference.

const FEMALE_CATS = ["Pro Women", "17-18 Women"];
const JUNIOR_CATS = ["17-18 Men", "17-18 Women"];

/** The spec's rules written out again, independently of team.ts. */
function referenceIssues(
  picked: readonly number[],
  pool: readonly TeamRacer[],
  gameId: number,
  budget: number,
): Set<TeamIssueCode> {
  const out = new Set<TeamIssueCode>();
  const distinct = picked.filter((id, i) => picked.indexOf(id) === i);
  const found = distinct
    .map((id) => pool.find((r) => r.id === id))
    .filter((r) => r !== undefined) as TeamRacer[];
  if (picked.length !== 6) out.add("size");
  if (found.filter((r) => FEMALE_CATS.includes(r.category)).length < 2) out.add("female");
  if (found.filter((r) => JUNIOR_CATS.includes(r.category)).length < 1) out.add("junior");
  if (distinct.length !== picked.length) out.add("duplicate");
  if (found.length !== distinct.length) out.add("unknown-racer");
  if (found.some((r) => r.gameId !== gameId)) out.add("wrong-event");
  let cost = 0;
  for (const r of found) cost += r.price;
  if (cost > budget) out.add("budget");
  return out;
}

function referenceValid(
  picked: readonly number[],
  pool: readonly TeamRacer[],
  gameId: number,
  budget: number,
): boolean {
  if (picked.length !== 6 || new Set(picked).size !== 6) return false;
  const team: TeamRacer[] = [];
  for (const id of picked) {
    const r = pool.find((p) => p.id === id);
    if (!r || r.gameId !== gameId) return false;
    team.push(r);
  }
  const female = team.filter((r) => r.category === "Pro Women" || r.category === "17-18 Women");
  const junior = team.filter((r) => r.category === "17-18 Men" || r.category === "17-18 Women");
  const cost = team.reduce((s, r) => s + r.price, 0);
  return female.length >= 2 && junior.length >= 1 && cost <= budget;
}

const categoryArb = fc.constantFrom(...CATEGORIES);
const gameIdArb = fc.oneof(
  { weight: 9, arbitrary: fc.constant(GAME) },
  { weight: 1, arbitrary: fc.constant(OTHER_GAME) },
);

/** A pool of racers with ids 1..n. Prices are chosen so that some teams go over budget. */
const poolArb = fc
  .array(
    fc.record({
      category: categoryArb,
      price: fc.integer({ min: 0, max: 260_000 }),
      gameId: gameIdArb,
    }),
    { minLength: 6, maxLength: 12 },
  )
  .map((rs) => rs.map((r, i): TeamRacer => ({ id: i + 1, ...r })));

/** A pool and a picked list: often 6 distinct pool racers, sometimes anything (dupes, unknowns). */
const scenarioArb = poolArb.chain((pool) => {
  const poolIds = pool.map((r) => r.id);
  const sixDistinct = fc.shuffledSubarray(poolIds, { minLength: 6, maxLength: 6 });
  const anything = fc.array(fc.integer({ min: 1, max: pool.length + 3 }), { maxLength: 8 });
  return fc.tuple(fc.constant(pool), fc.oneof(sixDistinct, anything));
});

describe("validateTeam properties", () => {
  it("ok is true iff the independent reference says the team is valid", () => {
    let valid = 0;
    let invalid = 0;
    fc.assert(
      fc.property(scenarioArb, ([pool, picked]) => {
        const v = validateTeam(picked, pool, { gameId: GAME });
        const expected = referenceValid(picked, pool, GAME, BUDGET);
        if (expected) valid++;
        else invalid++;
        expect(v.ok).toBe(expected);
        expect(v.ok).toBe(v.issues.length === 0);
      }),
    );
    // Both branches of the property were exercised.
    expect(valid).toBeGreaterThan(0);
    expect(invalid).toBeGreaterThan(0);
  });

  it("reports exactly the set of unmet requirements", () => {
    fc.assert(
      fc.property(
        scenarioArb,
        fc.integer({ min: 0, max: 2 * BUDGET }),
        ([pool, picked], budget) => {
          const v = validateTeam(picked, pool, { gameId: GAME, budget });
          expect(new Set(codes(v))).toEqual(referenceIssues(picked, pool, GAME, budget));
          // Each code at most once.
          expect(new Set(codes(v)).size).toBe(v.issues.length);
        },
      ),
    );
  });

  it("bank = budget - cost, and cost is the sum of distinct known racers' prices", () => {
    fc.assert(
      fc.property(
        scenarioArb,
        fc.integer({ min: 0, max: 2 * BUDGET }),
        ([pool, picked], budget) => {
          const v = validateTeam(picked, pool, { gameId: GAME, budget });
          const distinctKnown = [...new Set(picked)]
            .map((id) => pool.find((r) => r.id === id))
            .filter((r) => r !== undefined);
          expect(v.cost).toBe(distinctKnown.reduce((s, r) => s + r!.price, 0));
          expect(v.bank).toBe(budget - v.cost);
        },
      ),
    );
  });

  it("the default budget is 1,000,000", () => {
    fc.assert(
      fc.property(scenarioArb, ([pool, picked]) => {
        const a = validateTeam(picked, pool, { gameId: GAME });
        const b = validateTeam(picked, pool, { gameId: GAME, budget: 1_000_000 });
        expect(a).toEqual(b);
      }),
    );
  });
});

describe("teamCost, bank, countFemale, countJunior", () => {
  it("sums prices and subtracts from the budget", () => {
    const team = validSix();
    expect(teamCost(team)).toBe(600_000);
    expect(bank(team)).toBe(400_000);
    expect(bank([])).toBe(BUDGET);
    expect(bank(team, 500_000)).toBe(-100_000);
  });

  it("bank(team) = budget - teamCost(team) for any prices", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ price: fc.integer({ min: 0, max: 1_000_000 }) }), { maxLength: 10 }),
        fc.integer({ min: 0, max: 10_000_000 }),
        (team, budget) => {
          expect(bank(team, budget)).toBe(budget - teamCost(team));
          expect(bank(team)).toBe(BUDGET - teamCost(team));
        },
      ),
    );
  });

  it("counts female and junior riders by category", () => {
    const team = CATEGORIES.map((c) => ({ category: c }));
    expect(countFemale(team)).toBe(2);
    expect(countJunior(team)).toBe(2);
    expect(countFemale([{ category: "Pro Men" }, { category: "17-18 Men" }])).toBe(0);
    expect(countJunior([{ category: "Pro Men" }, { category: "Pro Women" }])).toBe(0);
  });
});

describe("addBlockReason", () => {
  it("allows a racer that fits", () => {
    const team = validSix().slice(0, 5);
    expect(addBlockReason(team, racer("Pro Men"))).toBeNull();
    expect(addBlockReason([], racer("Pro Men"), { gameId: GAME })).toBeNull();
  });

  it("refuses a racer already chosen", () => {
    const team = validSix().slice(0, 3);
    expect(addBlockReason(team, team[1]!)).toBe("already-chosen");
    // Already chosen wins over team-full.
    const full = validSix();
    expect(addBlockReason(full, full[0]!)).toBe("already-chosen");
  });

  it("refuses a seventh racer", () => {
    expect(addBlockReason(validSix(), racer("Pro Men", 0))).toBe("team-full");
  });

  it("refuses a racer of another event when the event is given", () => {
    const other = racer("Pro Men", 1, OTHER_GAME);
    expect(addBlockReason([], other, { gameId: GAME })).toBe("wrong-event");
    expect(addBlockReason([], other)).toBeNull();
  });

  it("refuses a racer the bank cannot pay for; exactly the bank is fine", () => {
    const team = validSix().slice(0, 5); // cost 500,000, bank 500,000
    expect(addBlockReason(team, racer("Pro Men", 500_000))).toBeNull();
    expect(addBlockReason(team, racer("Pro Men", 500_001))).toBe("over-budget");
    expect(addBlockReason(team, racer("Pro Men", 100_000), { budget: 599_999 })).toBe(
      "over-budget",
    );
  });

  it("has a message for every reason", () => {
    for (const reason of ["already-chosen", "team-full", "over-budget", "wrong-event"] as const) {
      expect(ADD_BLOCK_MESSAGES[reason]).toBeTruthy();
    }
  });

  it("property: adding only when allowed never breaks size, uniqueness, event or budget", () => {
    fc.assert(
      fc.property(poolArb, fc.array(fc.nat(), { maxLength: 30 }), (pool, picks) => {
        const team: TeamRacer[] = [];
        for (const p of picks) {
          const candidate = pool[p % pool.length]!;
          const reason = addBlockReason(team, candidate, { gameId: GAME });
          if (reason === null) team.push(candidate);
          else if (reason === "already-chosen") expect(team).toContain(candidate);
        }
        expect(team.length).toBeLessThanOrEqual(6);
        expect(new Set(team.map((r) => r.id)).size).toBe(team.length);
        expect(team.every((r) => r.gameId === GAME)).toBe(true);
        expect(teamCost(team)).toBeLessThanOrEqual(BUDGET);
      }),
    );
  });
});

describe("requirementChecklist", () => {
  it("lists size, female, junior and budget with details", () => {
    const list = requirementChecklist(validSix());
    expect(list.map((r) => r.id)).toEqual(["size", "female", "junior", "budget"]);
    expect(list.every((r) => r.met)).toBe(true);
    expect(list.map((r) => r.detail)).toEqual(["6/6", "2/2", "1/1", "400,000 left"]);
  });

  it("meets the budget at exactly the budget and not one dollar over", () => {
    const team = validSix();
    expect(requirementChecklist(team, 600_000)[3]).toMatchObject({ met: true, detail: "0 left" });
    expect(requirementChecklist(team, 599_999)[3]).toMatchObject({ met: false, detail: "-1 left" });
  });

  it("shows an empty team as unmet except the budget", () => {
    const list = requirementChecklist([]);
    expect(list.map((r) => [r.id, r.met])).toEqual([
      ["size", false],
      ["female", false],
      ["junior", false],
      ["budget", true],
    ]);
    expect(list[3]!.detail).toBe("1,000,000 left");
  });

  it("property: agrees with validateTeam for 6 distinct racers of the event", () => {
    const sixArb = fc.array(
      fc.record({ category: categoryArb, price: fc.integer({ min: 0, max: 300_000 }) }),
      { minLength: 6, maxLength: 6 },
    );
    fc.assert(
      fc.property(sixArb, fc.integer({ min: 0, max: 2 * BUDGET }), (specs, budget) => {
        const team = specs.map((s, i): TeamRacer => ({ id: i + 1, gameId: GAME, ...s }));
        const list = requirementChecklist(team, budget);
        const v = validateTeam(ids(team), team, { gameId: GAME, budget });
        const issueCodes = new Set(codes(v));
        for (const req of list) expect(req.met).toBe(!issueCodes.has(req.id));
        expect(list.every((r) => r.met)).toBe(v.ok);
      }),
    );
  });
});

describe("startedRace (docs/decisions/0171)", () => {
  it("reads no result as no start once final, as not run yet while provisional", () => {
    expect(startedRace(null)).toBe(false);
    expect(startedRace(null, true)).toBe(true);
    for (const provisional of [false, true]) {
      expect(startedRace("DNS", provisional)).toBe(false);
      for (const s of ["finished", "DNF", "DSQ"]) expect(startedRace(s, provisional)).toBe(true);
    }
  });
});
