/**
 * The server is the authority on teams: random and tampered save requests are accepted exactly
 * when the rules say so, a refused save changes nothing, and concurrent conflicting saves always
 * leave one complete, valid team. Runs on PGlite, and on PostgreSQL when DATABASE_URL is set.
 */
import { BUDGET, isFemale, isJunior, LOCK_MS, validateTeam } from "@game/core";
import { eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DbHandle, rowsOf } from "../client.js";
import { events, racers, teamRacers, teams } from "../schema/index.js";
import { createTestDb } from "../testing.js";
import { getTeam, listTeamRacers, saveTeam, type TeamRacerView } from "./teams.js";
import { createAccount } from "./users.js";

let h: DbHandle;
let pool: TeamRacerView[];
/** Racers of a closed event: real ids a forged request may slip in. */
let foreign: TeamRacerView[];
let early: Date;
let n = 0;

async function player() {
  n += 1;
  return createAccount(h.db, {
    email: `prop${n}@example.com`,
    username: `prop_${n}`,
    passwordHash: "test:unusable",
  });
}

/**
 * The rules written out independently of the implementation (spec section 5 and 9): exactly 6
 * distinct known racers of this event, at least 2 female, at least 1 junior, cost within budget.
 */
function oracle(ids: readonly number[]): boolean {
  if (ids.length !== 6 || new Set(ids).size !== 6) return false;
  const team = ids.map((id) => pool.find((r) => r.id === id));
  if (team.some((r) => !r)) return false;
  const picked = team as TeamRacerView[];
  const female = picked.filter((r) => r.category === "Pro Women" || r.category === "17-18 Women");
  const junior = picked.filter((r) => r.category === "17-18 Men" || r.category === "17-18 Women");
  const cost = picked.reduce((s, r) => s + r.price, 0);
  return female.length >= 2 && junior.length >= 1 && cost <= BUDGET;
}

beforeAll(async () => {
  h = await createTestDb({ seed: true, max: 20 });
  await h.db.insert(racers).values(
    ["Pro Women", "17-18 Men", "17-18 Women", "Pro Men"].map((category, i) => ({
      gameId: 6,
      category: category as TeamRacerView["category"],
      firstName: "Foreign",
      lastName: `Rider ${i}`,
      nameKey: `foreign|rider ${i}`,
      price: 40_000,
    })),
  );
  pool = await listTeamRacers(h.db, 5);
  foreign = await listTeamRacers(h.db, 6);
  const [round1] = await h.db.select().from(events).where(eq(events.id, 5));
  early = new Date(round1!.startsAt.getTime() - LOCK_MS - 86_400_000);
});
afterAll(() => h.close());

// ---- request generators -------------------------------------------------------------------

const byCategory = (pred: (r: TeamRacerView) => boolean) => () =>
  pool.filter(pred).map((r) => r.id);

/** Six distinct racers shaped like a real team (2 female, 1 junior), price left to chance. */
const plausibleTeam = () =>
  fc
    .tuple(
      fc.shuffledSubarray(byCategory((r) => isFemale(r.category))(), {
        minLength: 2,
        maxLength: 2,
      }),
      fc.constantFrom(...byCategory((r) => isJunior(r.category) && !isFemale(r.category))()),
      fc.shuffledSubarray(byCategory((r) => r.category === "Pro Men")(), {
        minLength: 3,
        maxLength: 3,
      }),
    )
    .map(([w, j, m]) => [...w, j, ...m])
    .chain((ids) => fc.shuffledSubarray(ids, { minLength: 6, maxLength: 6 }));

/** Cheap racers in a legal shape, in any order: always within budget, so valid. */
const cheapTeam = () => {
  const cheap = (category: TeamRacerView["category"], k: number) =>
    pool
      .filter((r) => r.category === category)
      .sort((a, b) => a.price - b.price)
      .slice(0, k)
      .map((r) => r.id);
  return fc
    .tuple(
      fc.shuffledSubarray(cheap("Pro Women", 4), { minLength: 2, maxLength: 2 }),
      fc.shuffledSubarray(cheap("17-18 Men", 3), { minLength: 1, maxLength: 1 }),
      fc.shuffledSubarray(cheap("Pro Men", 6), { minLength: 3, maxLength: 3 }),
    )
    .chain(([w, j, m]) => fc.shuffledSubarray([...w, ...j, ...m], { minLength: 6, maxLength: 6 }));
};

/** Forged over-budget mixes: the most expensive riders in a legal shape. */
const pricyTeam = () => {
  const pricy = [...pool].sort((a, b) => b.price - a.price);
  return fc
    .tuple(fc.nat({ max: 3 }), fc.nat({ max: 3 }), fc.nat({ max: 5 }))
    .map(([a, b, c]) => [
      ...pricy.filter((r) => r.category === "Pro Women").slice(a, a + 2),
      ...pricy.filter((r) => r.category === "17-18 Men").slice(b, b + 1),
      ...pricy.filter((r) => r.category === "Pro Men").slice(c, c + 3),
    ])
    .map((team) => team.map((r) => r.id));
};

type Tamper =
  | { kind: "duplicate"; at: number; from: number }
  | { kind: "foreign"; at: number; pick: number }
  | { kind: "unknown"; at: number; id: number }
  | { kind: "drop"; at: number }
  | { kind: "extra"; pick: number };

const tamper: fc.Arbitrary<Tamper> = fc.oneof(
  fc.record({ kind: fc.constant("duplicate" as const), at: fc.nat(5), from: fc.nat(5) }),
  fc.record({ kind: fc.constant("foreign" as const), at: fc.nat(5), pick: fc.nat(3) }),
  fc.record({
    kind: fc.constant("unknown" as const),
    at: fc.nat(5),
    id: fc.oneof(fc.integer({ min: 100_000, max: 2 ** 31 - 1 }), fc.integer({ min: -5, max: 0 })),
  }),
  fc.record({ kind: fc.constant("drop" as const), at: fc.nat(5) }),
  fc.record({ kind: fc.constant("extra" as const), pick: fc.nat(200) }),
);

function applyTamper(ids: number[], t: Tamper): number[] {
  const out = [...ids];
  if (t.kind === "duplicate") out[t.at] = out[t.from]!;
  else if (t.kind === "foreign") out[t.at] = foreign[t.pick % foreign.length]!.id;
  else if (t.kind === "unknown") out[t.at] = t.id;
  else if (t.kind === "drop") out.splice(t.at, 1);
  else out.push(pool[t.pick % pool.length]!.id);
  return out;
}

/** Any save request: honest, forged or random (built lazily: the racers come from the DB). */
const requests = (): fc.Arbitrary<number[]> =>
  fc.oneof(
    { weight: 3, arbitrary: plausibleTeam() },
    { weight: 2, arbitrary: cheapTeam() },
    { weight: 1, arbitrary: pricyTeam() },
    {
      weight: 3,
      arbitrary: fc
        .tuple(
          fc.oneof(plausibleTeam(), cheapTeam()),
          fc.array(tamper, { minLength: 1, maxLength: 2 }),
        )
        .map(([ids, ts]) => ts.reduce(applyTamper, ids)),
    },
    {
      weight: 1,
      arbitrary: fc.array(
        fc.oneof(
          fc.constantFrom(...pool.map((r) => r.id)),
          fc.integer({ min: -10, max: 1_000_000 }),
        ),
        { maxLength: 9 },
      ),
    },
  );

// ---- properties ---------------------------------------------------------------------------

describe("saveTeam against the rules", () => {
  it("accepts a request exactly when the rules say the team is valid; a refusal changes nothing", async () => {
    const u = await player();
    let accepted = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(requests(), async (ids) => {
        const before = await getTeam(h.db, u.id, 5);
        const result = await saveTeam(h.db, {
          userId: u.id,
          eventId: 5,
          racerIds: ids,
          now: early,
        });
        const expected = oracle(ids);
        // The oracle and the shared rules agree (validated against everything the DB knows).
        expect(validateTeam(ids, [...pool, ...foreign], { gameId: 5 }).ok).toBe(expected);
        expect(result.ok).toBe(expected);
        const after = await getTeam(h.db, u.id, 5);
        if (result.ok) {
          accepted += 1;
          expect(after?.racers.map((r) => r.id)).toEqual(ids);
          expect(after?.version).toBe((before?.version ?? 0) + 1);
        } else {
          refused += 1;
          expect(result.reason).toBe("invalid");
          expect(result.issues.length).toBeGreaterThan(0);
          expect(after).toEqual(before);
        }
      }),
      { numRuns: 150 },
    );
    // The generators must exercise both outcomes, or the property proves little.
    expect(accepted).toBeGreaterThan(10);
    expect(refused).toBeGreaterThan(10);
  });

  it("refuses every request once the event is locked, and keeps the team", async () => {
    const u = await player();
    const [round1] = await h.db.select().from(events).where(eq(events.id, 5));
    const lock = round1!.startsAt.getTime() - LOCK_MS;
    const first = fc.sample(cheapTeam(), { numRuns: 1, seed: 7 })[0]!;
    expect(
      (await saveTeam(h.db, { userId: u.id, eventId: 5, racerIds: first, now: early })).ok,
    ).toBe(true);
    await fc.assert(
      fc.asyncProperty(
        requests(),
        fc.integer({ min: 0, max: 30 * 86_400_000 }),
        async (ids, after) => {
          const r = await saveTeam(h.db, {
            userId: u.id,
            eventId: 5,
            racerIds: ids,
            now: new Date(lock + after),
          });
          expect(r).toEqual({ ok: false, reason: "locked", issues: [] });
        },
      ),
      { numRuns: 40 },
    );
    expect((await getTeam(h.db, u.id, 5))?.racers.map((r) => r.id)).toEqual(first);
  });
});

describe("concurrent saves", () => {
  it(`20 conflicting saves at once leave exactly one valid team from a valid submission (${
    process.env.DATABASE_URL ? "PostgreSQL" : "PGlite"
  })`, async () => {
    const valid = fc
      .sample(plausibleTeam(), { numRuns: 400, seed: 42 })
      .filter(oracle)
      .slice(0, 10);
    const invalid = fc
      .sample(pricyTeam(), { numRuns: 5, seed: 1 })
      .concat(fc.sample(requests(), { numRuns: 100, seed: 3 }).filter((ids) => !oracle(ids)))
      .slice(0, 10);
    expect(valid).toHaveLength(10);
    expect(invalid).toHaveLength(10);
    const submissions = valid.flatMap((v, i) => [v, invalid[i]!]);

    for (let round = 0; round < 5; round += 1) {
      const u = await player();
      // Half the rounds start from an existing team (the update path), half from none (insert race).
      if (round % 2 === 1) {
        await saveTeam(h.db, { userId: u.id, eventId: 5, racerIds: valid[9]!, now: early });
      }
      const results = await Promise.all(
        submissions.map((racerIds) =>
          saveTeam(h.db, { userId: u.id, eventId: 5, racerIds, now: early }),
        ),
      );
      expect(results.map((r) => r.ok)).toEqual(submissions.map(oracle));

      const team = await getTeam(h.db, u.id, 5);
      const ids = team!.racers.map((r) => r.id);
      expect(oracle(ids)).toBe(true);
      expect(valid.map((v) => v.join(","))).toContain(ids.join(","));
      expect(team!.version).toBe(round % 2 === 1 ? 11 : 10);
      const slots = await h.db
        .select({ slot: teamRacers.slot })
        .from(teamRacers)
        .where(eq(teamRacers.teamId, team!.id))
        .orderBy(teamRacers.slot);
      expect(slots.map((s) => s.slot)).toEqual([0, 1, 2, 3, 4, 5]);
    }

    // No team anywhere in the database breaks a rule.
    const perTeam = rowsOf<{ team_id: number; n: number; cost: number }>(
      await h.db.execute(sql`
        select tr.team_id, count(*)::int as n, sum(r.price)::int as cost
        from ${teamRacers} tr join ${teams} t on t.id = tr.team_id
        join ${events} e on e.competition_id = t.competition_id and e.id = 5
        join ${racers} r on r.game_id = e.id and r.person_id = tr.person_id
        group by tr.team_id`),
    );
    expect(perTeam.length).toBeGreaterThan(0);
    for (const t of perTeam) {
      expect(t.n).toBe(6);
      expect(t.cost).toBeLessThanOrEqual(BUDGET);
    }
  });
});
