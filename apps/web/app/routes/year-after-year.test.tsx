/**
 * Competitions year after year, on a real database: every competition keeps its own table. A
 * round of the 2027 series is scored for real (results imported); the 2024 World Cup's final
 * table is written straight into its standings (the settlement has its own tests). Then the
 * ranking pages switch competitions (`?competition=`, every link keeping it), the hall of fame
 * shows the podium, the competition page its podium and standings, the player page the
 * player's record in each competition, and the About page the live competition's rules.
 * Pages are rendered as the server renders them (loader, then the route's component).
 */
import {
  createLeague,
  events,
  importResults,
  joinByCode,
  listPublicRacers,
  seasonStandings,
} from "@game/db";
import { createTestDb, type DbHandle, putTeam } from "@game/db/testing";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { eq, sql } from "drizzle-orm";
import type { ComponentType } from "react";
import { renderToString } from "react-dom/server";
import {
  createStaticHandler,
  createStaticRouter,
  StaticRouterProvider,
} from "react-router-dom/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cookieFor, makeUser, request, testContext } from "../../tests/support/context";
import * as about from "./about";
import * as competitionPage from "./competitions.$slug";
import * as hallOfFame from "./hall-of-fame";
import * as leaguesRanking from "./leagues-ranking";
import * as playerPage from "./players.$username";
import * as playersRanking from "./players-ranking";

const SERIES = "pro-downhill-series-2027";
const WORLD_CUP = "uci-downhill-world-cup-2024";
/** Players in the World Cup's final table: more than one ranking page (50 a page). */
const WORLD_CUP_PLAYERS = 52;

let h: DbHandle;
let ctx: ReturnType<typeof testContext>;
type User = Awaited<ReturnType<typeof makeUser>>;
let ann: User;
let annCookie: string;
let ben: User;
let cat: User;
let leagueId: number;

beforeAll(async () => {
  h = await createTestDb({ seed: true });
  // After round 1 of the 2027 series (18 April 2027): the series is live, 2024 is over.
  ctx = testContext(h.db, { now: () => new Date("2027-04-19T12:00:00Z") });
  ann = await makeUser(h.db, { username: "ann" });
  annCookie = await cookieFor(ctx, ann);
  ben = await makeUser(h.db, { username: "ben" });
  cat = await makeUser(h.db, { username: "cat" });

  // 2027, round 1, for real: ann and ben have teams and a league, then the results come in.
  const pool = await listPublicRacers(h.db, 5);
  const men = pool.filter((r) => r.category === "Pro Men");
  await putTeam(h.db, ann.id, 5, [men[0]!.id, men[1]!.id]);
  await putTeam(h.db, ben.id, 5, [men[2]!.id]);
  const league = await createLeague(h.db, ann, "Ann's Crew");
  if (!league.ok) throw new Error("league refused");
  leagueId = league.league.id;
  await joinByCode(h.db, ben, league.league.joinCode);
  const lines = ["Position,First Name,Last Name,Category"];
  const place = new Map<string, number>();
  for (const r of pool) {
    const p = (place.get(r.category) ?? 0) + 1;
    place.set(r.category, p);
    lines.push(`${p},"${r.firstName}","${r.lastName}",${r.category}`);
  }
  const imported = await importResults(h.db, 5, lines.join("\n"), {
    now: new Date("2027-04-18T18:00:00Z"),
  });
  expect(imported.ok).toBe(true);

  // 2024: the World Cup's final table. cat won, ben and wc_rider_01 shared 2nd, ann was last.
  const others: User[] = [];
  for (let i = 1; i <= WORLD_CUP_PLAYERS - 3; i++) {
    others.push(await makeUser(h.db, { username: `wc_rider_${String(i).padStart(2, "0")}` }));
  }
  const table = [
    { user: cat, points: 400, rank: 1 },
    { user: ben, points: 300, rank: 2 },
    ...others.map((user, i) => ({
      user,
      points: i === 0 ? 300 : 250 - i,
      rank: i === 0 ? 2 : i + 3,
    })),
    { user: ann, points: 10, rank: WORLD_CUP_PLAYERS },
  ];
  await h.db.insert(seasonStandings).values(
    table.map((r, i) => ({
      competitionId: sql`(select id from competitions where slug = ${WORLD_CUP})`,
      position: i + 1,
      userId: r.user.id,
      points: r.points,
      rank: r.rank,
    })),
  );
  // Its first round was scored back then (what makes its ranking one to offer).
  await h.db
    .update(events)
    .set({ settledAt: new Date("2024-05-06T12:00:00Z") })
    .where(eq(events.id, 1));
}, 120_000);
afterAll(() => h.close());

async function outcome(fn: () => unknown): Promise<unknown> {
  try {
    return await fn();
  } catch (thrown) {
    return thrown;
  }
}

type RouteModule = {
  loader: (args: LoaderFunctionArgs) => unknown;
  default: ComponentType;
};

/** The page's HTML as the server sends it (no script runs). */
async function html(
  route: RouteModule,
  path: string,
  opts: { cookie?: string; pattern?: string; context?: ReturnType<typeof testContext> } = {},
): Promise<string> {
  const context = opts.context ?? ctx;
  const handler = createStaticHandler([
    {
      id: "page",
      path: opts.pattern ?? path.split("?")[0]!,
      loader: async ({ request, params }) =>
        (await route.loader({ request, params, context })) as object,
      Component: route.default,
    },
  ]);
  const req = new Request(`http://localhost${path}`, {
    headers: opts.cookie ? { Cookie: opts.cookie } : {},
  });
  const found = await handler.query(req);
  if (found instanceof Response) throw new Error(`${path} answered ${found.status}`);
  return renderToString(
    <StaticRouterProvider
      router={createStaticRouter(handler.dataRoutes, found)}
      context={found}
      hydrate={false}
    />,
  )
    .replace(/<!-- -->/g, "")
    .replace(/&#x27;/g, "'");
}

/** The `href`s of the page's links. */
const hrefs = (page: string) =>
  [...page.matchAll(/<a [^>]*href="([^"]*)"/g)].map((m) => m[1]!.replace(/&amp;/g, "&"));

const players = (path: string, cookie?: string) =>
  playersRanking.loader({ request: request(path, { cookie }), context: ctx, params: {} });
const leagues = (path: string, cookie?: string) =>
  leaguesRanking.loader({ request: request(path, { cookie }), context: ctx, params: {} });

describe("player ranking by competition", () => {
  it("shows the default competition without ?competition=, and offers the others", async () => {
    const page = await players("/players-ranking");
    expect(page.competition).toEqual({ slug: SERIES, name: "Pro Downhill Series 2027" });
    // The default one stays implicit in the page's links.
    expect(page.competitionParam).toBeNull();
    expect(page.competitions).toEqual([
      { slug: SERIES, name: "Pro Downhill Series 2027" },
      { slug: WORLD_CUP, name: "UCI Downhill World Cup 2024" },
    ]);
    expect(page.rows.map((r) => r.username)).toEqual(["ann", "ben"]);
    // Its own scored rounds only.
    expect(page.views.map((v) => v.id)).toEqual([5]);
    // The same table when named.
    const named = await players(`/players-ranking?competition=${SERIES}`);
    expect(named.rows).toEqual(page.rows);
    expect(named.competitionParam).toBe(SERIES);
  });

  it("shows another competition's own table, rounds and the viewer's place in it", async () => {
    const page = await players(
      `/players-ranking?competition=${WORLD_CUP.toUpperCase()}`,
      annCookie,
    );
    expect(page.competition).toEqual({ slug: WORLD_CUP, name: "UCI Downhill World Cup 2024" });
    expect(page.competitionParam).toBe(WORLD_CUP);
    expect(page.rows.slice(0, 3).map((r) => [r.rank, r.username, r.points])).toEqual([
      [1, "cat", 400],
      [2, "ben", 300],
      [2, "wc_rider_01", 300],
    ]);
    expect(page).toMatchObject({ page: 1, pageCount: 2, total: WORLD_CUP_PLAYERS });
    expect(page.views.map((v) => v.id)).toEqual([1]);
    expect(page.viewer?.standing).toMatchObject({
      username: "ann",
      rank: WORLD_CUP_PLAYERS,
      points: 10,
      page: 2,
    });
  });

  it("gives a round's view its own competition; a round of another competition is a 404", async () => {
    const round = await players("/players-ranking?event=1");
    expect(round.competition?.slug).toBe(WORLD_CUP);
    expect(round.competitionParam).toBe(WORLD_CUP);
    expect(round.view).toMatchObject({ eventId: 1, scored: true });
    for (const path of [
      "/players-ranking?competition=no-such-cup",
      "/players-ranking?competition=not%20a%20slug",
      `/players-ranking?competition=${"x".repeat(200)}`,
      `/players-ranking?competition=${WORLD_CUP}&event=5`,
    ]) {
      const missing = (await outcome(() => players(path))) as Response;
      expect(missing.status, path).toBe(404);
    }
    // An empty value is no choice: the default competition.
    expect((await players("/players-ranking?competition=")).competition?.slug).toBe(SERIES);
  });

  it("names the competition in the heading, offers a labelled switch, keeps it in every link", async () => {
    const page = await html(playersRanking, `/players-ranking?competition=${WORLD_CUP}`, {
      cookie: annCookie,
    });
    expect(page).toContain("<h1>Player Rankings: UCI Downhill World Cup 2024</h1>");
    // A GET form: its fields replace the action's query (on a new competition, page 1).
    expect(page).toMatch(
      /<form method="get" action="\/players-ranking[^"]*"[^>]*aria-label="Choose the competition"/,
    );
    expect(page).toContain('<label for="players-competition">Competition</label>');
    expect(page).toMatch(/<select id="players-competition" name="competition">/);
    expect(page).toContain(
      `<option value="${WORLD_CUP}" selected="">UCI Downhill World Cup 2024</option>`,
    );
    expect(page).toMatch(/<button type="submit"[^>]*>Show<\/button>/);
    const links = hrefs(page);
    // The season and its round, the pager and "Show my page": all in the World Cup.
    expect(links).toContain(`/players-ranking?competition=${WORLD_CUP}`);
    expect(links).toContain(`/players-ranking?competition=${WORLD_CUP}&event=1`);
    expect(links).toContain(`/players-ranking?competition=${WORLD_CUP}&page=2`);
    const ranking = links.filter((l) => l.startsWith("/players-ranking"));
    expect(ranking.length).toBeGreaterThan(3);
    for (const l of ranking) expect(l).toContain(`competition=${WORLD_CUP}`);
    expect(page).toMatch(
      /<a [^>]*href="\/players-ranking\?competition=[^"]*page=2"[^>]*>Show my page<\/a>/,
    );
    expect(links).toContain("/hall-of-fame");
    // The default competition's page keeps its links plain.
    const plain = hrefs(await html(playersRanking, "/players-ranking"));
    expect(plain).toContain("/players-ranking?event=5");
    expect(plain.filter((l) => l.includes("competition="))).toEqual([]);
  });
});

describe("league ranking by competition", () => {
  it("lists the competition's leagues, and the viewer's leagues of that competition", async () => {
    const series = await leagues("/leagues-ranking", annCookie);
    expect(series.competition?.slug).toBe(SERIES);
    expect(series.rows.map((r) => r.id)).toEqual([leagueId]);
    expect(series.myLeagues.map((l) => l.id)).toEqual([leagueId]);
    // A league plays one competition: the World Cup's ranking has none of ann's.
    const worldCup = await leagues(`/leagues-ranking?competition=${WORLD_CUP}`, annCookie);
    expect(worldCup).toMatchObject({
      competition: { slug: WORLD_CUP },
      competitionParam: WORLD_CUP,
      rows: [],
      myLeagues: [],
    });
    const missing = (await outcome(() =>
      leagues("/leagues-ranking?competition=no-such-cup"),
    )) as Response;
    expect(missing.status).toBe(404);
  });

  it("names the competition and offers the same switch", async () => {
    const page = await html(leaguesRanking, `/leagues-ranking?competition=${WORLD_CUP}`);
    expect(page).toContain("<h1>Leagues Ranking: UCI Downhill World Cup 2024</h1>");
    expect(page).toContain('<label for="leagues-competition">Competition</label>');
    expect(hrefs(page)).toContain("/hall-of-fame");
  });
});

describe("hall of fame", () => {
  it("shows each finished competition's podium, ties sharing a place, with its final ranking", async () => {
    const page = await hallOfFame.loader({
      request: request("/hall-of-fame"),
      context: ctx,
      params: {},
    });
    expect(page.competitions).toEqual([
      {
        slug: WORLD_CUP,
        name: "UCI Downhill World Cup 2024",
        season: "2024",
        discipline: "downhill",
        podium: [
          { rank: 1, username: "cat", points: 400 },
          { rank: 2, username: "ben", points: 300 },
          { rank: 2, username: "wc_rider_01", points: 300 },
        ],
      },
    ]);
    const text = await html(hallOfFame, "/hall-of-fame");
    expect(text).toContain("<h1>Hall of Fame</h1>");
    expect(hrefs(text)).toEqual(
      expect.arrayContaining([
        `/competitions/${WORLD_CUP}`,
        `/players-ranking?competition=${WORLD_CUP}`,
        "/players/cat",
      ]),
    );
    expect(text).toContain("Final ranking of UCI Downhill World Cup 2024");
  });

  it("says so when no competition has a podium yet", async () => {
    const empty = await createTestDb();
    try {
      const page = await html(hallOfFame, "/hall-of-fame", { context: testContext(empty.db) });
      expect(page).toContain("No podium yet");
    } finally {
      await empty.close();
    }
  });

  it("is linked from the footer, beside the rankings", async () => {
    const { FOOTER_LINKS } = await import("~/features/layout/site");
    expect(FOOTER_LINKS.map((l) => l.to)).toEqual([
      "/",
      "/view-racers",
      "/#events",
      "/players-ranking",
      "/leagues-ranking",
      "/hall-of-fame",
      "/about",
    ]);
  });
});

describe("competition page", () => {
  const load = async (slug: string) =>
    (await competitionPage.loader({
      request: request(`/competitions/${slug}`),
      context: ctx,
      params: { slug },
    })) as Exclude<Awaited<ReturnType<typeof competitionPage.loader>>, { data: unknown }>;

  it("shows a finished competition's podium and the top of its table, linking to all of it", async () => {
    const page = await load(WORLD_CUP);
    if (!("competition" in page)) throw new Error("not found");
    expect(page.podium?.map((p) => [p.rank, p.username])).toEqual([
      [1, "cat"],
      [2, "ben"],
      [2, "wc_rider_01"],
    ]);
    expect(page.standings.total).toBe(WORLD_CUP_PLAYERS);
    expect(page.standings.rows).toHaveLength(10);
    const text = await html(competitionPage, `/competitions/${WORLD_CUP}`, {
      pattern: "/competitions/:slug",
    });
    expect(text).toContain('<h2 id="podium-title">Podium</h2>');
    expect(text).toContain('<h2 id="standings-title">Standings</h2>');
    expect(hrefs(text)).toContain(`/players-ranking?competition=${WORLD_CUP}`);
    expect(text).toContain("Full ranking of UCI Downhill World Cup 2024");
  });

  it("shows a live competition's standings without a podium", async () => {
    const page = await load(SERIES);
    if (!("competition" in page)) throw new Error("not found");
    expect(page.podium).toBeNull();
    expect(page.standings.rows.map((r) => r.username)).toEqual(["ann", "ben"]);
    const text = await html(competitionPage, `/competitions/${SERIES}`, {
      pattern: "/competitions/:slug",
    });
    expect(text).not.toContain("podium-title");
    // Its rules in words are still stated.
    expect(text).toContain("Pick exactly 6 riders within a $1,000,000 budget.");
  });
});

describe("player page", () => {
  it("lists every competition played, with the final or current place, and each round's competition", async () => {
    const page = await playerPage.loader({
      request: request("/players/ann"),
      context: ctx,
      params: { username: "ann" },
    });
    expect(page.competition).toEqual({ slug: SERIES, name: "Pro Downhill Series 2027" });
    expect(page.player).toMatchObject({ ranking: 1 });
    expect(page.competitions).toEqual([
      expect.objectContaining({ slug: SERIES, state: "live", rank: 1 }),
      expect.objectContaining({
        slug: WORLD_CUP,
        state: "finished",
        rank: WORLD_CUP_PLAYERS,
        players: WORLD_CUP_PLAYERS,
        points: 10,
      }),
    ]);
    expect(page.events.map((e) => [e.id, e.competitionSlug, e.competitionName])).toEqual([
      [5, SERIES, "Pro Downhill Series 2027"],
    ]);
    const text = await html(playerPage, "/players/ann", { pattern: "/players/:username" });
    expect(text).toContain('<h2 id="competitions-title">Competitions</h2>');
    expect(text).toMatch(/1st of \d+<span class="table-note">So far<\/span>/);
    expect(text).toContain(`52nd of 52<span class="table-note">Final</span>`);
    expect(hrefs(text)).toEqual(
      expect.arrayContaining([
        `/players-ranking?competition=${SERIES}`,
        `/players-ranking?competition=${WORLD_CUP}`,
        `/competitions/${SERIES}`,
        "/players-ranking?event=5",
      ]),
    );
  });

  it("counts each competition's own players", async () => {
    // Fails until @game/db's competitionRecords correlates its count with the row's own
    // competition (it counts the largest table of all: 52 here, for a table of 2).
    const page = await playerPage.loader({
      request: request("/players/ann"),
      context: ctx,
      params: { username: "ann" },
    });
    expect(page.competitions.map((c) => [c.slug, c.players])).toEqual([
      [SERIES, 2],
      [WORLD_CUP, WORLD_CUP_PLAYERS],
    ]);
  });

  it("says when a player has no place in any competition yet", async () => {
    const fresh = await makeUser(h.db, { username: "fresh_rider" });
    const text = await html(playerPage, `/players/${fresh.username}`, {
      pattern: "/players/:username",
    });
    expect(text).toContain("fresh_rider has no place in a competition's ranking yet.");
  });
});

describe("about page", () => {
  it("states the live competition's rules in words, from its stored rules", async () => {
    const data = await about.loader({ request: request("/about"), context: ctx, params: {} });
    expect(data.inPlay).toEqual([
      expect.objectContaining({ slug: SERIES, name: "Pro Downhill Series 2027", state: "live" }),
    ]);
    const text = await html(about, "/about");
    expect(text).toContain("Pro Downhill Series 2027, being played now");
    for (const line of data.inPlay[0]!.rulesText) expect(text).toContain(line);
    expect(hrefs(text)).toContain(`/competitions/${SERIES}`);
  });
});
