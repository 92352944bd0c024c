import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "../client.js";
import { racers } from "../schema/index.js";
import { createTestDb } from "../testing.js";
import { getPlayerProfile, getRacerProfile, pickCounter } from "./profiles.js";
import { addRacers, makePlayers, putResults, putTeam } from "./scoring.fixtures.js";
import { settleEvent } from "./scoring.js";

let h: DbHandle;
const now = new Date("2027-06-01T00:00:00Z");
let men: { id: number; firstName: string; lastName: string }[];
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
  const [eve, dan, cat, bob, amy] = await makePlayers(h.db, ["eve", "Dan", "cat", "bob", "amy"]);
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
  await settleEvent(h.db, 5, { now });
  await makePlayers(h.db, ["late"]);
  // The same racer (matched by name) entered in round 2; eve's team holds him through it.
  const [added] = await addRacers(h.db, 6, [
    { category: "Pro Men", firstName: men[0]!.firstName, lastName: men[0]!.lastName },
  ]);
  twin = added!.id;
  await putTeam(h.db, eve!.id, 6, [twin]);
});
afterAll(() => h.close());

describe("profiles", () => {
  it("shows a player's score per event and the frozen team behind it", async () => {
    const eve = await getPlayerProfile(h.db, "EVE");
    expect(eve).toMatchObject({ username: "eve", points: 180, ranking: 1, rankingPosition: 1 });
    expect(eve!.events).toEqual([
      expect.objectContaining({ eventId: 5, points: 180, rank: 1, players: 5 }),
    ]);
    // Round 2's team is not frozen: it is never shown.
    expect(Object.keys(eve!.teams)).toEqual(["5"]);
    expect(eve!.teams[5]!.map((r) => [r.racerId, r.points])).toEqual([
      [men[0]!.id, 100],
      [men[1]!.id, 80],
    ]);
    // Enough to draw the team with the widgets' TeamGrid (portrait, price, rank).
    const [row] = await h.db.select().from(racers).where(eq(racers.id, men[0]!.id));
    expect(eve!.teams[5]![0]).toMatchObject({
      firstName: row!.firstName,
      lastName: row!.lastName,
      category: "Pro Men",
      picture: row!.picture,
      price: row!.price,
      rank2024: row!.rank2024,
    });
    expect(await getPlayerProfile(h.db, "nobody")).toBeNull();
    expect((await getPlayerProfile(h.db, "late"))!.events).toEqual([]);
  });

  it("shows a racer's points per event and how many teams picked them", async () => {
    const r = await getRacerProfile(h.db, men[0]!.id);
    expect(r).toMatchObject({ id: men[0]!.id, firstName: men[0]!.firstName });
    expect(r!.events).toEqual([
      expect.objectContaining({
        racerId: men[0]!.id,
        eventId: 5,
        status: "finished",
        position: 1,
        points: 100,
        pickedBy: 3,
        teams: 5,
        settled: true,
      }),
      expect.objectContaining({
        eventId: 6,
        status: null,
        points: null,
        // Round 2 is not locked: the competition's teams as they stand (eve swapped him for his
        // round 2 entry; Dan and cat play on with him), of its five teams.
        pickedBy: 3,
        teams: 5,
        settled: false,
      }),
    ]);
    // Each round is its own entry (row), with its own page.
    expect(r!.events[1]!.racerId).not.toBe(men[0]!.id);
    expect(r).not.toHaveProperty("nameKey");
    expect((await getRacerProfile(h.db, twin))!.events).toHaveLength(2);
    expect(await getRacerProfile(h.db, 999_999)).toBeNull();
  });

  it("takes the counts of an unscored event from the counter it is given", async () => {
    const asked: string[] = [];
    const counter = {
      picks: async (id: number) => {
        asked.push(`picks ${id}`);
        return 7;
      },
      teams: async (id: number) => {
        asked.push(`teams ${id}`);
        return 9;
      },
    };
    const r = await getRacerProfile(h.db, men[0]!.id, counter);
    expect(r!.events.map((e) => [e.eventId, e.pickedBy, e.teams])).toEqual([
      [5, 3, 5],
      [6, 7, 9],
    ]);
    expect(asked).toEqual([`picks ${twin}`, "teams 6"]);
    const direct = pickCounter(h.db);
    expect([await direct.picks(twin), await direct.teams(6)]).toEqual([3, 5]);
  });
});
