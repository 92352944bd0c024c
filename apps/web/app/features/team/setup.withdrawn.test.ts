import { LOCK_MS } from "@game/core";
import {
  CLI_ACTOR,
  events,
  listTeamRacers,
  saveTeam,
  setRacerWithdrawn,
  type TeamRacerView,
} from "@game/db";
import { createTestDb, type DbHandle } from "@game/db/testing";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cookieFor, makeUser, request, testContext } from "../../../tests/support/context";
import { loadTeamSetup } from "./setup.server";

let h: DbHandle;
let pool: TeamRacerView[];
let early: Date;

beforeAll(async () => {
  h = await createTestDb({ seed: true });
  pool = await listTeamRacers(h.db, 5);
  const [round1] = await h.db.select().from(events).where(eq(events.id, 5));
  early = new Date(round1!.startsAt.getTime() - LOCK_MS - 3 * 86_400_000);
});
afterAll(() => h.close());

const cheapest = (category: TeamRacerView["category"], k: number) =>
  pool
    .filter((r) => r.category === category)
    .sort((a, b) => a.price - b.price || a.id - b.id)
    .slice(0, k)
    .map((r) => r.id);

async function load(ctx: ReturnType<typeof testContext>, cookie: string) {
  const res = await loadTeamSetup(request("/team-setup?game=5", { cookie }), ctx);
  return (res as unknown as { data: Awaited<ReturnType<typeof loadTeamSetup>>["data"] }).data;
}

describe("team page after a racer is withdrawn", () => {
  it("tells the team holding them and keeps them on it; others cannot pick them", async () => {
    const ctx = testContext(h.db, { now: () => early });
    const holder = await makeUser(h.db);
    const other = await makeUser(h.db);
    const team = [
      ...cheapest("Pro Women", 2),
      ...cheapest("17-18 Men", 1),
      ...cheapest("Pro Men", 3),
    ];
    expect(
      (await saveTeam(h.db, { userId: holder.id, eventId: 5, racerIds: team, now: early })).ok,
    ).toBe(true);
    const out = pool.find((r) => r.id === team[5])!;
    await setRacerWithdrawn(h.db, out.id, true, CLI_ACTOR);

    const mine = await load(ctx, await cookieFor(ctx, holder));
    expect(mine.withdrawn).toEqual([`${out.firstName} ${out.lastName}`]);
    expect(mine.draft).toEqual(team);
    expect(mine.racers.map((r) => r.id)).toContain(out.id);

    const theirs = await load(ctx, await cookieFor(ctx, other));
    expect(theirs.withdrawn).toEqual([]);
    expect(theirs.racers.map((r) => r.id)).not.toContain(out.id);
  });
});
