/**
 * A season advances by the series' explicit round order, never by start times an admin edits,
 * and never reopens a settled round (docs/decisions/0140). The steps are the ones that reopened
 * round 1: round 1 settled before its lock and advanced, round 2 rescheduled to a minute ago
 * (so it starts before round 1), its results settled, advance again.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { DbHandle } from "../client.js";
import { competitions, events, racers } from "../schema/index.js";
import { createTestDb } from "../testing.js";
import { scheduleEvent } from "./admin-events.js";
import { cliActor } from "./audit.js";
import { putResults } from "./scoring.fixtures.js";
import { settleEvent } from "./scoring.js";
import { advanceSeason, previousRoundPrices } from "./season.js";

let h: DbHandle;
const actor = cliActor("admin");
const now = new Date("2026-11-26T12:00:00Z");

beforeAll(async () => {
  h = await createTestDb({ seed: true });
});
afterAll(() => h.close());

const event = async (id: number) => (await h.db.select().from(events).where(eq(events.id, id)))[0]!;

/** Every racer of the round finishes, in id order, and the round is settled. */
async function score(eventId: number) {
  const field = await h.db.select().from(racers).where(eq(racers.gameId, eventId));
  const byCategory = new Map<string, number>();
  await putResults(
    h.db,
    eventId,
    field.map((r) => {
      const position = (byCategory.get(r.category) ?? 0) + 1;
      byCategory.set(r.category, position);
      return { racerId: r.id, category: r.category, status: "finished" as const, position };
    }),
  );
  await settleEvent(h.db, eventId, { now });
}

it("numbers the seeded series' rounds in race order", async () => {
  const rows = await h.db.select().from(events).orderBy(events.id);
  expect(rows.map((e) => [e.id, e.round])).toEqual([
    [1, 1],
    [2, 2],
    [3, 3],
    [4, 4],
    [5, 1],
    [6, 2],
    [7, 3],
    [8, 4],
    [9, 5],
    [10, 1],
    [11, 1],
    [12, 2],
  ]);
});

it("a new round of a competition comes after its last round unless numbered", async () => {
  const [freeride] = await h.db
    .select()
    .from(competitions)
    .where(eq(competitions.slug, "freeride-2024"));
  const [added] = await h.db
    .insert(events)
    .values({
      id: 90,
      slug: "test-series-extra",
      name: "Extra round",
      competitionId: freeride!.id,
      cover: "/c.svg",
      logo: "/l.svg",
      startsAt: new Date("2024-01-01T00:00:00Z"),
    })
    .returning();
  expect(added!.round).toBe(3);
  await h.db.delete(events).where(eq(events.id, 90));
});

it("never reopens a settled round, whatever the dates say", async () => {
  // Round 1 scored before its lock (the dashboard allows it), then advanced.
  await score(5);
  const first = await advanceSeason(h.db, { now, actor });
  expect([first.from.id, first.to.id]).toEqual([5, 6]);

  // Round 2 moved to a minute ago: before round 1's April date. The admin is told.
  const moved = await scheduleEvent(h.db, 6, new Date(now.getTime() - 60_000), actor);
  expect(moved.warning).toMatch(
    /^Pro Downhill Series Round 2: Snowshoe \(round 2\) now starts before Pro Downhill Series Round 1: Windrock \(round 1, Sunday 18 April 2027, 16:00 UTC\)\. The season still advances by round number, not by date\.$/,
  );
  const later = new Date((await event(7)).startsAt.getTime() + 86_400_000);
  const back = await scheduleEvent(h.db, 6, later, actor);
  expect(back.warning).toMatch(/now starts after Pro Downhill Series Round 3/);
  await scheduleEvent(h.db, 6, new Date(now.getTime() - 60_000), actor);

  await score(6);
  const preview = await advanceSeason(h.db, { now, actor, dryRun: true });
  expect([preview.from.id, preview.to.id]).toEqual([6, 7]);
  const second = await advanceSeason(h.db, { now, actor });
  expect([second.from.id, second.to.id]).toEqual([6, 7]);
  expect((await event(5)).status).toBe("closed");
  expect((await event(6)).status).toBe("closed");
  expect((await event(7)).status).toBe("open");

  // Round 3's prices come from round 2 (the round before it), not from round 1.
  const previous = await previousRoundPrices(h.db, 7);
  const round2 = await h.db.select().from(racers).where(eq(racers.gameId, 6));
  const round3 = await h.db.select().from(racers).where(eq(racers.gameId, 7));
  const byPerson = new Map(round2.map((r) => [r.personId, r.price]));
  expect(round3.length).toBeGreaterThan(0);
  for (const r of round3) expect(previous.get(r.id)).toBe(byPerson.get(r.personId));
});

it("refuses an advance into a round that was already settled, writing nothing", async () => {
  // Round 4 settled (as by an import) while round 3 is still open: advancing would reopen it.
  await h.db.update(events).set({ settledAt: now }).where(eq(events.id, 8));
  await score(7);
  const before = await h.db.select().from(events).orderBy(events.id);
  await expect(advanceSeason(h.db, { now, actor })).rejects.toThrow(
    /^Pro Downhill Series Round 4: Angel Fire \(round 4 of Pro Downhill Series 2027\) has already been settled: an advance never reopens it\./,
  );
  expect(await h.db.select().from(events).orderBy(events.id)).toEqual(before);
});
