/**
 * The hello answers a widget's first requests before the widget asks (first-requests.ts,
 * docs/decisions/0182): each widget, given any attributes, must ask for exactly what the plan
 * asked for, or its data would come a round trip late (asked twice) or never be used (planned
 * in vain). Each element is rendered with React over the real API, in-process on a seeded
 * database, and its requests are compared with the plan's.
 */
import "./test-dom";
import { competitions } from "@game/db";
import { createTestDb, type DbHandle, putTeam } from "@game/db/testing";
import { createGameClient, type GameClient } from "@game/widgets/client";
import { GravityProvider } from "@game/widgets/hooks";
import fc from "fast-check";
import type { ComponentType } from "react";
import { act } from "react";
import { createRoot } from "react-dom/client";
import { afterAll, beforeAll, expect, it } from "vitest";
import { inProcessFetch, widgetEndpoint } from "~/features/api/widget-endpoints.server";
import { makeUser, testContext } from "../tests/support/context";
import { GfLeagueRankings } from "./elements/league-rankings";
import { GfPlayerRankings } from "./elements/player-rankings";
import { GfRacerTable } from "./elements/racer-table";
import { GfTeamBuilder } from "./elements/team-builder";
import { GfTeamGrid } from "./elements/team-grid";
import { firstRequests, planAttributes } from "./first-requests";
import type { Attributes, WidgetProps } from "./runtime";

const BASE = "http://game.test";

const ELEMENTS: Record<string, ComponentType<WidgetProps>> = {
  "gf-racer-table": GfRacerTable,
  "gf-player-rankings": GfPlayerRankings,
  "gf-league-rankings": GfLeagueRankings,
  "gf-team-grid": GfTeamGrid,
  "gf-team-builder": GfTeamBuilder,
};

let h: DbHandle;
let api: typeof fetch;
let eventIds: string[] = [];
let slugs: string[] = [];
let usernames: string[] = [];

beforeAll(async () => {
  h = await createTestDb({ seed: true });
  api = inProcessFetch(testContext(h.db), null);
  const events = (await (await api(`${BASE}/api/v1/events`)).json()) as { data: { id: number }[] };
  eventIds = events.data.map((e) => String(e.id));
  slugs = (await h.db.select({ slug: competitions.slug }).from(competitions)).map((c) => c.slug);
  // A player with a team (shown once its event locks, else refused as private) and one without.
  const withTeam = await makeUser(h.db, { username: "grid-rider" });
  const without = await makeUser(h.db, { username: "no-team-rider" });
  const racers = (await (await api(`${BASE}/api/v1/events/${eventIds[0]}/racers`)).json()) as {
    data: { id: number }[];
  };
  await putTeam(
    h.db,
    withTeam.id,
    Number(eventIds[0]),
    racers.data.slice(0, 6).map((r) => r.id),
  );
  usernames = [withTeam.username, without.username];
});
afterAll(() => h.close());

/** A `fetch` over the in-process API that notes each path and query asked, and how many are open. */
function recording() {
  const asked: string[] = [];
  let open = 0;
  const fetch = (async (input: RequestInfo | URL) => {
    // An endpoint the hello cannot answer in-process: the widget would never get it from there.
    expect(widgetEndpoint(new URL(String(input)).pathname), String(input)).toBeDefined();
    asked.push(String(input).slice(BASE.length));
    open += 1;
    try {
      return await api(input);
    } finally {
      open -= 1;
    }
  }) as typeof globalThis.fetch;
  return { asked, fetch, open: () => open };
}

/** The widget's requests until it stops asking: every answer in and no new request after it. */
async function widgetRequests(tag: string, attrs: Attributes): Promise<string[]> {
  const { asked, fetch, open } = recording();
  const client: GameClient = createGameClient({ baseUrl: BASE, fetch });
  const Element = ELEMENTS[tag]!;
  const node = document.createElement("div");
  const root = createRoot(node);
  await act(async () => {
    root.render(
      <GravityProvider client={client}>
        <Element attrs={attrs} ctx={{ base: BASE, client }} host={node} />
      </GravityProvider>,
    );
  });
  // Idle: nothing open and nothing new over a few turns of the event loop (an answer's state
  // update renders, and its effects may ask next). Counted in turns, not time.
  let quiet = 0;
  let seen = -1;
  for (let turn = 0; quiet < 5 && turn < 100_000; turn += 1) {
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    quiet = open() === 0 && asked.length === seen ? quiet + 1 : 0;
    seen = asked.length;
  }
  act(() => root.unmount());
  return asked.sort();
}

/** What the hello plans for `all`, given only the attributes it keeps (planAttributes). */
async function plannedRequests(tag: string, all: Attributes): Promise<string[]> {
  const attrs = planAttributes(all);
  const { asked, fetch } = recording();
  await firstRequests(tag, attrs, createGameClient({ baseUrl: BASE, fetch })).catch(() => {});
  return asked.sort();
}

/** An attribute: absent, blank, or one of `values` (some padded with spaces, as pasted). */
const attr = (...values: string[]) =>
  fc.option(
    fc.oneof(
      fc.constantFrom("", " ", ...values),
      fc.constantFrom(...values).map((v) => ` ${v} `),
    ),
    { nil: undefined },
  );

const attributes = () =>
  fc
    .record(
      {
        event: attr(...eventIds, "999999", "0", "abc"),
        competition: attr(...slugs, "no-such-competition"),
        category: attr("pro-women", "Pro Women", "junior-men", "JUNIOR WOMEN", "bmx"),
        "hide-tabs": fc.option(fc.constant(""), { nil: undefined }),
        page: attr("1", "2", "0", "x"),
        username: attr(...usernames, "nobody-here", "a/b?c"),
        // Read by the widgets, not by the plan: they must not change the first requests.
        theme: attr("dark", "auto"),
        "price-change": fc.option(fc.constant(""), { nil: undefined }),
        "picked-by": fc.option(fc.constant(""), { nil: undefined }),
        partner: attr("pk_test"),
        style: attr("display: block"),
      },
      { requiredKeys: [] },
    )
    .map((r) => {
      const attrs: Attributes = {};
      for (const [k, v] of Object.entries(r)) if (v !== undefined) attrs[k] = v;
      return attrs;
    });

it("the hello plans exactly the requests each widget makes as it first shows", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...Object.keys(ELEMENTS)),
      attributes(),
      async (tag, attrs) => {
        expect(await plannedRequests(tag, attrs)).toEqual(await widgetRequests(tag, attrs));
      },
    ),
    { numRuns: 300 },
  );
});

it("plans requests for every widget with data (the property above is not empty)", async () => {
  for (const tag of ["gf-racer-table", "gf-player-rankings", "gf-league-rankings"]) {
    expect(await plannedRequests(tag, {})).not.toEqual([]);
  }
  expect(await plannedRequests("gf-team-grid", { username: usernames[0]! })).toEqual([
    `/api/v1/teams/${usernames[0]}`,
  ]);
  expect(await plannedRequests("gf-team-builder", { partner: "pk_x" })).toEqual([]);
});
