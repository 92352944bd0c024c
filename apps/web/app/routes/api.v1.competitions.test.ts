/**
 * The competitions in the public API, against a real database: `/competitions`,
 * `/competitions/{slug}` and `/events?competition=`, their exact shapes, their 400s and 404s in
 * the API's JSON, CORS and caching as on every endpoint, and the OpenAPI document's schemas
 * validating the real answers.
 */
import { createCompetition, createRound, partners } from "@game/db";
import { createTestDb, type DbHandle } from "@game/db/testing";
import type { LoaderFunctionArgs } from "@remix-run/node";
import Ajv2020 from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { testContext } from "../../tests/support/context";
import { loader as competitionsLoader } from "./api.v1.competitions";
import { loader as competitionLoader } from "./api.v1.competitions.$slug";
import { loader as eventsLoader } from "./api.v1.events";
import { loader as openApiLoader } from "./api.v1.openapi[.]json";

let h: DbHandle;
let ip = 0;
const NOW = new Date("2026-11-01T12:00:00Z");

type Loader = (args: LoaderFunctionArgs) => Promise<Response>;

/** Calls a loader as the server would, each call from a fresh IP (rate limits are tested apart). */
async function get(
  loader: Loader,
  path: string,
  opts: { params?: Record<string, string>; headers?: Record<string, string> } = {},
) {
  ip += 1;
  const context = { ...testContext(h.db, { now: () => NOW }), clientIp: `10.3.0.${ip}` };
  const request = new Request(`http://localhost${path}`, { headers: opts.headers });
  const res = await loader({ request, context, params: opts.params ?? {} });
  const text = res.status === 304 ? "" : await res.text();
  return { res, text, json: text ? JSON.parse(text) : null };
}

// Exactly these keys: an extra one fails as much as a missing one.
const group = z.strictObject({ min: z.number().int(), max: z.number().int().nullable() });
const competition = z.strictObject({
  slug: z.string(),
  name: z.string(),
  discipline: z.enum(["downhill", "cross-country", "enduro", "freeride", "other"]),
  season: z.string(),
  state: z.enum(["upcoming", "live", "finished", "archived"]),
  cover: z.url(),
  logo: z.url(),
  description: z.string(),
  rules: z.strictObject({
    teamSize: z.number().int(),
    budget: z.number().int(),
    categories: z.array(
      z.strictObject({ name: z.string(), women: z.boolean(), junior: z.boolean() }),
    ),
    women: group,
    juniors: group,
    points: z.strictObject({
      first: z.number().int(),
      second: z.number().int(),
      third: z.number().int(),
      topTen: z.number().int(),
      finisher: z.number().int(),
      none: z.number().int(),
    }),
    lockHours: z.number().int(),
    pricing: z.strictObject({ min: z.number().int(), max: z.number().int() }),
    captain: z.boolean(),
    bench: z.boolean(),
    transfers: z
      .strictObject({ free: z.number().int(), bank: z.number().int(), cost: z.number().int() })
      .nullable(),
    wildcard: z.boolean(),
  }),
  rulesText: z.array(z.string()),
  rulesFixed: z.boolean(),
  rounds: z.array(
    z.strictObject({
      id: z.number().int(),
      round: z.number().int().nullable(),
      name: z.string(),
      location: z.string(),
      status: z.enum(["open", "closed", "archived"]),
      startsAt: z.iso.datetime(),
      locksAt: z.iso.datetime(),
      settled: z.boolean(),
      provisional: z.boolean(),
    }),
  ),
});
const shapes = {
  list: z.strictObject({ data: z.array(competition) }),
  one: z.strictObject({ data: competition }),
  events: z.strictObject({
    data: z.array(z.object({ id: z.number().int(), name: z.string() })),
  }),
  error: z.strictObject({ error: z.strictObject({ code: z.string(), message: z.string() }) }),
};

beforeAll(async () => {
  h = await createTestDb({ seed: true });
  const actor = { actor: "test", actorId: null };
  await createCompetition(
    h.db,
    {
      name: "XC Cup 2028",
      discipline: "cross-country",
      season: "2028",
      description: "Exactly three women.",
      rules: { minWomen: 3, maxWomen: 3, minJuniors: 0, budget: 1_500_000 },
    },
    actor,
    NOW,
  );
  await createRound(
    h.db,
    {
      competition: "xc-cup-2028",
      name: "Round 1: Nove Mesto",
      startsAt: new Date("2028-05-14T10:00:00Z"),
      location: "Nove Mesto, Czechia",
    },
    actor,
    { now: NOW },
  );
  await h.db.insert(partners).values({
    name: "Bike Site",
    publishableKey: "pk_competitions_test",
    origins: ["https://bikes.example"],
  });
});
afterAll(() => h.close());

describe("GET /api/v1/competitions", () => {
  it("lists every competition, live first, with rules as data and in words, and rounds", async () => {
    const { res, json, text } = await get(competitionsLoader, "/api/v1/competitions");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/json; charset=utf-8");
    expect(res.headers.get("Cache-Control")).toContain("max-age=60");
    expect(res.headers.get("ETag")).toBeTruthy();
    const body = shapes.list.parse(json);
    expect(body.data.map((c) => [c.slug, c.state])).toEqual([
      ["pro-downhill-series-2027", "live"],
      ["xc-cup-2028", "upcoming"],
      ["freeride-2024", "finished"],
      ["uci-mountain-bike-world-championships-2024", "finished"],
      ["uci-downhill-world-cup-2024", "finished"],
    ]);
    const pds = body.data[0]!;
    expect(pds).toMatchObject({
      cover: "http://localhost/img/events/cover-5.svg",
      rulesFixed: false,
      rules: { teamSize: 6, budget: 1_000_000, women: { min: 2, max: null }, lockHours: 12 },
    });
    expect(pds.rounds[0]).toEqual({
      id: 5,
      round: 1,
      name: "Pro Downhill Series Round 1: Windrock",
      location: "Windrock Bike Park, Tennessee, USA",
      status: "open",
      startsAt: "2027-04-18T16:00:00.000Z",
      locksAt: "2027-04-18T04:00:00.000Z",
      settled: false,
      provisional: false,
    });
    const freeride = body.data.find((c) => c.slug === "freeride-2024")!;
    expect(freeride.rulesFixed).toBe(true);
    expect(text).not.toMatch(/@|password|email/i);

    // The same answer again: 304 to its ETag.
    const again = await get(competitionsLoader, "/api/v1/competitions", {
      headers: { "If-None-Match": res.headers.get("ETag")! },
    });
    expect(again.res.status).toBe(304);
  });

  it("answers partner origins with CORS, and nobody else", async () => {
    const partner = await get(competitionsLoader, "/api/v1/competitions", {
      headers: { Origin: "https://bikes.example" },
    });
    expect(partner.res.headers.get("Access-Control-Allow-Origin")).toBe("https://bikes.example");
    const stranger = await get(competitionsLoader, "/api/v1/competitions", {
      headers: { Origin: "https://evil.example" },
    });
    expect(stranger.res.headers.get("Access-Control-Allow-Origin")).toBeNull();
    expect(stranger.res.headers.get("Vary")).toBe("Origin");
  });
});

describe("GET /api/v1/competitions/:slug", () => {
  it("answers one competition with its own rules", async () => {
    const { res, json } = await get(competitionLoader, "/api/v1/competitions/xc-cup-2028", {
      params: { slug: "xc-cup-2028" },
    });
    expect(res.status).toBe(200);
    const { data } = shapes.one.parse(json);
    expect(data).toMatchObject({
      slug: "xc-cup-2028",
      name: "XC Cup 2028",
      discipline: "cross-country",
      season: "2028",
      state: "upcoming",
      description: "Exactly three women.",
      rules: { budget: 1_500_000, women: { min: 3, max: 3 }, juniors: { min: 0, max: null } },
    });
    expect(data.rulesText).toContain(
      "Your team has exactly 3 female riders (Pro Women or 17-18 Women).",
    );
    expect(data.rounds).toEqual([
      expect.objectContaining({
        round: 1,
        name: "Round 1: Nove Mesto",
        status: "closed",
        locksAt: "2028-05-13T22:00:00.000Z",
      }),
    ]);
  });

  it.each([
    ["no-such-cup", 404, "competition_not_found", 'There is no competition "no-such-cup".'],
    ["Not_A_Slug", 400, "bad_request", "slug must be a competition slug (a-z, 0-9 and -)."],
    ["x".repeat(81), 400, "bad_request", "slug must be a competition slug (a-z, 0-9 and -)."],
  ])("answers %s with a JSON %i", async (slug, status, code, message) => {
    const { res, json } = await get(competitionLoader, `/api/v1/competitions/${slug}`, {
      params: { slug },
    });
    expect(res.status).toBe(status);
    expect(res.headers.get("Content-Type")).toBe("application/json; charset=utf-8");
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(shapes.error.parse(json).error).toEqual({ code, message });
  });
});

describe("GET /api/v1/events?competition=", () => {
  it("lists one competition's rounds, or every event without it", async () => {
    const all = shapes.events.parse((await get(eventsLoader, "/api/v1/events")).json);
    expect(all.data).toHaveLength(13);
    const pds = shapes.events.parse(
      (await get(eventsLoader, "/api/v1/events?competition=pro-downhill-series-2027")).json,
    );
    expect(pds.data.map((e) => e.id)).toEqual([5, 6, 7, 8, 9]);
    const xc = shapes.events.parse(
      (await get(eventsLoader, "/api/v1/events?competition=xc-cup-2028")).json,
    );
    expect(xc.data.map((e) => e.name)).toEqual(["Round 1: Nove Mesto"]);
  });

  it("answers an unknown competition with the API's 404, a malformed one with a 400", async () => {
    const unknown = await get(eventsLoader, "/api/v1/events?competition=nope");
    expect(unknown.res.status).toBe(404);
    expect(shapes.error.parse(unknown.json).error).toEqual({
      code: "competition_not_found",
      message: 'There is no competition "nope".',
    });
    const bad = await get(eventsLoader, "/api/v1/events?competition=%3Cscript%3E");
    expect(bad.res.status).toBe(400);
    expect(shapes.error.parse(bad.json).error.code).toBe("bad_request");
  });
});

describe("the OpenAPI document", () => {
  it("documents the competition endpoints, and their real answers validate", async () => {
    const doc = (await get(openApiLoader, "/api/v1/openapi.json")).json;
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(["/competitions", "/competitions/{slug}", "/events"]),
    );
    expect(doc.paths["/events"].get.parameters.map((p: { name: string }) => p.name)).toEqual([
      "competition",
    ]);
    expect(Object.keys(doc.paths["/events"].get.responses)).toEqual(
      expect.arrayContaining(["200", "400", "404"]),
    );
    const schemas = doc.components.schemas as Record<
      string,
      { required?: string[]; properties: object }
    >;
    for (const name of [
      "Competition",
      "CompetitionRules",
      "CompetitionRound",
      "CompetitionsResponse",
      "CompetitionResponse",
    ]) {
      const s = schemas[name]!;
      expect(s.required?.sort(), name).toEqual(Object.keys(s.properties).sort());
    }

    const ajv = new Ajv2020({ strict: true, allErrors: true });
    ajv.addFormat("date-time", (s: string) => !Number.isNaN(Date.parse(s)) && /T/.test(s));
    ajv.addFormat("uri", (s: string) => URL.canParse(s));
    ajv.addKeyword("components");
    ajv.addSchema({ $id: "doc", components: doc.components }, "doc");
    const check = (schema: { $ref: string }, body: unknown, what: string) => {
      const validate = ajv.compile({ $ref: `doc${schema.$ref}` });
      expect(validate(body), `${what}: ${JSON.stringify(validate.errors)}`).toBe(true);
    };
    const ok = (path: string) =>
      doc.paths[path].get.responses["200"].content["application/json"].schema;
    check(
      ok("/competitions"),
      (await get(competitionsLoader, "/api/v1/competitions")).json,
      "list",
    );
    const one = await get(competitionLoader, "/api/v1/competitions/pro-downhill-series-2027", {
      params: { slug: "pro-downhill-series-2027" },
    });
    check(ok("/competitions/{slug}"), one.json, "one");
    const missing = await get(competitionLoader, "/api/v1/competitions/nope", {
      params: { slug: "nope" },
    });
    check(
      doc.paths["/competitions/{slug}"].get.responses["404"].content["application/json"].schema,
      missing.json,
      "404",
    );
    // Not vacuous: a competition without its rules, or with an unknown state, fails.
    const validate = ajv.compile({ $ref: "doc#/components/schemas/CompetitionResponse" });
    const { rules: _rules, ...noRules } = one.json.data;
    expect(validate({ data: noRules })).toBe(false);
    expect(validate({ data: { ...one.json.data, state: "paused" } })).toBe(false);
  });
});
