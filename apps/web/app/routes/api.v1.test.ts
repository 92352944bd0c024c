/**
 * The public API, route by route, against a real database: shapes (exactly the widgets client
 * types, and what the OpenAPI document promises), no e-mail anywhere, 400/404 as JSON, teams
 * private until their event locks.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { LOCK_MS, leagueScore, pointsForPosition } from "@game/core";
import {
  CLI_ACTOR,
  copyRacers,
  createLeague,
  events,
  freezeEvent,
  importResults,
  joinByCode,
  listPublicRacers,
  partners,
  saveTeam,
  users,
} from "@game/db";
import { createTestDb, type DbHandle, putTeam } from "@game/db/testing";
import { flatRoutes } from "@remix-run/dev/dist/config/flat-routes.js";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { matchRoutes } from "@remix-run/react";
import Ajv2020 from "ajv/dist/2020.js";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { makeUser, testContext } from "../../tests/support/context";
import { loader as anyApiLoader } from "./api.$";
import { action as unknownAction, loader as unknownLoader } from "./api.v1.$";
import { loader as competitionsLoader } from "./api.v1.competitions";
import { loader as competitionLoader } from "./api.v1.competitions.$slug";
import { loader as eventsLoader } from "./api.v1.events";
import { loader as racersLoader } from "./api.v1.events.$id.racers";
import { loader as resultsLoader } from "./api.v1.events.$id.results";
import { loader as openApiLoader } from "./api.v1.openapi[.]json";
import { loader as roundsLoader } from "./api.v1.racers.$id.rounds";
import { loader as leaguesLoader } from "./api.v1.rankings.leagues";
import { loader as playersLoader } from "./api.v1.rankings.players";
import { loader as teamLoader } from "./api.v1.teams.$username";

let h: DbHandle;
let start: Date;
let ip = 0;

type Loader = (args: LoaderFunctionArgs) => Promise<Response>;

/** Calls a loader as the server would, each call from a fresh IP (rate limits are tested apart). */
async function get(
  loader: Loader,
  path: string,
  opts: { params?: Record<string, string>; now?: Date; headers?: Record<string, string> } = {},
) {
  ip += 1;
  const context = {
    ...testContext(h.db, { now: () => opts.now ?? new Date() }),
    clientIp: `10.1.0.${ip}`,
  };
  const request = new Request(`http://localhost${path}`, { headers: opts.headers });
  const res = await loader({ request, context, params: opts.params ?? {} });
  const text = res.status === 304 ? "" : await res.text();
  return { res, text, json: text ? JSON.parse(text) : null };
}

// The widgets client types, as strict runtime schemas: an extra key fails as much as a missing one.
const racer = z.strictObject({
  id: z.number().int(),
  category: z.enum(["Pro Men", "Pro Women", "17-18 Men", "17-18 Women"]),
  firstName: z.string(),
  lastName: z.string(),
  picture: z.string().nullable(),
  origin: z.string(),
  gameId: z.number().int(),
  rank2024: z.number().int(),
  totalPoint2024: z.number().int(),
  price: z.number().int(),
  previousPrice: z.number().int().nullable(),
  pickedByPercent: z.number().min(0).max(100).nullable(),
});
const pageOf = <T extends z.ZodType>(row: T) => ({
  data: z.array(row),
  page: z.number().int(),
  pageCount: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
});
const shapes = {
  events: z.strictObject({
    data: z.array(
      z.strictObject({
        id: z.number().int(),
        name: z.string(),
        cover: z.url(),
        logo: z.url(),
        description: z.string(),
        status: z.enum(["open", "closed", "archived"]),
        startsAt: z.iso.datetime(),
      }),
    ),
  }),
  racers: z.strictObject({
    data: z.array(racer),
    eventId: z.number().int(),
    category: z.enum(["pro-men", "pro-women", "junior-men", "junior-women"]).nullable(),
  }),
  players: z.strictObject({
    ...pageOf(
      z.strictObject({
        rank: z.number().int(),
        username: z.string(),
        points: z.number().int(),
        previousRank: z.number().int().nullable(),
      }),
    ),
    eventId: z.number().int().nullable(),
  }),
  leagues: z.strictObject(
    pageOf(
      z.strictObject({
        rank: z.number().int(),
        id: z.number().int(),
        name: z.string(),
        totalPoints: z.number(),
        memberCount: z.number().int(),
      }),
    ),
  ),
  team: z.strictObject({
    data: z.strictObject({
      username: z.string(),
      eventId: z.number().int(),
      // Starters, then a bench rider where the competition has one (decision 0169).
      racers: z.array(racer).max(21),
      captainId: z.number().int().nullable(),
      benchId: z.number().int().nullable(),
      cost: z.number().int(),
      bank: z.number().int(),
      points: z.number().int().nullable(),
      locked: z.boolean(),
    }),
  }),
  results: z.strictObject({
    data: z.array(
      z.strictObject({
        racerId: z.number().int(),
        firstName: z.string(),
        lastName: z.string(),
        category: z.enum(["Pro Men", "Pro Women", "17-18 Men", "17-18 Women"]),
        picture: z.string().nullable(),
        status: z.enum(["finished", "DNF", "DNS", "DSQ"]),
        position: z.number().int().positive().nullable(),
        points: z.number().int(),
        pickedBy: z.number().int(),
      }),
    ),
    eventId: z.number().int(),
    category: z.enum(["pro-men", "pro-women", "junior-men", "junior-women"]).nullable(),
  }),
  error: z.strictObject({ error: z.strictObject({ code: z.string(), message: z.string() }) }),
};

let emails: string[] = [];
let teamRacerIds: number[] = [];
/** Round 1 points of each player, computed from the results with the rules. */
let scores: Record<"Alice_DH" | "bob_dh", number>;

beforeAll(async () => {
  h = await createTestDb({ seed: true });
  const [round1] = await h.db.select().from(events).where(eq(events.id, 5));
  start = round1!.startsAt;

  // Round 1: two players save teams while it is open, form a league, then the results come in
  // (every racer finishes in 2024-rank order within their category) and settle everything.
  const alice = await makeUser(h.db, { username: "Alice_DH", email: "alice.private@mail.example" });
  const bob = await makeUser(h.db, { username: "bob_dh", email: "bob.private@mail.example" });
  const pool = await listPublicRacers(h.db, 5);
  const pick = (offset: number) => {
    const cheapest = (category: string, n: number) =>
      pool
        .filter((r) => r.category === category)
        .sort((a, b) => a.price - b.price || a.id - b.id)
        .slice(offset, offset + n)
        .map((r) => r.id);
    return [...cheapest("Pro Women", 2), ...cheapest("17-18 Men", 1), ...cheapest("Pro Men", 3)];
  };
  // Alice takes the two best-ranked Pro Women (pool order is rank order) with cheap others.
  const bestWomen = pool.filter((r) => r.category === "Pro Women").slice(0, 2);
  teamRacerIds = [...bestWomen.map((r) => r.id), ...pick(0).slice(2)];
  const whileOpen = new Date(start.getTime() - LOCK_MS - 86_400_000);
  for (const [user, racerIds] of [
    [alice, teamRacerIds],
    [bob, pick(3)],
  ] as const) {
    const saved = await saveTeam(h.db, { userId: user.id, eventId: 5, racerIds, now: whileOpen });
    expect(saved.ok).toBe(true);
  }
  const league = await createLeague(h.db, alice, "Valley Shredders");
  if (!league.ok) throw new Error("league refused");
  await joinByCode(h.db, bob, league.league.joinCode);

  const lines = ["Position,First Name,Last Name,Category"];
  const place = new Map<string, number>();
  const racerPoints = new Map<number, number>();
  for (const r of pool) {
    const p = (place.get(r.category) ?? 0) + 1;
    place.set(r.category, p);
    racerPoints.set(r.id, pointsForPosition(p));
    lines.push(`${p},"${r.firstName}","${r.lastName}",${r.category}`);
  }
  const imported = await importResults(h.db, 5, lines.join("\n"), {
    now: new Date(start.getTime() + 3_600_000),
  });
  expect(imported.ok).toBe(true);
  const score = (ids: readonly number[]) => ids.reduce((t, id) => t + racerPoints.get(id)!, 0);
  scores = { Alice_DH: score(teamRacerIds), bob_dh: score(pick(3)) };
  // The fixture is only useful if the two differ.
  expect(scores.Alice_DH).not.toBe(scores.bob_dh);
  await h.db.insert(partners).values({
    name: "Bike Site",
    publishableKey: "pk_api_test",
    origins: ["https://bikes.example"],
  });
  emails = (await h.db.select({ email: users.email }).from(users)).map((r) => r.email);
});
afterAll(() => h.close());

function expectNoPersonalData(text: string) {
  expect(text).not.toMatch(/@/);
  for (const e of emails) expect(text).not.toContain(e);
  expect(text).not.toMatch(/password|email|accepted|credits|role/i);
}

describe("GET /api/v1/events", () => {
  it("lists the events with absolute image URLs", async () => {
    const { res, json, text } = await get(eventsLoader, "/api/v1/events");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/json; charset=utf-8");
    const body = shapes.events.parse(json);
    expect(body.data).toHaveLength(12);
    expect(body.data.find((e) => e.id === 5)).toMatchObject({
      status: "open",
      cover: "http://localhost/img/events/cover-5.svg",
      startsAt: start.toISOString(),
    });
    expectNoPersonalData(text);
  });
});

describe("GET /api/v1/events/:id/racers", () => {
  it("lists one category, ranked first, or all four", async () => {
    const { res, json } = await get(racersLoader, "/api/v1/events/5/racers?category=pro-women", {
      params: { id: "5" },
    });
    expect(res.status).toBe(200);
    const body = shapes.racers.parse(json);
    expect(body.eventId).toBe(5);
    expect(body.category).toBe("pro-women");
    expect(body.data.length).toBeGreaterThan(0);
    expect(body.data.every((r) => r.category === "Pro Women")).toBe(true);
    const ranked = body.data.map((r) => r.rank2024).filter((r) => r > 0);
    expect(ranked).toEqual([...ranked].sort((a, b) => a - b));

    const all = shapes.racers.parse(
      (await get(racersLoader, "/api/v1/events/5/racers", { params: { id: "5" } })).json,
    );
    expect(all.category).toBeNull();
    expect(new Set(all.data.map((r) => r.category)).size).toBe(4);
  });

  it.each([
    ["/api/v1/events/abc/racers", "abc", /event id/],
    ["/api/v1/events/0/racers", "0", /event id/],
    ["/api/v1/events/-3/racers", "-3", /event id/],
    ["/api/v1/events/99999999999/racers", "99999999999", /event id/],
    ["/api/v1/events/5/racers?category=nope", "5", /category must be one of pro-men/],
  ])("answers 400 JSON for %s", async (path, id, message) => {
    const { res, json } = await get(racersLoader, path, { params: { id } });
    expect(res.status).toBe(400);
    expect(res.headers.get("Content-Type")).toBe("application/json; charset=utf-8");
    const body = shapes.error.parse(json);
    expect(body.error.code).toBe("bad_request");
    expect(body.error.message).toMatch(message);
  });

  it("answers 404 JSON for an unknown event", async () => {
    const { res, json } = await get(racersLoader, "/api/v1/events/77/racers", {
      params: { id: "77" },
    });
    expect(res.status).toBe(404);
    expect(shapes.error.parse(json).error.code).toBe("event_not_found");
  });
});

describe("GET /api/v1/events/:id/results", () => {
  it("lists places and points per racer, by category, optionally one category", async () => {
    const { res, json, text } = await get(resultsLoader, "/api/v1/events/5/results", {
      params: { id: "5" },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toContain("max-age=0, s-maxage=1");
    const body = shapes.results.parse(json);
    expect(body).toMatchObject({ eventId: 5, category: null });
    const pool = await listPublicRacers(h.db, 5);
    expect(body.data).toHaveLength(pool.length);
    for (const r of body.data) expect(r.points).toBe(pointsForPosition(r.position));
    // Alice's picks score what the rankings count.
    const alice = body.data.filter((r) => teamRacerIds.includes(r.racerId));
    expect(alice.reduce((t, r) => t + r.points, 0)).toBe(scores.Alice_DH);
    expect(alice.every((r) => r.pickedBy >= 1)).toBe(true);
    expectNoPersonalData(text);

    const women = shapes.results.parse(
      (
        await get(resultsLoader, "/api/v1/events/5/results?category=pro-women", {
          params: { id: "5" },
        })
      ).json,
    );
    expect(women.category).toBe("pro-women");
    expect(women.data.map((r) => r.position)).toEqual(women.data.map((_, i) => i + 1));
    expect(women.data.every((r) => r.category === "Pro Women")).toBe(true);

    const none = shapes.results.parse(
      (await get(resultsLoader, "/api/v1/events/6/results", { params: { id: "6" } })).json,
    );
    expect(none.data).toEqual([]);
  });

  it("answers 400 and 404 as JSON", async () => {
    const bad = await get(resultsLoader, "/api/v1/events/x/results", { params: { id: "x" } });
    expect(bad.res.status).toBe(400);
    const wrongCategory = await get(resultsLoader, "/api/v1/events/5/results?category=elite", {
      params: { id: "5" },
    });
    expect(shapes.error.parse(wrongCategory.json).error.code).toBe("bad_request");
    const missing = await get(resultsLoader, "/api/v1/events/77/results", {
      params: { id: "77" },
    });
    expect(missing.res.status).toBe(404);
    expect(shapes.error.parse(missing.json).error.code).toBe("event_not_found");
  });
});

describe("GET /api/v1/rankings/players", () => {
  it("pages the season ranking and one event's", async () => {
    const season = shapes.players.parse(
      (await get(playersLoader, "/api/v1/rankings/players")).json,
    );
    expect(season.eventId).toBeNull();
    const order = (["Alice_DH", "bob_dh"] as const)
      .map((username) => ({ username, points: scores[username] }))
      .sort((a, b) => b.points - a.points);
    expect(season.data).toEqual(order.map((p, i) => ({ rank: i + 1, ...p, previousRank: null })));
    expect(season).toMatchObject({ page: 1, pageCount: 1, pageSize: 50, total: 2 });

    const { json, text } = await get(playersLoader, "/api/v1/rankings/players?event=5&page=1");
    const event = shapes.players.parse(json);
    expect(event.eventId).toBe(5);
    expect(event.data.map((r) => [r.username, r.points])).toEqual(
      order.map((p) => [p.username, p.points]),
    );
    expectNoPersonalData(text);

    // Past the last page: an empty page, so a client reading until one stops.
    const beyond = shapes.players.parse(
      (await get(playersLoader, "/api/v1/rankings/players?page=9")).json,
    );
    expect(beyond).toMatchObject({ page: 9, pageCount: 1, total: 2, data: [] });
    // pageSize: one player a page.
    const one = shapes.players.parse(
      (await get(playersLoader, "/api/v1/rankings/players?page=2&pageSize=1")).json,
    );
    expect(one).toMatchObject({ page: 2, pageCount: 2, pageSize: 1, total: 2 });
    expect(one.data).toEqual([season.data[1]]);
    // Deep pages of a big season are reachable (a million players is 20,000 pages).
    const deep = await get(playersLoader, "/api/v1/rankings/players?page=20001");
    expect(deep.res.status).toBe(200);
  });

  it.each([
    ["page=-1", /page/],
    ["page=0", /page/],
    ["page=1.5", /page/],
    ["page=abc", /page/],
    ["page=999999999", /page must be at most/],
    ["pageSize=0", /pageSize must be a positive whole number/],
    ["pageSize=101", /pageSize must be at most 100/],
    ["pageSize=ten", /pageSize/],
    ["event=abc", /event/],
  ])("answers 400 JSON for ?%s", async (query, message) => {
    const { res, json } = await get(playersLoader, `/api/v1/rankings/players?${query}`);
    expect(res.status).toBe(400);
    expect(shapes.error.parse(json).error.message).toMatch(message);
  });

  it("answers 404 for an unknown event", async () => {
    const { res, json } = await get(playersLoader, "/api/v1/rankings/players?event=404");
    expect(res.status).toBe(404);
    expect(shapes.error.parse(json).error.code).toBe("event_not_found");
  });

  it("gives the table of the competition named by ?competition=, the default one without", async () => {
    const byDefault = (await get(playersLoader, "/api/v1/rankings/players")).json;
    // Round 1 was scored: its competition is the one shown by default.
    const named = await get(
      playersLoader,
      "/api/v1/rankings/players?competition=pro-downhill-series-2027",
    );
    expect(named.res.status).toBe(200);
    expect(shapes.players.parse(named.json)).toEqual(byDefault);
    // Another competition keeps its own table: nobody played the 2024 World Cup here.
    const other = shapes.players.parse(
      (await get(playersLoader, "/api/v1/rankings/players?competition=uci-downhill-world-cup-2024"))
        .json,
    );
    expect(other).toMatchObject({ data: [], total: 0, eventId: null });
    // A round of the competition named; a round of another one names nothing.
    const round = await get(
      playersLoader,
      "/api/v1/rankings/players?competition=pro-downhill-series-2027&event=5",
    );
    expect(shapes.players.parse(round.json).data.length).toBe(2);
    const elsewhere = await get(
      playersLoader,
      "/api/v1/rankings/players?competition=uci-downhill-world-cup-2024&event=5",
    );
    expect(elsewhere.res.status).toBe(404);
    expect(shapes.error.parse(elsewhere.json).error.code).toBe("event_not_found");
  });

  it("keeps the kept answers of each competition apart (the ranking cache keys on the query)", async () => {
    const context = {
      ...testContext(h.db),
      clientIp: "10.2.0.1",
      rankingVersions: async () => ({ players: 7, leagues: 7 }),
      buildVersion: () => "b1",
    };
    const call = async (query: string) => {
      const res = await playersLoader({
        request: new Request(`http://localhost/api/v1/rankings/players?${query}`),
        context,
        params: {},
      });
      return { res, json: await res.json() };
    };
    const series = await call("competition=pro-downhill-series-2027");
    const worldCup = await call("competition=uci-downhill-world-cup-2024");
    expect([series.json.total, worldCup.json.total]).toEqual([2, 0]);
    expect(worldCup.res.headers.get("etag")).not.toBe(series.res.headers.get("etag"));
    expect((await call("competition=uci-downhill-world-cup-2024")).json.total).toBe(0);
    // An unknown competition's 404 is never kept as an answer.
    for (let i = 0; i < 2; i++) {
      expect((await call("competition=no-such-cup")).res.status).toBe(404);
    }
  });

  it("answers 404 for an unknown competition and 400 for one no slug can be", async () => {
    const missing = await get(playersLoader, "/api/v1/rankings/players?competition=no-such-cup");
    expect(missing.res.status).toBe(404);
    expect(shapes.error.parse(missing.json).error).toEqual({
      code: "competition_not_found",
      message: 'There is no competition "no-such-cup".',
    });
    const bad = await get(playersLoader, "/api/v1/rankings/players?competition=Not%20a%20slug");
    expect(bad.res.status).toBe(400);
    expect(shapes.error.parse(bad.json).error.message).toMatch(/competition/);
  });
});

describe("GET /api/v1/rankings/leagues", () => {
  it("lists leagues with member counts and no member details", async () => {
    const { res, json, text } = await get(leaguesLoader, "/api/v1/rankings/leagues?page=1");
    expect(res.status).toBe(200);
    const body = shapes.leagues.parse(json);
    expect(body.data).toEqual([
      expect.objectContaining({
        rank: 1,
        name: "Valley Shredders",
        // The league's score: the average of its accepted members' scores.
        totalPoints: leagueScore([
          { score: scores.Alice_DH, status: "accepted" },
          { score: scores.bob_dh, status: "accepted" },
        ]),
        memberCount: 2,
      }),
    ]);
    expectNoPersonalData(text);
    expect((await get(leaguesLoader, "/api/v1/rankings/leagues?page=-1")).res.status).toBe(400);
    expect((await get(leaguesLoader, "/api/v1/rankings/leagues?pageSize=500")).res.status).toBe(
      400,
    );
    const beyond = shapes.leagues.parse(
      (await get(leaguesLoader, "/api/v1/rankings/leagues?page=2")).json,
    );
    expect(beyond).toMatchObject({ page: 2, pageCount: 1, data: [] });
  });

  it("lists the leagues of the competition named by ?competition=; 404 for an unknown one", async () => {
    const named = shapes.leagues.parse(
      (await get(leaguesLoader, "/api/v1/rankings/leagues?competition=pro-downhill-series-2027"))
        .json,
    );
    expect(named.data.map((l) => l.name)).toEqual(["Valley Shredders"]);
    // A league plays one competition: another competition's ranking does not list it.
    const other = shapes.leagues.parse(
      (await get(leaguesLoader, "/api/v1/rankings/leagues?competition=freeride-2024")).json,
    );
    expect(other).toMatchObject({ data: [], total: 0 });
    const missing = await get(leaguesLoader, "/api/v1/rankings/leagues?competition=no-such-cup");
    expect(missing.res.status).toBe(404);
    expect(shapes.error.parse(missing.json).error.code).toBe("competition_not_found");
    expect((await get(leaguesLoader, "/api/v1/rankings/leagues?competition=x_y")).res.status).toBe(
      400,
    );
  });
});

describe("GET /api/v1/teams/:username", () => {
  const lock = () => new Date(start.getTime() - LOCK_MS);

  it("keeps a team private (403) until its event locks, then shows it", async () => {
    const before = await get(teamLoader, "/api/v1/teams/alice_dh?event=5", {
      params: { username: "alice_dh" },
      now: new Date(lock().getTime() - 1),
    });
    expect(before.res.status).toBe(403);
    expect(shapes.error.parse(before.json).error.code).toBe("team_private");
    expect(before.text).not.toContain(String(teamRacerIds[0]));

    const after = await get(teamLoader, "/api/v1/teams/alice_dh?event=5", {
      params: { username: "alice_dh" },
      now: lock(),
    });
    expect(after.res.status).toBe(200);
    const body = shapes.team.parse(after.json);
    expect(body.data.username).toBe("Alice_DH");
    expect(body.data.racers.map((r) => r.id)).toEqual(teamRacerIds);
    expect(body.data.locked).toBe(true);
    expect(body.data.cost + body.data.bank).toBe(1_000_000);
    expectNoPersonalData(after.text);
  });

  it("shows a team frozen early by a results import, as the player page does", async () => {
    const [round2] = await h.db.select().from(events).where(eq(events.id, 6));
    const lock6 = new Date(round2!.startsAt.getTime() - LOCK_MS);
    const whileOpen = new Date(lock6.getTime() - 5 * 86_400_000);
    // The seed prices round 1 only: round 2 starts from its racers; the team is written directly.
    await copyRacers(h.db, 5, 6, { actor: CLI_ACTOR, now: new Date() });
    const ids = (await listPublicRacers(h.db, 6)).slice(0, 6).map((r) => r.id);
    const [bob] = await h.db.select().from(users).where(eq(users.username, "bob_dh"));
    await putTeam(h.db, bob!.id, 6, ids);
    const frozenAt = new Date(whileOpen.getTime() + 3_600_000);
    expect(await freezeEvent(h.db, 6, frozenAt)).not.toBeNull();

    const before = await get(teamLoader, "/api/v1/teams/bob_dh?event=6", {
      params: { username: "bob_dh" },
      now: new Date(frozenAt.getTime() - 1),
    });
    expect(before.res.status).toBe(403);
    const after = await get(teamLoader, "/api/v1/teams/bob_dh?event=6", {
      params: { username: "bob_dh" },
      now: frozenAt,
    });
    expect(after.res.status).toBe(200);
    expect(shapes.team.parse(after.json).data.eventId).toBe(6);
  });

  it("answers 404 for unknown players, events and teams, 400 for a bad event", async () => {
    const cases: [string, string, number, string][] = [
      ["/api/v1/teams/nobody?event=5", "nobody", 404, "player_not_found"],
      ["/api/v1/teams/alice_dh?event=404", "alice_dh", 404, "event_not_found"],
      ["/api/v1/teams/bob_dh?event=1", "bob_dh", 404, "team_not_found"],
      ["/api/v1/teams/alice_dh?event=abc", "alice_dh", 400, "bad_request"],
    ];
    for (const [path, username, status, code] of cases) {
      const { res, json } = await get(teamLoader, path, { params: { username } });
      expect(res.status, path).toBe(status);
      expect(shapes.error.parse(json).error.code, path).toBe(code);
    }
  });
});

describe("GET /api/v1/openapi.json", () => {
  it("describes every endpoint, and its schemas name exactly the keys the endpoints send", async () => {
    const { res, json } = await get(openApiLoader, "/api/v1/openapi.json");
    expect(res.status).toBe(200);
    expect(json.openapi).toBe("3.1.0");
    expect(json.servers[0].url).toBe("http://localhost/api/v1");
    expect(Object.keys(json.paths).sort()).toEqual(
      [
        "/competitions",
        "/competitions/{slug}",
        "/events",
        "/events/{id}/racers",
        "/events/{id}/results",
        "/events/{id}/live",
        "/admin/events/{id}/results",
        "/racers/{id}/rounds",
        "/rankings/leagues",
        "/rankings/players",
        "/teams/{username}",
      ].sort(),
    );
    const schemas = json.components.schemas as Record<
      string,
      { required: string[]; properties: object }
    >;
    const keysOf = (name: string) => Object.keys(schemas[name]!.properties).sort();
    const sample = async (loader: Loader, path: string, params = {}, now?: Date) =>
      (await get(loader, path, { params, now })).json;

    const ev = await sample(eventsLoader, "/api/v1/events");
    expect(Object.keys(ev).sort()).toEqual(keysOf("EventsResponse"));
    expect(Object.keys(ev.data[0]).sort()).toEqual(keysOf("Event"));
    const rc = await sample(racersLoader, "/api/v1/events/5/racers", { id: "5" });
    expect(Object.keys(rc).sort()).toEqual(keysOf("RacersResponse"));
    expect(Object.keys(rc.data[0]).sort()).toEqual(keysOf("Racer"));
    const rs = await sample(resultsLoader, "/api/v1/events/5/results", { id: "5" });
    expect(Object.keys(rs).sort()).toEqual(keysOf("ResultsResponse"));
    expect(Object.keys(rs.data[0]).sort()).toEqual(keysOf("RaceResult"));
    const pl = await sample(playersLoader, "/api/v1/rankings/players");
    expect(Object.keys(pl).sort()).toEqual(keysOf("PlayerRankingsResponse"));
    expect(Object.keys(pl.data[0]).sort()).toEqual(keysOf("PlayerRanking"));
    const lg = await sample(leaguesLoader, "/api/v1/rankings/leagues");
    expect(Object.keys(lg).sort()).toEqual(keysOf("LeagueRankingsResponse"));
    expect(Object.keys(lg.data[0]).sort()).toEqual(keysOf("LeagueRanking"));
    const tm = await sample(
      teamLoader,
      "/api/v1/teams/alice_dh?event=5",
      { username: "alice_dh" },
      new Date(start.getTime()),
    );
    expect(Object.keys(tm).sort()).toEqual(keysOf("TeamResponse"));
    expect(Object.keys(tm.data).sort()).toEqual(keysOf("Team"));
    for (const name of Object.keys(schemas)) {
      const s = schemas[name]!;
      if (s.required) expect(s.required.sort(), name).toEqual(keysOf(name));
    }
    // Both rankings name the competition they read, and say an unknown one is a 404.
    for (const path of ["/rankings/players", "/rankings/leagues"]) {
      const get = json.paths[path].get;
      expect(
        get.parameters.map((p: { name: string }) => p.name),
        path,
      ).toContain("competition");
      expect(Object.keys(get.responses), path).toContain("404");
    }
  });
});

describe("the OpenAPI document against real answers", () => {
  it("every documented answer validates the endpoint's real output from a seeded database", async () => {
    const doc = (await get(openApiLoader, "/api/v1/openapi.json")).json;
    // The document's own schemas, as a client generating a validator from it would read them.
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    ajv.addFormat("date-time", (s: string) => !Number.isNaN(Date.parse(s)) && /T/.test(s));
    ajv.addFormat("uri", (s: string) => URL.canParse(s));
    // The one keyword of the wrapper below that is OpenAPI's, not JSON Schema's.
    ajv.addKeyword("components");
    ajv.addSchema({ $id: "doc", components: doc.components }, "doc");
    const check = (schema: { $ref: string }, body: unknown, what: string) => {
      const validate = ajv.compile({ $ref: `doc${schema.$ref}` });
      expect(validate(body), `${what}: ${JSON.stringify(validate.errors)}`).toBe(true);
    };
    const racerId = (await listPublicRacers(h.db, 5))[0]!.id;
    // One real call per documented path, with parameters that find data.
    const calls: Record<string, { loader: Loader; path: string; params?: object; now?: Date }> = {
      "/competitions": { loader: competitionsLoader, path: "/api/v1/competitions" },
      "/competitions/{slug}": {
        loader: competitionLoader,
        path: "/api/v1/competitions/pro-downhill-series-2027",
        params: { slug: "pro-downhill-series-2027" },
      },
      "/events": { loader: eventsLoader, path: "/api/v1/events" },
      "/events/{id}/racers": {
        loader: racersLoader,
        path: "/api/v1/events/5/racers",
        params: { id: "5" },
      },
      "/events/{id}/results": {
        loader: resultsLoader,
        path: "/api/v1/events/5/results?category=pro-women",
        params: { id: "5" },
      },
      "/racers/{id}/rounds": {
        loader: roundsLoader,
        path: `/api/v1/racers/${racerId}/rounds`,
        params: { id: String(racerId) },
      },
      "/rankings/players": { loader: playersLoader, path: "/api/v1/rankings/players?event=5" },
      "/rankings/leagues": { loader: leaguesLoader, path: "/api/v1/rankings/leagues" },
      "/teams/{username}": {
        loader: teamLoader,
        path: "/api/v1/teams/alice_dh?event=5",
        params: { username: "alice_dh" },
        now: new Date(start.getTime()),
      },
    };
    // Every JSON read (the live stream and the timing systems' push have tests of their own).
    const jsonReads = Object.keys(doc.paths).filter(
      (p) => doc.paths[p].get?.responses["200"].content["application/json"],
    );
    expect(Object.keys(calls).sort()).toEqual(jsonReads.sort());
    for (const [path, call] of Object.entries(calls)) {
      const { res, json } = await get(call.loader, call.path, {
        params: call.params as Record<string, string>,
        now: call.now,
      });
      expect(res.status, path).toBe(200);
      // Non-empty answers, so the item schemas are exercised too.
      if (Array.isArray(json.data)) expect(json.data.length, path).toBeGreaterThan(0);
      const documented = doc.paths[path].get.responses;
      check(documented["200"].content["application/json"].schema, json, path);
    }
    // The documented error answers: a 404 and a 400 in the API's error shape.
    const missing = await get(racersLoader, "/api/v1/events/404/racers", { params: { id: "404" } });
    expect(missing.res.status).toBe(404);
    check(
      doc.paths["/events/{id}/racers"].get.responses["404"].content["application/json"].schema,
      missing.json,
      "404",
    );
    const bad = await get(playersLoader, "/api/v1/rankings/players?page=x");
    expect(bad.res.status).toBe(400);
    check(
      doc.paths["/rankings/players"].get.responses["400"].content["application/json"].schema,
      bad.json,
      "400",
    );
    // And the schemas are not vacuous: a racer missing a field, or with a bad category, fails.
    const { json: racers } = await get(racersLoader, "/api/v1/events/5/racers", {
      params: { id: "5" },
    });
    const broken = { ...racers, data: [{ ...racers.data[0], category: "Elite" }] };
    const { price: _price, ...noPrice } = racers.data[0];
    const validate = ajv.compile({ $ref: "doc#/components/schemas/RacersResponse" });
    expect(validate(broken)).toBe(false);
    expect(validate({ ...racers, data: [noPrice] })).toBe(false);
  });
});

describe("an unknown /api/v1 path", () => {
  type RouteObject = Parameters<typeof matchRoutes>[0][number];
  /** The route file the app would answer `pathname` with (its flat-routes table, as built). */
  function routeFileFor(pathname: string): string | undefined {
    const appDir = path.resolve(fileURLToPath(new URL("..", import.meta.url)));
    const manifest = flatRoutes(appDir, ["**/*.test.{ts,tsx}"]);
    const childrenOf = (parentId: string): RouteObject[] =>
      Object.values(manifest)
        .filter((r) => (r.parentId ?? "root") === parentId)
        .map((r) => ({
          id: r.id,
          path: r.path,
          index: r.index,
          children: r.index ? undefined : childrenOf(r.id),
        })) as RouteObject[];
    const matches = matchRoutes(
      [{ id: "root", path: "/", children: childrenOf("root") }],
      pathname,
    );
    return matches ? manifest[matches.at(-1)!.route.id!]?.file : undefined;
  }

  it("is routed to the API's 404, not the site's HTML home screen", () => {
    for (const path of ["/api/v1/nope", "/api/v1/events/5", "/api/v1/teams", "/api/v1"]) {
      expect(routeFileFor(path), path).toBe("routes/api.v1.$.ts");
    }
    expect(routeFileFor("/api/v1/events")).toBe("routes/api.v1.events.ts");
    expect(routeFileFor("/api/v1/competitions")).toBe("routes/api.v1.competitions.ts");
    expect(routeFileFor("/api/v1/competitions/xc-cup-2028")).toBe(
      "routes/api.v1.competitions.$slug.ts",
    );
    expect(routeFileFor("/api/v1/events/5/racers")).toBe("routes/api.v1.events.$id.racers.ts");
    expect(routeFileFor("/no/such/page")).toBe("routes/$.tsx");
    // Any other version or path under /api/ is the API's too.
    for (const path of ["/api/v2/events", "/api/v2", "/api", "/api/", "/api/events/5"]) {
      expect(routeFileFor(path), path).toBe("routes/api.$.ts");
    }
    expect(routeFileFor("/api/v1/events/5/results")).toBe("routes/api.v1.events.$id.results.ts");
  });

  it("answers /api/v2/... with the API's JSON 404, not HTML", async () => {
    const { res, json } = await get(anyApiLoader, "/api/v2/events", {
      params: { "*": "v2/events" },
      headers: { Origin: "https://bikes.example" },
    });
    expect(res.status).toBe(404);
    expect(res.headers.get("Content-Type")).toBe("application/json; charset=utf-8");
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe("https://bikes.example");
    expect(res.headers.get("RateLimit-Limit")).toBe("120");
    expect(shapes.error.parse(json).error.code).toBe("not_found");
  });

  it("answers a JSON 404 in the API's error shape, with the API's headers", async () => {
    const { res, json } = await get(unknownLoader, "/api/v1/nope", { params: { "*": "nope" } });
    expect(res.status).toBe(404);
    expect(res.headers.get("Content-Type")).toBe("application/json; charset=utf-8");
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(res.headers.get("Vary")).toBe("Origin");
    expect(shapes.error.parse(json).error.code).toBe("not_found");

    // CORS as on every other endpoint: a partner's origin only, echoed exactly.
    const partner = await get(unknownLoader, "/api/v1/nope", {
      params: { "*": "nope" },
      headers: { Origin: "https://bikes.example" },
    });
    expect(partner.res.status).toBe(404);
    expect(partner.res.headers.get("Access-Control-Allow-Origin")).toBe("https://bikes.example");
    const stranger = await get(unknownLoader, "/api/v1/nope", {
      params: { "*": "nope" },
      headers: { Origin: "https://evil.example" },
    });
    expect(stranger.res.headers.get("Access-Control-Allow-Origin")).toBeNull();
  });

  it("answers writes with the same 404 and preflights like the other endpoints", async () => {
    const context = { ...testContext(h.db), clientIp: "10.2.0.1" };
    const post = await unknownAction({
      request: new Request("http://localhost/api/v1/nope", {
        method: "POST",
        headers: { Origin: "https://bikes.example" },
      }),
      context,
      params: { "*": "nope" },
    });
    expect(post.status).toBe(404);
    expect(post.headers.get("Access-Control-Allow-Origin")).toBe("https://bikes.example");
    expect(shapes.error.parse(await post.json()).error.code).toBe("not_found");

    const preflight = await unknownLoader({
      request: new Request("http://localhost/api/v1/nope", {
        method: "OPTIONS",
        headers: { Origin: "https://bikes.example", "Access-Control-Request-Method": "GET" },
      }),
      context,
      params: { "*": "nope" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("Access-Control-Allow-Methods")).toBe("GET, HEAD, OPTIONS");
  });
});
