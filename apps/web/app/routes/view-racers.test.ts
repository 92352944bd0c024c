import { createTestDb, type DbHandle } from "@game/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request, testContext } from "../../tests/support/context";
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

  it("lists the racers of the chosen game (none for an archived one)", async () => {
    const archived = await load("/view-racers?game=1");
    expect(archived.game?.id).toBe(1);
    expect(archived.racers).toEqual([]);
  });
});
