import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "../client.js";
import { racers } from "../schema/index.js";
import { createTestDb } from "../testing.js";
import {
  getLeagueRankingPage,
  getLeagueStandingsOfUser,
  getPlayerRankingPage,
  getPlayerStanding,
  pageOf,
} from "./rankings.js";
import { addRacers, makePlayers, putLeague, putResults, putTeam } from "./scoring.fixtures.js";
import { settleEvent } from "./scoring.js";

let h: DbHandle;
const now = new Date("2027-06-01T00:00:00Z");
type P = { id: number; username: string };
let ps: P[];
let men: { id: number; firstName: string; lastName: string }[];
let late: P | undefined;
let leagueIds: number[];
let newLeague: number;
let soloBefore: number;
let soloAfter: number;
let twin: number;

/*
 * Round 1 (event 5): five players, points 180, 100, 100, 50, 0 -> ranks 1, 2, 2, 4, 5.
 * "late" signs up after and has no team. Round 2 has a team but no results yet.
 */
beforeAll(async () => {
  h = await createTestDb({ seed: true });
  men = await h.db
    .select({ id: racers.id, firstName: racers.firstName, lastName: racers.lastName })
    .from(racers)
    .where(eq(racers.category, "Pro Men"))
    .orderBy(racers.id);
  ps = await makePlayers(h.db, ["eve", "Dan", "cat", "bob", "amy"]);
  const [eve, dan, cat, bob, amy] = ps;
  await putTeam(h.db, eve!.id, 5, [men[0]!.id, men[1]!.id]);
  await putTeam(h.db, dan!.id, 5, [men[0]!.id]);
  await putTeam(h.db, cat!.id, 5, [men[0]!.id, men[5]!.id]);
  await putTeam(h.db, bob!.id, 5, [men[3]!.id]);
  await putTeam(h.db, amy!.id, 5, [men[6]!.id]);
  await putResults(h.db, 5, [
    { racerId: men[0]!.id, category: "Pro Men", status: "finished", position: 1 },
    { racerId: men[1]!.id, category: "Pro Men", status: "finished", position: 2 },
    { racerId: men[3]!.id, category: "Pro Men", status: "finished", position: 4 },
    { racerId: men[5]!.id, category: "Pro Men", status: "DNF", position: null },
  ]);
  leagueIds = [
    await putLeague(h.db, "Weak", [bob!.id, amy!.id]),
    await putLeague(h.db, "Strong", [eve!.id, dan!.id]),
  ];
  // Leagues of one (the probe's spam billboards): the best score of all, before the results...
  soloBefore = await putLeague(h.db, "WIN 500 EUR now: claim at evil.example/prize", [eve!.id]);
  await settleEvent(h.db, 5, { now });
  [late] = await makePlayers(h.db, ["late"]);
  newLeague = await putLeague(h.db, "Fresh", [late!.id, amy!.id]);
  // ... and one made since.
  soloAfter = await putLeague(h.db, "www.evil-prize.com", [late!.id]);
  // The same racer (matched by name) entered in round 2; eve's team holds him through it.
  const [added] = await addRacers(h.db, 6, [
    { category: "Pro Men", firstName: men[0]!.firstName, lastName: men[0]!.lastName },
  ]);
  twin = added!.id;
  await putTeam(h.db, eve!.id, 6, [twin]);
});
afterAll(() => h.close());

describe("player ranking", () => {
  it("pages the season table by stored place: shared ranks, ties by username", async () => {
    const first = await getPlayerRankingPage(h.db, { page: 1, pageSize: 2 });
    expect(first).toMatchObject({ page: 1, pageCount: 3, pageSize: 2, total: 5 });
    expect(first.rows.map((r) => [r.rank, r.username, r.points, r.position])).toEqual([
      [1, "eve", 180, 1],
      [2, "cat", 100, 2],
    ]);
    const second = await getPlayerRankingPage(h.db, { page: 2, pageSize: 2 });
    expect(second.rows.map((r) => [r.rank, r.username, r.points])).toEqual([
      [2, "Dan", 100],
      [4, "bob", 50],
    ]);
    const last = await getPlayerRankingPage(h.db, { page: 99, pageSize: 2 });
    expect(last.page).toBe(3);
    expect(last.rows.map((r) => [r.rank, r.username, r.points])).toEqual([[5, "amy", 0]]);
    expect(last.rows[0]!.previousRank).toBeNull();
    expect((await getPlayerRankingPage(h.db, { page: -4 })).page).toBe(1);
  });

  it("has an event view of the same shape", async () => {
    const page = await getPlayerRankingPage(h.db, { eventId: 5 });
    expect(page).toMatchObject({ page: 1, pageCount: 1, total: 5, pageSize: 50 });
    expect(page.rows.map((r) => r.username)).toEqual(["eve", "cat", "Dan", "bob", "amy"]);
    const none = await getPlayerRankingPage(h.db, { eventId: 6 });
    expect(none).toMatchObject({ rows: [], total: 0, page: 1, pageCount: 1 });
  });

  it("finds a player's own row and its page", async () => {
    const dan = ps[1]!;
    expect(await getPlayerStanding(h.db, dan.id)).toEqual({
      id: dan.id,
      username: "Dan",
      points: 100,
      rank: 2,
      previousRank: null,
      position: 3,
    });
    expect(await getPlayerStanding(h.db, dan.id, 5)).toMatchObject({
      rank: 2,
      points: 100,
      position: 3,
    });
    expect(await getPlayerStanding(h.db, late!.id)).toBeNull();
    expect(await getPlayerStanding(h.db, dan.id, 6)).toBeNull();
    expect([pageOf(1), pageOf(50), pageOf(51), pageOf(3, 2)]).toEqual([1, 1, 2, 2]);
  });
});

describe("league ranking", () => {
  it("lists ranked leagues by place, then leagues created since", async () => {
    const page = await getLeagueRankingPage(h.db);
    expect(page).toMatchObject({ page: 1, pageCount: 1, total: 3 });
    expect(page.rows).toEqual([
      { id: leagueIds[1], name: "Strong", totalPoints: 140, rank: 1, previousRank: null },
      { id: leagueIds[0], name: "Weak", totalPoints: 25, rank: 2, previousRank: null },
      { id: newLeague, name: "Fresh", totalPoints: 0, rank: 3, previousRank: null },
    ]);
    const tail = await getLeagueRankingPage(h.db, { page: 2, pageSize: 2 });
    expect(tail.rows.map((r) => [r.rank, r.name])).toEqual([[3, "Fresh"]]);
  });

  it("lists only leagues of two members or more, ranked at the results or made since", async () => {
    const page = await getLeagueRankingPage(h.db);
    const ids = page.rows.map((r) => r.id);
    expect(ids).not.toContain(soloBefore);
    expect(ids).not.toContain(soloAfter);
    expect(page.total).toBe(3);
    // The settlement gave the league of one no place; its total is still kept for its card.
    expect(await getLeagueStandingsOfUser(h.db, ps[0]!.id)).toContainEqual(
      expect.objectContaining({ id: soloBefore, rank: 0, totalPoints: 180, memberCount: 1 }),
    );
  });

  it("lists a player's leagues, ranked ones first", async () => {
    expect((await getLeagueStandingsOfUser(h.db, ps[0]!.id)).map((l) => [l.name, l.rank])).toEqual([
      ["Strong", 1],
      ["WIN 500 EUR now: claim at evil.example/prize", 0],
    ]);
    expect((await getLeagueStandingsOfUser(h.db, late!.id)).map((l) => [l.name, l.rank])).toEqual([
      ["Fresh", 0],
      ["www.evil-prize.com", 0],
    ]);
  });
});
