import { racerNameKey } from "@game/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "../client.js";
import { racers } from "../schema/index.js";
import { insertSeedEvents } from "../seed.js";
import { createTestDb } from "../testing.js";
import { listRacers } from "./racers.js";

let h: DbHandle;
beforeAll(async () => {
  h = await createTestDb();
  await insertSeedEvents(h.db, [5, 6]);
  const racer = (
    gameId: number,
    category: "Pro Men" | "Pro Women",
    firstName: string,
    lastName: string,
    rank2024: number,
  ) => ({
    gameId,
    category,
    firstName,
    lastName,
    nameKey: racerNameKey(firstName, lastName),
    rank2024,
  });
  await h.db
    .insert(racers)
    .values([
      racer(5, "Pro Men", "Zed", "Unranked", 0),
      racer(5, "Pro Men", "Third", "Rider", 3),
      racer(5, "Pro Men", "Ada", "Alpha", 0),
      racer(5, "Pro Men", "First", "Rider", 1),
      racer(5, "Pro Women", "Val", "Holl", 1),
      racer(6, "Pro Men", "Other", "Event", 2),
    ]);
});
afterAll(() => h.close());

describe("listRacers", () => {
  it("lists one event's category by rank2024 ascending, unranked last (by name)", async () => {
    const list = await listRacers(h.db, { gameId: 5, category: "Pro Men" });
    expect(list.map((r) => `${r.firstName} ${r.lastName}`)).toEqual([
      "First Rider",
      "Third Rider",
      "Ada Alpha",
      "Zed Unranked",
    ]);
    expect(list[0]).toMatchObject({ price: 75000, gameId: 5, origin: "" });
  });

  it("lists every category of the event without a category, and nothing for another event", async () => {
    expect(await listRacers(h.db, { gameId: 5 })).toHaveLength(5);
    expect((await listRacers(h.db, { gameId: 6 })).map((r) => r.lastName)).toEqual(["Event"]);
    expect(await listRacers(h.db, { gameId: 7 })).toEqual([]);
  });
});
