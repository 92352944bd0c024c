import { type AdvanceSummary, auditLog, events, raceResults, racers, settleEvent } from "@game/db";
import { createTestDb, type DbHandle } from "@game/db/testing";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { cookieFor, makeUser, request, testContext } from "../../tests/support/context";
import * as page from "./admin.events";

let h: DbHandle;
let ctx: ReturnType<typeof testContext>;
let adminCookie: string;

beforeAll(async () => {
  h = await createTestDb({ seed: true });
  ctx = testContext(h.db);
  adminCookie = await cookieFor(ctx, await makeUser(h.db, { role: "admin" }));
});
afterAll(() => h.close());

async function post(form: Record<string, string>) {
  const value = (await page.action({
    request: request("/admin/events", { cookie: adminCookie, form }),
    context: ctx,
    params: {},
  })) as { data: Record<string, unknown>; init?: { status?: number } | null };
  return {
    status: value.init?.status ?? 200,
    body: value.data as { error?: string; summary?: AdvanceSummary },
  };
}

it("previews and advances the season with the same service the CLI uses", async () => {
  const refused = await post({ intent: "season-advance", confirm: "no" });
  expect(refused.status).toBe(409);
  expect(refused.body.error).toMatch(/has not been settled yet/);

  const [winner] = await h.db.select().from(racers).where(eq(racers.category, "Pro Women"));
  await h.db.insert(raceResults).values({
    eventId: 5,
    racerId: winner!.id,
    category: winner!.category,
    status: "finished",
    position: 1,
  });
  const [e5] = await h.db.select().from(events).where(eq(events.id, 5));
  await settleEvent(h.db, 5, { now: new Date(e5!.startsAt.getTime() + 3_600_000) });

  const preview = await post({ intent: "season-advance", confirm: "no" });
  expect(preview.status).toBe(200);
  expect(preview.body.summary).toMatchObject({ dryRun: true, from: { id: 5 }, to: { id: 6 } });
  expect(await h.db.select().from(racers).where(eq(racers.gameId, 6))).toEqual([]);

  // One click never advances: a confirmation must name the rounds its preview showed.
  const unconfirmed = await post({ intent: "season-advance", confirm: "yes" });
  expect(unconfirmed).toMatchObject({
    status: 400,
    body: { error: "Preview the advance first, then confirm the rounds it shows." },
  });
  const stale = await post({ intent: "season-advance", confirm: "yes", from: "5", to: "7" });
  expect(stale.status).toBe(409);
  expect(stale.body.error).toMatch(
    /^The season has changed since the preview: it would now advance .*Round 1: Windrock to .*Round 2: Snowshoe\. Preview it again\.$/,
  );
  expect(await h.db.select().from(racers).where(eq(racers.gameId, 6))).toEqual([]);

  const done = await post({ intent: "season-advance", confirm: "yes", from: "5", to: "6" });
  expect(done.body.summary).toMatchObject({ dryRun: false, to: { id: 6 } });
  expect(done.body.summary!.prices[0]).toMatchObject({ fromRacerId: winner!.id, band: "podium" });
  const [log] = await h.db.select().from(auditLog).where(eq(auditLog.action, "season.advance"));
  expect(log!.actor).toMatch(/^web:/);
});

it("saves a round scheduled before the round ahead of it, and says the order still holds", async () => {
  const saved = await post({
    eventId: "8",
    status: "closed",
    startsAt: "2027-05-01T12:00",
    timeZone: "UTC",
  });
  expect(saved.status).toBe(200);
  expect(saved.body).toMatchObject({
    ok: true,
    warning:
      "Pro Downhill Series Round 4: Angel Fire (round 4) now starts before Pro Downhill Series Round 3: Mammoth Mountain (round 3, Sunday 20 June 2027, 17:00 UTC). The season still advances by round number, not by date.",
  });
  const [e8] = await h.db.select().from(events).where(eq(events.id, 8));
  expect(e8!.startsAt.toISOString()).toBe("2027-05-01T12:00:00.000Z");
});
