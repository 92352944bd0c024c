import { LOCK_MS } from "@game/core";
import { events, getTransferStatus, listTeamRacers, type TeamRacerView } from "@game/db";
import { createTestDb, type DbHandle, setRuleOptions } from "@game/db/testing";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cookieFor, makeUser, request, testContext } from "../../../tests/support/context";
import { loadTeamSetup, teamSetupAction } from "./setup.server";
import { SAVE_OK, type TeamActionResult } from "./team-form";

/* Transfers and the wildcard in the team builder (docs/decisions/0170). */

let h: DbHandle;
let pool: TeamRacerView[];
let early: Date;

beforeAll(async () => {
  h = await createTestDb({ seed: true });
  await setRuleOptions(h.db, 5, { transfers: { free: 1, bank: 3, cost: 10 }, wildcard: true });
  pool = await listTeamRacers(h.db, 5);
  const [round1] = await h.db.select().from(events).where(eq(events.id, 5));
  early = new Date(round1!.startsAt.getTime() - LOCK_MS - 3 * 86_400_000);
});
afterAll(() => h.close());

const team = () => {
  const cheapest = (category: TeamRacerView["category"], k: number) =>
    pool
      .filter((r) => r.category === category)
      .sort((a, b) => a.price - b.price || a.id - b.id)
      .slice(0, k)
      .map((r) => String(r.id));
  return [...cheapest("Pro Women", 2), ...cheapest("17-18 Men", 1), ...cheapest("Pro Men", 3)];
};

async function post(
  ctx: ReturnType<typeof testContext>,
  cookie: string,
  form: Record<string, string | string[]>,
) {
  const res = await teamSetupAction(request("/team-setup?game=5", { cookie, form }), ctx);
  const { data } = res as unknown as { data: TeamActionResult };
  return data;
}

describe("transfers in the team builder", () => {
  it("gives the builder the account, and saves the wildcard box as ticked or not", async () => {
    const ctx = testContext(h.db, { now: () => early });
    const user = await makeUser(h.db);
    const cookie = await cookieFor(ctx, user);
    const page = await loadTeamSetup(request("/team-setup?game=5", { cookie }), ctx);
    const { transfers } = (page as unknown as { data: { transfers: unknown } }).data;
    // Round 1: the team's first round, its picks free.
    expect(transfers).toMatchObject({
      kept: null,
      leftBefore: null,
      rules: { free: 1, bank: 3, cost: 10 },
      wildcard: { offered: true, eventId: null },
    });

    const ids = team();
    const played = await post(ctx, cookie, {
      game: "5",
      racer: ids,
      wildcardShown: "1",
      wildcard: "on",
      intent: "save",
    });
    expect(played).toMatchObject({ ok: true, message: SAVE_OK });
    expect((await getTransferStatus(h.db, user.id, 5))!.wildcard.eventId).toBe(5);
    // The box shown and left unticked takes it back; a form without the box leaves it alone.
    await post(ctx, cookie, { game: "5", racer: ids, wildcardShown: "1", intent: "save" });
    expect((await getTransferStatus(h.db, user.id, 5))!.wildcard.eventId).toBeNull();
    await post(ctx, cookie, {
      game: "5",
      racer: ids,
      wildcardShown: "1",
      wildcard: "on",
      intent: "save",
    });
    await post(ctx, cookie, { game: "5", racer: ids, intent: "save" });
    expect((await getTransferStatus(h.db, user.id, 5))!.wildcard.eventId).toBe(5);
  });
});
