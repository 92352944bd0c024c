import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LEAGUE_RANKING_MIN_MEMBERS } from "./constants.js";
import {
  averageToCents,
  referenceSettlement,
  type SettlementInput,
} from "./reference-settlement.js";
import { competitionRanks, type RaceResult, teamScore } from "./scoring.js";

describe("averageToCents", () => {
  it("rounds half up exactly, where floating point would not", () => {
    // 201 / 200 = 1.005; (201 / 200) * 100 is 100.49999... in floating point.
    expect(averageToCents([1, 1, ...Array(198).fill(1), 3])).toBe(1.01);
    expect(averageToCents([1, 2])).toBe(1.5);
    expect(averageToCents([1, 1, 2])).toBe(1.33);
    expect(averageToCents([])).toBe(0);
  });
});

describe("referenceSettlement", () => {
  const t = (d: string) => new Date(d);

  it("scores, ranks with shared places (1, 1, 3) and orders ties by username", () => {
    const s = referenceSettlement({
      events: [{ id: 5, startsAt: t("2027-04-18T16:00:00Z") }],
      results: [
        { eventId: 5, racerId: 1, status: "finished", position: 1 },
        { eventId: 5, racerId: 2, status: "finished", position: 2 },
        { eventId: 5, racerId: 3, status: "DNF", position: null },
      ],
      frozen: [
        { eventId: 5, userId: 10, racerId: 1 },
        { eventId: 5, userId: 11, racerId: 1 },
        { eventId: 5, userId: 12, racerId: 2 },
        { eventId: 5, userId: 12, racerId: 3 },
      ],
      users: [
        { id: 10, usernameKey: "zed" },
        { id: 11, usernameKey: "amy" },
        { id: 12, usernameKey: "bob" },
        { id: 13, usernameKey: "newbie" },
      ],
      leagues: [
        { id: 1, memberIds: [10, 12] },
        { id: 2, memberIds: [11] },
        { id: 3, memberIds: [13] },
      ],
    });
    expect(s.racers.get("5:1")).toEqual({ points: 100, pickedBy: 2 });
    expect(s.racers.get("5:3")).toEqual({ points: 0, pickedBy: 1 });
    expect(s.eventScores.get("5:11")).toEqual({ points: 100, rank: 1, position: 1 });
    expect(s.eventScores.get("5:10")).toEqual({ points: 100, rank: 1, position: 2 });
    expect(s.eventScores.get("5:12")).toEqual({ points: 80, rank: 3, position: 3 });
    expect(s.players.get(13)).toEqual({
      points: 0,
      ranking: null,
      previousRanking: null,
      position: null,
    });
    expect(s.players.get(12)).toEqual({
      points: 80,
      ranking: 3,
      previousRanking: null,
      position: 3,
    });
    expect(s.memberScores.get("1:12")).toBe(80);
    // Leagues of one keep their average but get no place (decision 0151).
    expect(s.leagues.get(1)).toEqual({ totalPoints: 90, ranking: 1, previousRanking: null });
    expect(s.leagues.get(2)).toEqual({ totalPoints: 100, ranking: null, previousRanking: null });
    expect(s.leagues.get(3)).toEqual({ totalPoints: 0, ranking: null, previousRanking: null });
  });

  it("previous ranking is the season table before the latest event by start time", () => {
    const s = referenceSettlement({
      events: [
        { id: 6, startsAt: t("2027-05-16T16:00:00Z") },
        { id: 5, startsAt: t("2027-04-18T16:00:00Z") },
      ],
      results: [
        { eventId: 5, racerId: 1, status: "finished", position: 1 },
        { eventId: 6, racerId: 2, status: "finished", position: 1 },
      ],
      frozen: [
        { eventId: 5, userId: 10, racerId: 1 },
        { eventId: 5, userId: 11, racerId: 2 },
        { eventId: 6, userId: 11, racerId: 2 },
        { eventId: 6, userId: 12, racerId: 2 },
      ],
      users: [
        { id: 10, usernameKey: "a" },
        { id: 11, usernameKey: "b" },
        { id: 12, usernameKey: "c" },
      ],
      leagues: [],
    });
    expect(s.players.get(10)).toEqual({ points: 100, ranking: 1, previousRanking: 1, position: 1 });
    expect(s.players.get(11)).toEqual({ points: 100, ranking: 1, previousRanking: 2, position: 2 });
    expect(s.players.get(12)).toEqual({
      points: 100,
      ranking: 1,
      previousRanking: null,
      position: 3,
    });
  });

  it("keeps one table per competition; leagues are ranked within their own", () => {
    const s = referenceSettlement({
      events: [
        { id: 1, startsAt: 100, competitionId: 7 },
        { id: 2, startsAt: 200, competitionId: 7 },
        { id: 3, startsAt: 300, competitionId: 8 },
      ],
      results: [
        { eventId: 1, racerId: 11, status: "finished", position: 1 },
        { eventId: 2, racerId: 21, status: "finished", position: 2 },
        { eventId: 3, racerId: 31, status: "finished", position: 3 },
      ],
      frozen: [
        { eventId: 1, userId: 1, racerId: 11 },
        { eventId: 2, userId: 1, racerId: 21 },
        { eventId: 2, userId: 2, racerId: 21 },
        { eventId: 3, userId: 2, racerId: 31 },
      ],
      users: [
        { id: 1, usernameKey: "ann" },
        { id: 2, usernameKey: "bob" },
      ],
      leagues: [
        { id: 1, memberIds: [1, 2], competitionId: 7 },
        { id: 2, memberIds: [1, 2], competitionId: 8 },
      ],
    });
    // Competition 7: Ann 100 + 80, Bob 80 (he joined in round 2); its "before" is round 1.
    expect(s.standings.get("7:1")).toEqual({
      points: 180,
      ranking: 1,
      previousRanking: 1,
      position: 1,
    });
    expect(s.standings.get("7:2")).toEqual({
      points: 80,
      ranking: 2,
      previousRanking: null,
      position: 2,
    });
    // Competition 8 (the latest settled event's): Bob alone, and the players' view is it.
    expect(s.standings.get("8:2")).toEqual({
      points: 65,
      ranking: 1,
      previousRanking: null,
      position: 1,
    });
    expect(s.standings.has("8:1")).toBe(false);
    expect(s.players.get(1)).toEqual({
      points: 0,
      ranking: null,
      previousRanking: null,
      position: null,
    });
    // Each league averages its members' points in its own competition.
    expect(s.memberScores.get("1:1")).toBe(180);
    expect(s.memberScores.get("2:1")).toBe(0);
    expect(s.leagues.get(1)).toEqual({ totalPoints: 130, ranking: 1, previousRanking: 1 });
    expect(s.leagues.get(2)).toEqual({ totalPoints: 32.5, ranking: 1, previousRanking: null });
  });

  it("property: agrees with teamScore, competitionRanks and the league average", () => {
    const resultArb = fc.oneof(
      fc.record({
        status: fc.constant("finished" as const),
        position: fc.integer({ min: 1, max: 15 }),
      }),
      fc.record({
        status: fc.constantFrom("DNF" as const, "DNS" as const, "DSQ" as const),
        position: fc.constant(null),
      }),
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 1, max: 12 }), resultArb), { maxLength: 12 }),
        fc.array(fc.uniqueArray(fc.integer({ min: 1, max: 14 }), { maxLength: 6 }), {
          minLength: 1,
          maxLength: 12,
        }),
        (resultEntries, teams) => {
          const results = new Map(resultEntries);
          const input: SettlementInput = {
            events: [{ id: 5, startsAt: 0 }],
            results: [...results].map(([racerId, r]) => ({ eventId: 5, racerId, ...r })),
            frozen: teams.flatMap((team, u) =>
              team.map((racerId) => ({ eventId: 5, userId: u + 1, racerId })),
            ),
            users: teams.map((_, u) => ({ id: u + 1, usernameKey: `p${u % 3}` })),
            leagues: [{ id: 1, memberIds: teams.map((_, u) => u + 1) }],
          };
          const s = referenceSettlement(input);
          const asRace = new Map<number, RaceResult>(
            [...results].map(([id, r]) => [
              id,
              r.status === "finished" ? { position: r.position! } : { status: r.status },
            ]),
          );
          const scored = teams
            .map((team, u) => ({ id: u + 1, points: teamScore(team, asRace) }))
            .filter((_, u) => teams[u]!.length > 0);
          const sorted = [...scored].sort((a, b) => b.points - a.points);
          const ranks = competitionRanks(sorted.map((x) => x.points));
          sorted.forEach((x, i) => {
            expect(s.eventScores.get(`5:${x.id}`)).toMatchObject({
              points: x.points,
              rank: ranks[i],
            });
            expect(s.players.get(x.id)).toMatchObject({ points: x.points, ranking: ranks[i] });
          });
          const positions = [...s.eventScores.values()]
            .map((e) => e.position)
            .sort((a, b) => a - b);
          expect(positions).toEqual(scored.map((_, i) => i + 1));
          const avg =
            s.players.size === 0
              ? 0
              : [...s.players.values()].reduce((a, p) => a + p.points, 0) / s.players.size;
          expect(Math.abs(s.leagues.get(1)!.totalPoints - avg)).toBeLessThanOrEqual(0.005 + 1e-9);
        },
      ),
    );
  });

  it("property: places go to leagues of two members or more only, 1..n by average", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 300 }), { minLength: 1, maxLength: 8 }),
        fc.array(fc.uniqueArray(fc.integer({ min: 0, max: 7 }), { maxLength: 4 }), {
          maxLength: 8,
        }),
        (points, memberLists) => {
          const users = points.map((_, u) => ({ id: u + 1, usernameKey: `p${u}` }));
          const s = referenceSettlement({
            events: [{ id: 5, startsAt: 0 }],
            results: [{ eventId: 5, racerId: 1, status: "finished", position: 1 }],
            frozen: [],
            users,
            leagues: memberLists.map((m, i) => ({
              id: i + 1,
              memberIds: m.filter((u) => u < users.length).map((u) => u + 1),
            })),
          });
          const listed = memberLists
            .map((m, i) => ({ id: i + 1, n: m.filter((u) => u < users.length).length }))
            .filter((l) => l.n >= LEAGUE_RANKING_MIN_MEMBERS);
          const places = listed.map((l) => s.leagues.get(l.id)!.ranking).sort((a, b) => a! - b!);
          expect(places).toEqual(listed.map((_, i) => i + 1));
          for (const [id, l] of s.leagues) {
            if (!listed.some((x) => x.id === id)) expect(l.ranking).toBeNull();
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
