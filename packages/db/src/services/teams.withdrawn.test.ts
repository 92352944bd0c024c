import { LOCK_MS } from "@game/core";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "../client.js";
import { events } from "../schema/index.js";
import { createTestDb } from "../testing.js";
import { CLI_ACTOR } from "./audit.js";
import { setRacerWithdrawn, withdrawnRacersOnTeam } from "./racers-admin.js";
import { listTeamRacers, saveTeam, type TeamRacerView } from "./teams.js";
import { createAccount } from "./users.js";

let h: DbHandle;
let pool: TeamRacerView[];
let early: Date;

function team(offset = 0): number[] {
  const cheapest = (c: string) =>
    pool.filter((r) => r.category === c).sort((a, b) => a.price - b.price || a.id - b.id);
  return [
    ...cheapest("Pro Women").slice(offset, offset + 2),
    ...cheapest("17-18 Men").slice(offset, offset + 1),
    ...cheapest("Pro Men").slice(offset, offset + 3),
  ].map((r) => r.id);
}

beforeAll(async () => {
  h = await createTestDb({ seed: true });
  pool = await listTeamRacers(h.db, 5);
  const [round1] = await h.db.select().from(events).where(eq(events.id, 5));
  early = new Date(round1!.startsAt.getTime() - LOCK_MS - 7 * 86_400_000);
});
afterAll(() => h.close());

describe("a withdrawn racer", () => {
  it("is no longer pickable, but stays on the teams that hold them, who are told", async () => {
    const holder = await createAccount(h.db, {
      email: "holder@example.com",
      username: "holder",
      passwordHash: "test:unusable",
    });
    const buyer = await createAccount(h.db, {
      email: "buyer@example.com",
      username: "buyer",
      passwordHash: "test:unusable",
    });
    const ids = team();
    const saved = await saveTeam(h.db, {
      userId: holder.id,
      eventId: 5,
      racerIds: ids,
      now: early,
    });
    expect(saved.ok).toBe(true);

    const out = ids[5]!;
    await setRacerWithdrawn(h.db, out, true, CLI_ACTOR);
    expect((await listTeamRacers(h.db, 5)).map((r) => r.id)).not.toContain(out);
    expect((await withdrawnRacersOnTeam(h.db, holder.id, 5)).map((r) => r.id)).toEqual([out]);

    // The holder may keep them while changing the rest of the team.
    const kept = await saveTeam(h.db, {
      userId: holder.id,
      eventId: 5,
      racerIds: [...ids.slice(0, 5).reverse(), out],
      now: early,
    });
    expect(kept.ok).toBe(true);
    // Nobody can buy them.
    const bought = await saveTeam(h.db, {
      userId: buyer.id,
      eventId: 5,
      racerIds: ids,
      now: early,
    });
    expect(bought).toMatchObject({
      ok: false,
      reason: "invalid",
      issues: [{ code: "unknown-racer", racerIds: [out] }],
    });
    await setRacerWithdrawn(h.db, out, false, CLI_ACTOR);
    expect(
      (await saveTeam(h.db, { userId: buyer.id, eventId: 5, racerIds: ids, now: early })).ok,
    ).toBe(true);
  });
});
