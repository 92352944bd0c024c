import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  competitionRanks,
  leagueScore,
  NON_FINISH,
  POINTS,
  pointsForPosition,
  pointsForResult,
  type RaceResult,
  teamScore,
} from "./scoring.js";

describe("points table", () => {
  it("matches the spec: 100, 80, 65, 50 for 4th-10th, 10 for other finishers", () => {
    expect(POINTS).toEqual({
      first: 100,
      second: 80,
      third: 65,
      topTen: 50,
      finisher: 10,
      none: 0,
    });
    const expected = [100, 80, 65, 50, 50, 50, 50, 50, 50, 50, 10, 10];
    expect(expected.map((_, i) => pointsForPosition(i + 1))).toEqual(expected);
    expect(pointsForPosition(11)).toBe(10);
    expect(pointsForPosition(250)).toBe(10);
  });

  it("gives 0 for no place or an impossible place", () => {
    for (const p of [null, undefined, 0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(pointsForPosition(p)).toBe(0);
    }
  });

  it("gives 0 for DNF, DNS, DSQ and no result", () => {
    expect(NON_FINISH).toEqual(["DNF", "DNS", "DSQ"]);
    for (const status of NON_FINISH) expect(pointsForResult({ status })).toBe(0);
    expect(pointsForResult(null)).toBe(0);
    expect(pointsForResult(undefined)).toBe(0);
    expect(pointsForResult({ position: 1 })).toBe(100);
    expect(pointsForResult({ position: 3 })).toBe(65);
  });

  it("property: points never increase with a worse place, and stay within the table", () => {
    const values = new Set<number>(Object.values(POINTS));
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), fc.integer({ min: 0, max: 100 }), (p, d) => {
        expect(pointsForPosition(p)).toBeGreaterThanOrEqual(pointsForPosition(p + d));
        expect(values.has(pointsForPosition(p))).toBe(true);
        expect(pointsForPosition(p)).toBeGreaterThanOrEqual(POINTS.finisher);
      }),
    );
  });
});

describe("teamScore", () => {
  it("sums the racers' points; a racer with no result scores 0", () => {
    const results = new Map<number, RaceResult>([
      [1, { position: 1 }],
      [2, { position: 2 }],
      [3, { position: 7 }],
      [4, { position: 42 }],
      [5, { status: "DNF" }],
    ]);
    expect(teamScore([1, 2, 3, 4, 5, 6], results)).toBe(100 + 80 + 50 + 10 + 0 + 0);
    expect(teamScore([], results)).toBe(0);
    expect(teamScore([6, 7], results)).toBe(0);
  });

  it("property: equals the sum of pointsForResult over the team", () => {
    const resultArb: fc.Arbitrary<RaceResult> = fc.oneof(
      fc.record({ position: fc.integer({ min: 1, max: 60 }) }),
      fc.record({ status: fc.constantFrom(...NON_FINISH) }),
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 1, max: 20 }), resultArb), { maxLength: 20 }),
        fc.array(fc.integer({ min: 1, max: 25 }), { maxLength: 6 }),
        (entries, team) => {
          const results = new Map(entries);
          let expected = 0;
          for (const id of team) {
            const r = results.get(id);
            expected += r && "position" in r ? pointsForPosition(r.position) : 0;
          }
          expect(teamScore(team, results)).toBe(expected);
        },
      ),
    );
  });
});

describe("teamScore with a captain (decision 0168)", () => {
  const results = new Map<number, RaceResult>([
    [1, { position: 1 }],
    [2, { position: 4 }],
    [3, { status: "DNS" }],
  ]);

  it("counts the captain's points twice", () => {
    expect(teamScore([1, 2, 3], results, POINTS, 2)).toBe(100 + 50 + 50);
    expect(teamScore([1, 2, 3], results, POINTS, 1)).toBe(100 + 100 + 50);
  });

  it("a captain without points doubles nothing; no captain or one off the team adds nothing", () => {
    expect(teamScore([1, 2, 3], results, POINTS, 3)).toBe(150);
    expect(teamScore([1, 2, 3], results, POINTS, null)).toBe(150);
    expect(teamScore([1, 2], results, POINTS, 3)).toBe(150);
  });

  it("property: with a captain on the team, the score is the plain score plus the captain's points", () => {
    const resultArb: fc.Arbitrary<RaceResult> = fc.oneof(
      fc.record({ position: fc.integer({ min: 1, max: 60 }) }),
      fc.record({ status: fc.constantFrom(...NON_FINISH) }),
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 1, max: 20 }), resultArb), { maxLength: 20 }),
        fc.uniqueArray(fc.integer({ min: 1, max: 25 }), { minLength: 1, maxLength: 6 }),
        fc.nat(),
        fc.integer({ min: 1, max: 25 }),
        (entries, team, pick, outsider) => {
          const results = new Map(entries);
          const captain = team[pick % team.length]!;
          const plain = teamScore(team, results);
          expect(teamScore(team, results, POINTS, captain)).toBe(
            plain + pointsForResult(results.get(captain)),
          );
          // A captain who is not on the team counts for nothing.
          if (!team.includes(outsider)) {
            expect(teamScore(team, results, POINTS, outsider)).toBe(plain);
          }
        },
      ),
    );
  });
});

describe("leagueScore", () => {
  it("averages accepted members only; pending members are ignored", () => {
    expect(
      leagueScore([
        { score: 100, status: "accepted" },
        { score: 50, status: "accepted" },
        { score: 1000, status: "pending" },
      ]),
    ).toBe(75);
  });

  it("is 0 with no accepted member", () => {
    expect(leagueScore([])).toBe(0);
    expect(leagueScore([{ score: 500, status: "pending" }])).toBe(0);
  });

  it("counts a missing score as 0", () => {
    expect(
      leagueScore([
        { score: 90, status: "accepted" },
        { score: null, status: "accepted" },
        { score: undefined, status: "accepted" },
      ]),
    ).toBe(30);
  });

  it("keeps fractions (rounded to cents)", () => {
    expect(
      leagueScore([
        { score: 1, status: "accepted" },
        { score: 2, status: "accepted" },
      ]),
    ).toBe(1.5);
    expect(
      leagueScore([
        { score: 1, status: "accepted" },
        { score: 1, status: "accepted" },
        { score: 2, status: "accepted" },
      ]),
    ).toBeCloseTo(4 / 3, 2);
  });

  it("property: the average of accepted scores, whatever the pending ones are", () => {
    const memberArb = fc.record({
      score: fc.integer({ min: 0, max: 600 }),
      status: fc.constantFrom("accepted", "pending"),
    });
    fc.assert(
      fc.property(fc.array(memberArb, { maxLength: 30 }), (members) => {
        const accepted = members.filter((m) => m.status === "accepted").map((m) => m.score);
        const expected =
          accepted.length === 0 ? 0 : accepted.reduce((a, b) => a + b, 0) / accepted.length;
        expect(Math.abs(leagueScore(members) - expected)).toBeLessThanOrEqual(0.005 + 1e-9);
        // Changing pending members changes nothing.
        const pendingChanged = members.map((m) =>
          m.status === "pending" ? { ...m, score: m.score + 1000 } : m,
        );
        expect(leagueScore(pendingChanged)).toBe(leagueScore(members));
      }),
    );
  });
  it("property: rounds exactly half-up to cents, like the settlement's SQL round(avg, 2)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 80 }),
        fc.integer({ min: 0, max: 100_000 }),
        (n, total) => {
          // n accepted members whose scores sum to `total` (one holds it all).
          const members = Array.from({ length: n }, (_, i) => ({
            score: i === 0 ? total : 0,
            status: "accepted",
          }));
          // Exact rational arithmetic: floor((200 * total + n) / (2n)) is half-up in cents.
          const cents = (200n * BigInt(total) + BigInt(n)) / (2n * BigInt(n));
          expect(Math.round(leagueScore(members) * 100)).toBe(Number(cents));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("rounds an exact half up where dividing first would drift (23 / 40 = 0.575 -> 0.58)", () => {
    const members = Array.from({ length: 40 }, (_, i) => ({
      score: i === 0 ? 23 : 0,
      status: "accepted",
    }));
    expect(leagueScore(members)).toBe(0.58);
  });
});

describe("competitionRanks", () => {
  it("gives 1, 1, 3 for a tie at the top", () => {
    expect(competitionRanks([50, 50, 40])).toEqual([1, 1, 3]);
    expect(competitionRanks([90, 80, 80, 80, 10])).toEqual([1, 2, 2, 2, 5]);
    expect(competitionRanks([7, 7, 7])).toEqual([1, 1, 1]);
    expect(competitionRanks([])).toEqual([]);
    expect(competitionRanks([0])).toEqual([1]);
  });

  it("property: ranks are non-decreasing and rank[i] = 1 + count of strictly higher scores", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 40 }), (raw) => {
        const points = [...raw].sort((a, b) => b - a);
        const ranks = competitionRanks(points);
        expect(ranks).toHaveLength(points.length);
        for (let i = 0; i < ranks.length; i++) {
          if (i > 0) expect(ranks[i]!).toBeGreaterThanOrEqual(ranks[i - 1]!);
          const higher = points.filter((p) => p > points[i]!).length;
          expect(ranks[i]).toBe(1 + higher);
        }
      }),
    );
  });
});
