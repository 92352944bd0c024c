import { BUDGET, LOCK_MS } from "@game/core";
import {
  events,
  freezeEvent,
  frozenTeamRacers,
  frozenTeams,
  importResults,
  listEventResults,
  listTeamRacers,
  saveTeam,
  seasonStandings,
} from "@game/db";
import { createTestDb, type DbHandle } from "@game/db/testing";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rememberGame } from "~/features/game/game.server";
import { loadHome } from "~/features/home/home.server";
import { cookieFor, makeUser, request, testContext } from "../../../tests/support/context";
import { loadEventHome } from "./event-home.server";

let h: DbHandle;
let start: number;
let team: number[];
let cost: number;

beforeAll(async () => {
  h = await createTestDb({ seed: true });
  const [round1] = await h.db.select().from(events).where(eq(events.id, 5));
  start = round1!.startsAt.getTime();
  const pool = await listTeamRacers(h.db, 5);
  const cheapest = (c: string, k: number) =>
    pool
      .filter((r) => r.category === c)
      .sort((a, b) => a.price - b.price)
      .slice(0, k);
  const picked = [
    ...cheapest("Pro Women", 2),
    ...cheapest("17-18 Men", 1),
    ...cheapest("Pro Men", 3),
  ];
  team = picked.map((r) => r.id);
  cost = picked.reduce((s, r) => s + r.price, 0);
});
afterAll(() => h.close());

const early = () => new Date(start - LOCK_MS - 86_400_000);

/** Home, carrying the spec's "Game not found." (the home screen shows it once). */
async function expectRedirectHome(promise: Promise<unknown>) {
  await expect(promise).rejects.toSatisfy(
    (r: Response) => r.status === 302 && r.headers.get("Location") === "/?notice=game-not-found",
  );
}

describe("event home loader", () => {
  it("sends unknown and malformed ids back to / saying 'Game not found.'", async () => {
    const ctx = testContext(h.db);
    for (const id of ["999", "abc", "5.0", "-5", "05x", "99999999999", undefined]) {
      await expectRedirectHome(loadEventHome(request(`/game/${id}`), ctx, id));
    }
    // Where the redirect lands, the home screen has the sentence to show.
    const { notice } = await loadHome(request("/?notice=game-not-found"), ctx);
    expect(notice).toBe("Game not found.");
  });

  it("shows a visitor the event and the lock moment, with no team and no greeting", async () => {
    const now = early();
    const ctx = testContext(h.db, { now: () => now });
    const { home, user, headers } = await loadEventHome(request("/game/5"), ctx, "5");
    expect(user).toBeNull();
    expect(home.player).toBeNull();
    expect(home.team).toEqual([]);
    expect(home.hasTeam).toBe(false);
    expect(home.event.name).toBe("Pro Downhill Series Round 1: Windrock");
    expect(home.event.lockAt).toBe(new Date(start - LOCK_MS).toISOString());
    expect(home.now).toBe(now.toISOString());
    expect(home.locked).toBe(false);
    expect(headers.get("Set-Cookie")).toBe(await rememberGame({ id: 5, status: "open" }));
  });

  it("greets the player with ranking (or none), points and bank, and shows their own team", async () => {
    const ctx = testContext(h.db, { now: early });
    const player = await makeUser(h.db, { username: "greeted_rider" });
    const cookie = await cookieFor(ctx, player);

    const before = await loadEventHome(request("/game/5", { cookie }), ctx, "5");
    expect(before.home.player).toEqual({
      username: "greeted_rider",
      ranking: null,
      points: 0,
      bank: BUDGET,
    });
    expect(before.home.hasTeam).toBe(false);

    expect(
      (await saveTeam(h.db, { userId: player.id, eventId: 5, racerIds: team, now: early() })).ok,
    ).toBe(true);
    // Their place in the table of the competition the rankings show (the one being played).
    await h.db.insert(seasonStandings).values({
      competitionId: sql`(select id from competitions where slug = 'pro-downhill-series-2027')`,
      position: 4,
      userId: player.id,
      points: 230,
      rank: 4,
    });
    const after = await loadEventHome(request("/game/5", { cookie }), ctx, "5");
    expect(after.home.player).toEqual({
      username: "greeted_rider",
      ranking: 4,
      points: 230,
      bank: BUDGET - cost,
    });
    expect(after.home.team.map((r) => r.id)).toEqual(team);
    expect(after.home.hasTeam).toBe(true);
  });

  it("never shows another player's team", async () => {
    const ctx = testContext(h.db, { now: early });
    const owner = await makeUser(h.db);
    await saveTeam(h.db, { userId: owner.id, eventId: 5, racerIds: team, now: early() });
    const other = await makeUser(h.db);
    const { home } = await loadEventHome(
      request("/game/5", { cookie: await cookieFor(ctx, other) }),
      ctx,
      "5",
    );
    expect(home.team).toEqual([]);
    expect(home.player?.bank).toBe(BUDGET);
  });

  it("says a closed event is not open yet and an archived one is over, remembering neither", async () => {
    const ctx = testContext(h.db, { now: early });
    const player = await makeUser(h.db);
    const cookie = await cookieFor(ctx, player);
    for (const [id, phase] of [
      ["6", "upcoming"],
      ["9", "upcoming"],
      ["1", "archived"],
    ] as const) {
      const { home, headers } = await loadEventHome(request(`/game/${id}`, { cookie }), ctx, id);
      expect(home.phase, id).toBe(phase);
      expect(home.team).toEqual([]);
      expect(headers.get("Set-Cookie"), id).toBeNull();
    }
  });

  it("locks the event once results are imported, even months before the lock", async () => {
    const ctx = testContext(h.db, { now: early });
    const player = await makeUser(h.db);
    const cookie = await cookieFor(ctx, player);
    await saveTeam(h.db, { userId: player.id, eventId: 5, racerIds: team, now: early() });
    try {
      // The freeze an early results import runs.
      await freezeEvent(h.db, 5, early());
      const locked = await loadEventHome(request("/game/5", { cookie }), ctx, "5");
      expect(locked.home.phase).toBe("locked");
      expect(locked.home.locked).toBe(true);
      expect(locked.home.team.map((r) => r.id)).toEqual(team);
      await h.db.update(events).set({ settledAt: early() }).where(eq(events.id, 5));
      const scored = await loadEventHome(request("/game/5", { cookie }), ctx, "5");
      expect(scored.home.phase).toBe("scored");
      // Scores come from the settlement (none stored for this hand-made state).
      expect(scored.home.score).toBeNull();
    } finally {
      await h.db.update(events).set({ frozenAt: null, settledAt: null }).where(eq(events.id, 5));
      await h.db.delete(frozenTeamRacers).where(eq(frozenTeamRacers.eventId, 5));
      await h.db.delete(frozenTeams).where(eq(frozenTeams.eventId, 5));
    }
  });

  it("reports the lock from exactly 12 hours before the start", async () => {
    const justBefore = testContext(h.db, { now: () => new Date(start - LOCK_MS - 1) });
    expect((await loadEventHome(request("/game/5"), justBefore, "5")).home.locked).toBe(false);
    const atLock = testContext(h.db, { now: () => new Date(start - LOCK_MS) });
    expect((await loadEventHome(request("/game/5"), atLock, "5")).home.locked).toBe(true);
  });
});

// Last: results imported here settle round 1 for good.
describe("event home once results are imported early", () => {
  it("shows the team read-only with the player's points in the event and each racer's", async () => {
    const ctx = testContext(h.db, { now: early });
    const player = await makeUser(h.db);
    const cookie = await cookieFor(ctx, player);
    await saveTeam(h.db, { userId: player.id, eventId: 5, racerIds: team, now: early() });
    const lines = ["Position,First Name,Last Name,Category"];
    const place = new Map<string, number>();
    for (const r of await listTeamRacers(h.db, 5)) {
      const p = (place.get(r.category) ?? 0) + 1;
      place.set(r.category, p);
      lines.push(`${p},${r.firstName},${r.lastName},${r.category}`);
    }
    const imported = await importResults(h.db, 5, `${lines.join("\n")}\n`, { now: early() });
    expect(imported.ok).toBe(true);

    const { home } = await loadEventHome(request("/game/5", { cookie }), ctx, "5");
    expect(home.phase).toBe("scored");
    expect(home.locked).toBe(true);
    expect(home.team.map((r) => r.id)).toEqual(team);
    const results = await listEventResults(h.db, 5);
    const expected = team.map((id) => results.find((r) => r.racerId === id)?.points ?? 0);
    expect(
      Object.keys(home.score?.racerPoints ?? {})
        .map(Number)
        .sort(),
    ).toEqual([...team].sort());
    expect(team.map((id) => home.score?.racerPoints[id])).toEqual(expected);
    expect(home.score?.points).toBe(expected.reduce((a, b) => a + b, 0));
    expect(home.score?.rank).toBeGreaterThanOrEqual(1);
    // A visitor sees the same phase, and no team.
    const visitor = await loadEventHome(request("/game/5"), ctx, "5");
    expect(visitor.home.phase).toBe("scored");
    expect(visitor.home.score).toBeNull();
  });
});
