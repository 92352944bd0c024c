import { events } from "@game/db";
import { createTestDb, type DbHandle } from "@game/db/testing";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request, testContext } from "../../tests/support/context";
import { getCurrentGame, rememberGame } from "./game.server";

let h: DbHandle;
beforeAll(async () => {
  h = await createTestDb({ seed: true });
});
afterAll(() => h.close());

describe("getCurrentGame", () => {
  it("prefers ?game=, then the remembered game, then the open event", async () => {
    const ctx = testContext(h.db);
    expect((await getCurrentGame(request("/view-racers?game=7"), ctx))?.id).toBe(7);
    const cookie = (await rememberGame(3)).split(";")[0]!;
    expect((await getCurrentGame(request("/about", { cookie }), ctx))?.id).toBe(3);
    expect((await getCurrentGame(request("/about"), ctx))?.id).toBe(5);
    expect((await getCurrentGame(request("/about?game=999"), ctx))?.id).toBe(5);
  });

  it("falls back to the latest event when none is open", async () => {
    const ctx = testContext(h.db);
    await h.db.update(events).set({ status: "closed" }).where(eq(events.id, 5));
    expect((await getCurrentGame(request("/about"), ctx))?.id).toBe(9);
  });
});
