import { listTeamRacers, saveTeam, seasonStandings } from "@game/db";
import { createTestDb, type DbHandle } from "@game/db/testing";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cookieFor, makeUser, request, testContext } from "../../../tests/support/context";
import { loadHome } from "./home.server";

let h: DbHandle;
beforeAll(async () => {
  h = await createTestDb({ seed: true });
});
afterAll(() => h.close());

describe("loadHome", () => {
  it("lists the 12 events: open first, then upcoming by date, then past ones latest first", async () => {
    const { events, user } = await loadHome(request("/"), testContext(h.db));
    expect(user).toBeNull();
    expect(events.map((e) => e.id)).toEqual([5, 6, 7, 8, 9, 12, 4, 11, 10, 3, 2, 1]);
    expect(events[0]).toMatchObject({
      status: "open",
      startsAt: "2027-04-18T16:00:00.000Z",
      cover: "/img/events/cover-5.svg",
      phase: "open",
    });
    expect(events.find((e) => e.id === 6)?.phase).toBe("upcoming");
    // Past its lock the open event says so (the list labels it "Locked", not "Open").
    const late = testContext(h.db, { now: () => new Date("2027-04-18T04:00:00Z") });
    expect((await loadHome(request("/"), late)).events[0]).toMatchObject({
      id: 5,
      status: "open",
      phase: "locked",
    });
  });

  it("lists live and upcoming competitions with their next round, finished ones apart", async () => {
    const now = new Date("2027-04-15T04:00:00Z");
    const { competitions } = await loadHome(request("/"), testContext(h.db, { now: () => now }));
    expect(competitions.current).toEqual([
      {
        slug: "pro-downhill-series-2027",
        name: "Pro Downhill Series 2027",
        discipline: "downhill",
        season: "2027",
        state: "live",
        logo: "/img/events/logo-5.svg",
        rounds: 5,
        next: {
          id: 5,
          name: "Pro Downhill Series Round 1: Windrock",
          startsAt: "2027-04-18T16:00:00.000Z",
          phase: "open",
          countdown: "Teams lock in 3 days.",
        },
      },
    ]);
    expect(competitions.finished.map((c) => c.slug)).toEqual([
      "freeride-2024",
      "uci-mountain-bike-world-championships-2024",
      "uci-downhill-world-cup-2024",
    ]);
    // Past the lock, the countdown is to the start.
    const late = testContext(h.db, { now: () => new Date("2027-04-18T06:30:00Z") });
    expect((await loadHome(request("/"), late)).competitions.current[0]?.next?.countdown).toBe(
      "Teams are locked; the race starts in 9 hours.",
    );
  });

  it("greets the signed-in player; dates go in the reader's zone, whatever the language", async () => {
    const ctx = testContext(h.db);
    const player = await makeUser(h.db, { username: "Gwin" });
    const req = new Request("http://localhost/homepage", {
      headers: {
        "Accept-Language": "de-DE",
        Cookie: `${await cookieFor(ctx, player)}; gf_tz=Europe%2FBerlin`,
      },
    });
    const { user, timeZone } = await loadHome(req, ctx);
    expect(user).toEqual({ username: "Gwin", returning: false });
    expect(timeZone).toBe("Europe/Berlin");
    expect((await loadHome(request("/"), ctx)).timeZone).toBe("UTC");
  });

  it("greets a player who has played before as returning, a brand-new one as new", async () => {
    const ctx = testContext(h.db);
    const fresh = await makeUser(h.db);
    const played = await makeUser(h.db);
    // A place in the table of the competition the rankings show (the one being played here).
    await h.db.insert(seasonStandings).values({
      competitionId: sql`(select id from competitions where slug = 'pro-downhill-series-2027')`,
      position: 3,
      userId: played.id,
      points: 120,
      rank: 3,
    });
    const home = async (id: typeof fresh) =>
      (await loadHome(request("/homepage", { cookie: await cookieFor(ctx, id) }), ctx)).user;
    expect((await home(fresh))?.returning).toBe(false);
    expect((await home(played))?.returning).toBe(true);
    // A saved team is enough, before any points.
    const racers = await listTeamRacers(h.db, 5);
    const pick = (c: string, k: number) =>
      racers
        .filter((r) => r.category === c)
        .sort((a, b) => a.price - b.price)
        .slice(0, k)
        .map((r) => r.id);
    const team = [...pick("Pro Women", 2), ...pick("17-18 Men", 1), ...pick("Pro Men", 3)];
    const saved = await saveTeam(h.db, {
      userId: fresh.id,
      eventId: 5,
      racerIds: team,
      now: new Date("2026-01-01T00:00:00Z"),
    });
    expect(saved.ok).toBe(true);
    expect((await home(fresh))?.returning).toBe(true);
  });

  it("carries the one-time notice of the page that sent the player here, known codes only", async () => {
    const ctx = testContext(h.db);
    const notice = async (path: string) => (await loadHome(request(path), ctx)).notice;
    expect(await notice("/?notice=game-not-found")).toBe("Game not found.");
    expect(await notice("/")).toBeNull();
    expect(await notice("/?notice=You%20won%20a%20prize")).toBeNull();
    expect(await notice("/?notice=toString")).toBeNull();
  });
});
