import { countOpenPicks, events, listTeamRacers, saveTeam } from "@game/db";
import { createTestDb, type DbHandle } from "@game/db/testing";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeUser, request, testContext } from "../../tests/support/context";
import { loader } from "./view-racers";

let h: DbHandle;
beforeAll(async () => {
  h = await createTestDb({ seed: true });
});
afterAll(() => h.close());

const load = (path: string) =>
  loader({ request: request(path), context: testContext(h.db), params: {} });

describe("view-racers loader", () => {
  it("shows the open event's Pro Men by default, ranked ascending with unranked last", async () => {
    const { game, category, racers, sort } = await load("/view-racers");
    expect(game?.id).toBe(5);
    expect(category).toBe("Pro Men");
    expect(sort).toEqual({ key: "rank", direction: "asc" });
    expect(racers.length).toBeGreaterThan(5);
    expect(racers.every((r) => r.category === "Pro Men")).toBe(true);
    const ranks = racers.map((r) => r.rank2024);
    const ranked = ranks.filter((r) => r > 0);
    expect(ranked).toEqual([...ranked].sort((a, b) => a - b));
    expect(ranks.slice(ranked.length).every((r) => r === 0)).toBe(true);
  });

  it("reads the category and the sort from the URL, ignoring nonsense", async () => {
    const women = await load("/view-racers?category=junior-women&sort=price&dir=desc");
    expect(women.category).toBe("17-18 Women");
    expect(women.racers.every((r) => r.category === "17-18 Women")).toBe(true);
    expect(women.sort).toEqual({ key: "price", direction: "desc" });
    const junk = await load("/view-racers?category=elite&sort=drop%20table");
    expect(junk.category).toBe("Pro Men");
    expect(junk.sort).toEqual({ key: "rank", direction: "asc" });
  });

  it("carries each racer's picked-by share once the round's teams are counted", async () => {
    const before = await load("/view-racers");
    expect(before.racers.every((r) => r.pickedByPercent === null)).toBe(true);
    // One team of the six cheapest valid picks, then the count the scheduled job makes.
    const user = await makeUser(h.db);
    const pool = await listTeamRacers(h.db, 5);
    const cheapest = (c: string, n: number) =>
      pool
        .filter((r) => r.category === c)
        .sort((a, b) => a.price - b.price || a.id - b.id)
        .slice(0, n);
    const team = [
      ...cheapest("Pro Women", 2),
      ...cheapest("17-18 Men", 1),
      ...cheapest("Pro Men", 3),
    ];
    const [round] = await h.db.select().from(events).where(eq(events.id, 5));
    const early = new Date(round!.startsAt.getTime() - 3 * 86_400_000);
    const saved = await saveTeam(h.db, {
      userId: user.id,
      eventId: 5,
      racerIds: team.map((r) => r.id),
      now: early,
    });
    expect(saved).toMatchObject({ ok: true });
    await countOpenPicks(h.db, early);
    const { racers } = await load("/view-racers");
    const picked = new Set(team.map((r) => r.id));
    for (const r of racers) expect(r.pickedByPercent).toBe(picked.has(r.id) ? 100 : 0);
  });

  it("lists the racers of the chosen game (none for an archived one)", async () => {
    const archived = await load("/view-racers?game=1");
    expect(archived.game?.id).toBe(1);
    expect(archived.racers).toEqual([]);
  });
});
