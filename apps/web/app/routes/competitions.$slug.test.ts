/**
 * /competitions/:slug against a real database: a competition's rounds and its rules in words,
 * from its stored rules; an unknown slug is the home screen with status 404.
 */
import { createCompetition, createRound } from "@game/db";
import { createTestDb, type DbHandle } from "@game/db/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { testContext } from "../../tests/support/context";
import { loader } from "./competitions.$slug";

let h: DbHandle;
const NOW = new Date("2026-11-01T12:00:00Z");

beforeAll(async () => {
  h = await createTestDb({ seed: true });
});
afterAll(() => h.close());

async function load(slug: string, cookie?: string) {
  const req = new Request(`http://localhost/competitions/${slug}`, {
    headers: cookie ? { Cookie: cookie } : {},
  });
  return (await loader({
    request: req,
    context: testContext(h.db, { now: () => NOW }),
    params: { slug },
  })) as unknown;
}

it("shows a competition's rounds in order, each with its standing, and its rules in words", async () => {
  const page = (await load("pro-downhill-series-2027", "gf_tz=America%2FDenver")) as {
    competition: {
      name: string;
      discipline: string;
      season: string;
      state: string;
      cover: string;
      rulesText: string[];
      rounds: { id: number; phase: string; startsAt: string; lockAt: string }[];
    };
    timeZone: string;
  };
  expect(page.timeZone).toBe("America/Denver");
  expect(page.competition).toMatchObject({
    name: "Pro Downhill Series 2027",
    discipline: "downhill",
    season: "2027",
    state: "live",
    cover: "/img/events/cover-5.svg",
  });
  expect(page.competition.rounds.map((r) => [r.id, r.phase])).toEqual([
    [5, "open"],
    [6, "upcoming"],
    [7, "upcoming"],
    [8, "upcoming"],
    [9, "upcoming"],
  ]);
  expect(page.competition.rounds[0]).toMatchObject({
    startsAt: "2027-04-18T16:00:00.000Z",
    lockAt: "2027-04-18T04:00:00.000Z",
  });
  expect(page.competition.rulesText).toEqual([
    "Pick exactly 6 riders within a $1,000,000 budget.",
    "Your team has at least 2 female riders (Pro Women or 17-18 Women).",
    "Your team has at least 1 junior rider (17-18 Men or 17-18 Women).",
    "Points per rider: 100 for a win, 80 for 2nd, 65 for 3rd, 50 for 4th to 10th, 10 for any other finish, 0 without a finish.",
    "Teams lock 12 hours before each round starts.",
    "Prices move between $50,000 and $500,000 by the published rule.",
  ]);
});

it("states a competition's own rules, and its lock, from what is stored", async () => {
  const actor = { actor: "test", actorId: null };
  await createCompetition(
    h.db,
    {
      name: "XC Cup 2028",
      discipline: "cross-country",
      season: "2028",
      rules: { minWomen: 3, maxWomen: 3, minJuniors: 0, budget: 1_500_000, lockHours: 24 },
    },
    actor,
    NOW,
  );
  await createRound(
    h.db,
    { competition: "xc-cup-2028", name: "Round 1", startsAt: new Date("2028-05-14T10:00:00Z") },
    actor,
    { now: NOW },
  );
  const page = (await load("xc-cup-2028")) as {
    competition: { state: string; rulesText: string[]; rounds: { lockAt: string }[] };
    timeZone: string;
  };
  expect(page.timeZone).toBe("UTC");
  expect(page.competition.state).toBe("upcoming");
  expect(page.competition.rulesText.slice(0, 2)).toEqual([
    "Pick exactly 6 riders within a $1,500,000 budget.",
    "Your team has exactly 3 female riders (Pro Women or 17-18 Women).",
  ]);
  expect(page.competition.rulesText).toContain("Teams lock 24 hours before each round starts.");
  expect(page.competition.rounds[0]!.lockAt).toBe("2028-05-13T10:00:00.000Z");
});

it.each(["no-such-cup", "Pro-Downhill-Series-2027", "x".repeat(100), "a b"])(
  "answers %s with the home screen and status 404",
  async (slug) => {
    const result = (await load(slug)) as {
      data: { notFound: { events: unknown[]; competitions: { current: unknown[] } } };
      init: { status: number };
    };
    expect(result.init.status).toBe(404);
    expect(result.data.notFound.events.length).toBeGreaterThanOrEqual(12);
    expect(result.data.notFound.competitions.current.length).toBeGreaterThan(0);
  },
);
