import {
  type AdvanceSummary,
  auditLog,
  copyRacers,
  createCompetition,
  createRound,
  events,
  raceResults,
  racers,
  setEventStatus,
  settleEvent,
} from "@game/db";
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

it("advances the competition chosen when several have an open round", async () => {
  const actor = { actor: "test", actorId: null };
  const now = new Date();
  await createCompetition(h.db, { name: "XC Cup 2028", discipline: "cross-country" }, actor, now);
  const r1 = await createRound(
    h.db,
    { competition: "xc-cup-2028", name: "Round 1", startsAt: new Date("2028-05-14T10:00:00Z") },
    actor,
    { now },
  );
  await createRound(
    h.db,
    { competition: "xc-cup-2028", name: "Round 2", startsAt: new Date("2028-06-14T10:00:00Z") },
    actor,
    { now },
  );
  await copyRacers(h.db, 5, r1.id, { actor, now });
  await setEventStatus(h.db, r1.id, "open", actor);

  // Two competitions have an open round with a next one: the admin must say which.
  const which = await post({ intent: "season-advance", confirm: "no" });
  expect(which.status).toBe(409);
  expect(which.body.error).toMatch(/^More than one competition has an open round to advance/);
  expect(which.body.error).toContain("pro-downhill-series-2027");
  expect(which.body.error).toContain("xc-cup-2028");

  // The form's competition reaches the service: each answer is about the one chosen.
  const xc = await post({ intent: "season-advance", confirm: "no", competition: "xc-cup-2028" });
  expect(xc.status).toBe(409);
  expect(xc.body.error).toMatch(/^Round 1 has not been settled yet/);
  const confirmed = await post({
    intent: "season-advance",
    confirm: "yes",
    competition: "xc-cup-2028",
    from: String(r1.id),
    to: String(r1.id + 1),
  });
  expect(confirmed.body.error).toMatch(/^Round 1 has not been settled yet/);
  const unknown = await post({ intent: "season-advance", confirm: "no", competition: "nope" });
  expect(unknown.body.error).toBe(
    'No competition has the slug "nope" (see `game-admin competitions list`).',
  );
  const [open] = await h.db.select().from(events).where(eq(events.id, r1.id));
  expect(open!.status).toBe("open");
});
