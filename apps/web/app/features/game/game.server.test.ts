import { events } from "@game/db";
import { createTestDb, type DbHandle } from "@game/db/testing";
import { createCookie } from "@remix-run/node";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request, testContext } from "../../../tests/support/context";
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
    const cookie = (await rememberGame({ id: 5, status: "open" }))!.split(";")[0]!;
    expect((await getCurrentGame(request("/about", { cookie }), ctx))?.id).toBe(5);
    expect((await getCurrentGame(request("/about"), ctx))?.id).toBe(5);
    expect((await getCurrentGame(request("/about?game=999"), ctx))?.id).toBe(5);
  });

  it("never remembers an archived or closed event, nor takes one from an old cookie", async () => {
    const ctx = testContext(h.db);
    expect(await rememberGame({ id: 1, status: "archived" })).toBeNull();
    expect(await rememberGame({ id: 6, status: "closed" })).toBeNull();
    // A cookie from before this rule (or from a round since archived) falls back to the open one.
    const old = (await createCookie("gf_game").serialize("1")).split(";")[0]!;
    expect((await getCurrentGame(request("/view-racers", { cookie: old }), ctx))?.id).toBe(5);
  });

  it("falls back to the latest scored event, else the latest, when none is open", async () => {
    const ctx = testContext(h.db);
    await h.db.update(events).set({ status: "closed" }).where(eq(events.id, 5));
    expect((await getCurrentGame(request("/about"), ctx))?.id).toBe(9);
    await h.db.update(events).set({ settledAt: new Date() }).where(eq(events.id, 2));
    expect((await getCurrentGame(request("/about"), ctx))?.id).toBe(2);
  });
});
