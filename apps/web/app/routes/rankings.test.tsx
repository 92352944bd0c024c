/**
 * The scoring pages end to end on a real database: results imported through the admin page,
 * then the rankings, the player page and the racer page read what the settlement stored.
 */
import { auditLog, events, racers } from "@game/db";
import { createTestDb, type DbHandle, putTeam } from "@game/db/testing";
import { eq, sql } from "drizzle-orm";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cookieFor, makeUser, request, testContext } from "../../tests/support/context";
import { BarChart, niceTicks } from "../components/charts/bar-chart";
import { movementText, ordinal, shortEventLabel } from "../components/charts/labels";
import * as adminResults from "./admin.results";
import * as healthz from "./healthz";
import * as leaguesRanking from "./leagues-ranking";
import * as playerPage from "./players.$username";
import * as playersRanking from "./players-ranking";
import * as racerPage from "./racers.$id";

let h: DbHandle;
let ctx: ReturnType<typeof testContext>;
type User = Awaited<ReturnType<typeof makeUser>>;
let admin: User;
let adminCookie: string;
let ann: User;
let annCookie: string;
let ben: User;
let newcomer: User;
let newcomerCookie: string;
let men: { id: number; firstName: string; lastName: string; origin: string }[];

async function team(user: User, racerIds: number[]) {
  await putTeam(h.db, user.id, 5, racerIds);
}

async function outcome(fn: () => unknown): Promise<unknown> {
  try {
    return await fn();
  } catch (thrown) {
    return thrown;
  }
}

async function answer(value: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const v = value as { data?: unknown; init?: { status?: number } | null };
  return { status: v.init?.status ?? 200, body: v.data as Record<string, unknown> };
}

function upload(
  csv: string | Uint8Array<ArrayBuffer>,
  intent: "preview" | "import",
  cookie = adminCookie,
  category?: string,
) {
  const form = new FormData();
  form.set("eventId", "5");
  form.set("intent", intent);
  if (category !== undefined) form.set("category", category);
  form.set("file", new File([csv], "round-1.csv", { type: "text/csv" }));
  return adminResults.action({
    request: new Request("http://localhost/admin/results", {
      method: "POST",
      headers: { Cookie: cookie, Origin: "http://localhost" },
      body: form,
    }),
    context: ctx,
    params: {},
  });
}

const line = (position: string, r: { firstName: string; lastName: string }) =>
  `${position},${r.firstName},${r.lastName},Pro Men`;
const HEADER = "Position,First Name,Last Name,Category";

beforeAll(async () => {
  h = await createTestDb({ seed: true });
  ctx = testContext(h.db, { now: () => new Date("2027-04-19T12:00:00Z") });
  admin = await makeUser(h.db, { role: "admin", username: "boss" });
  adminCookie = await cookieFor(ctx, admin);
  ann = await makeUser(h.db, { username: "ann" });
  annCookie = await cookieFor(ctx, ann);
  ben = await makeUser(h.db, { username: "ben" });
  newcomer = await makeUser(h.db, { username: "newcomer" });
  newcomerCookie = await cookieFor(ctx, newcomer);
  men = await h.db
    .select({
      id: racers.id,
      firstName: racers.firstName,
      lastName: racers.lastName,
      origin: racers.origin,
    })
    .from(racers)
    .where(eq(racers.category, "Pro Men"))
    .orderBy(racers.id);
  await team(ann, [men[0]!.id, men[1]!.id]);
  await team(ben, [men[2]!.id]);
});
afterAll(() => h.close());

describe("admin results page", () => {
  it("is for admins only", async () => {
    const visitor = (await outcome(() =>
      adminResults.loader({ request: request("/admin/results"), context: ctx, params: {} }),
    )) as Response;
    expect(visitor.status).toBe(302);
    const player = (await outcome(() =>
      upload(`${HEADER}\n${line("1", men[0]!)}`, "import", annCookie),
    )) as Response;
    expect(player.status).toBe(403);
    expect(await h.db.select().from(auditLog)).toEqual([]);
  });

  it("checks a file and lists every problem by line, writing nothing", async () => {
    const bad = await answer(
      await upload(
        [HEADER, line("1", men[0]!), line("1", men[1]!), "x,A,B,Pro Men"].join("\n"),
        "import",
      ),
    );
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      ok: false,
      error: "Nothing was imported: 2 problems in the file.",
      issues: [
        "Line 3: Position 1 in Pro Men is already taken on line 2.",
        'Line 4: Position "x" is not a place (1, 2, 3...) or DNF, DNS, DSQ.',
      ],
    });
    const [e] = await h.db.select().from(events).where(eq(events.id, 5));
    expect(e!.settledAt).toBeNull();

    const preview = await answer(
      await upload([HEADER, line("1", men[0]!), line("DNF", men[2]!)].join("\n"), "preview"),
    );
    expect(preview.body).toMatchObject({
      ok: true,
      intent: "preview",
      fileName: "round-1.csv",
      counts: { rows: 2, finished: 1, DNF: 1 },
      lockWarning: null,
    });
    expect(await h.db.select().from(auditLog)).toEqual([]);
  });

  it("checks a timing export for the category chosen, showing each name as written and matched", async () => {
    const timing = [
      "Rank,Bib,Name,Nation,Time",
      `1,7,${men[1]!.lastName.toUpperCase()} ${men[1]!.firstName},FRA,3:01.442`,
      `,3,${men[0]!.lastName.toUpperCase()} ${men[0]!.firstName},FRA,DNF`,
    ].join("\n");
    const preview = await answer(await upload(timing, "preview", adminCookie, "Pro Men"));
    expect(preview.body).toMatchObject({
      ok: true,
      intent: "preview",
      category: "Pro Men",
      categories: ["Pro Men"],
      counts: { rows: 2, finished: 1, DNF: 1 },
    });
    const rows = (
      preview.body.preview as { asWritten: string; name: string; status: string }[]
    ).map((r) => [r.asWritten, r.name, r.status]);
    expect(rows).toEqual([
      [
        `${men[1]!.lastName.toUpperCase()} ${men[1]!.firstName}`,
        `${men[1]!.firstName} ${men[1]!.lastName}`,
        "finished",
      ],
      [
        `${men[0]!.lastName.toUpperCase()} ${men[0]!.firstName}`,
        `${men[0]!.firstName} ${men[0]!.lastName}`,
        "DNF",
      ],
    ]);
    // Chosen as another category, the men are not found there.
    const wrong = await answer(await upload(timing, "preview", adminCookie, "Pro Women"));
    expect(wrong.status).toBe(400);
    expect(wrong.body.issues).toEqual([
      `Line 2: ${men[1]!.lastName.toUpperCase()} ${men[1]!.firstName} races in Pro Men, not Pro Women.`,
      `Line 3: ${men[0]!.lastName.toUpperCase()} ${men[0]!.firstName} races in Pro Men, not Pro Women.`,
    ]);
    // Excel's plain CSV (Windows-1252) keeps its accents.
    const cp1252 = Uint8Array.from(
      [...`Rank,Name\n1,${men[0]!.lastName.toUpperCase()} ${men[0]!.firstName}\n`].map((c) =>
        c.charCodeAt(0),
      ),
    );
    expect(Math.max(...cp1252)).toBeLessThan(256);
    const windows = await answer(await upload(cp1252, "preview", adminCookie, "Pro Men"));
    expect(windows.body).toMatchObject({ ok: true, counts: { rows: 1 } });
    expect(men[0]!.firstName).toBe("Loïc");
    expect((windows.body.preview as { asWritten: string }[])[0]!.asWritten).toBe("BRUNI Loïc");
    const binary = await answer(
      await upload(Uint8Array.from([0x50, 0x4b, 3, 4, 0, 0]), "preview", adminCookie, "Pro Men"),
    );
    expect(binary.status).toBe(400);
    expect(String(binary.body.error)).toMatch(/^This is not a text CSV file|Excel/);
    const unknown = await answer(await upload(timing, "preview", adminCookie, "Masters"));
    expect(unknown.body).toMatchObject({ ok: false, error: 'Unknown category "Masters".' });
    expect(await h.db.select().from(auditLog)).toEqual([]);
  });

  it("imports, scores at once, and records the admin in the audit log", async () => {
    const csv = [HEADER, line("1", men[0]!), line("2", men[1]!), line("3", men[2]!)].join("\n");
    const done = await answer(await upload(csv, "import"));
    expect(done.body).toMatchObject({
      ok: true,
      intent: "import",
      rows: 3,
      settlement: { teams: 2, rankedPlayers: 2 },
    });
    const log = await h.db.select().from(auditLog).orderBy(auditLog.id);
    expect(log.map((r) => [r.actor, r.action])).toEqual([
      [`web:${admin.email}`, "results.import"],
      [`web:${admin.email}`, "scores.settle"],
    ]);
    const page = (await adminResults.loader({
      request: request("/admin/results?event=5", { cookie: adminCookie }),
      context: ctx,
      params: {},
    })) as Awaited<ReturnType<typeof adminResults.loader>>;
    expect(page.chosen?.results.map((r) => [r.position, r.points, r.pickedBy])).toEqual([
      [1, 100, 1],
      [2, 80, 1],
      [3, 65, 1],
    ]);
  });

  it("scores again from a url-encoded post (the no-JavaScript confirm and settle buttons)", async () => {
    const again = await answer(
      await adminResults.action({
        request: request("/admin/results", {
          cookie: adminCookie,
          form: { intent: "settle", eventId: "5" },
        }),
        context: ctx,
        params: {},
      }),
    );
    expect(again.body).toMatchObject({ ok: true, intent: "settle", settlement: { teams: 2 } });
    const none = await answer(
      await adminResults.action({
        request: request("/admin/results", {
          cookie: adminCookie,
          form: { intent: "settle", eventId: "6" },
        }),
        context: ctx,
        params: {},
      }),
    );
    expect(none.body).toMatchObject({
      ok: false,
      error: "Event 6 has no results yet: import them first.",
    });
  });
});

describe("ranking pages", () => {
  const players = (path: string, cookie?: string) =>
    playersRanking.loader({ request: request(path, { cookie }), context: ctx, params: {} });

  it("shows the season table to visitors, highest first, with the views to switch to", async () => {
    const page = await players("/players-ranking");
    expect(page.rows.map((r) => [r.rank, r.username, r.points])).toEqual([
      [1, "ann", 180],
      [2, "ben", 65],
    ]);
    expect(page).toMatchObject({ page: 1, pageCount: 1, total: 2, viewer: null });
    expect(page.views).toEqual([
      { id: 5, provisional: false, name: expect.stringContaining("Round 1") },
    ]);
    expect(page.game?.id).toBe(5);
  });

  it("gives a signed-in player their own row and its page; unranked players are told so", async () => {
    const mine = await players("/players-ranking?page=7", annCookie);
    expect(mine.page).toBe(1);
    expect(mine.viewer).toEqual({
      username: "ann",
      standing: { id: ann.id, rank: 1, username: "ann", points: 180, previousRank: null, page: 1 },
    });
    const fresh = await players("/players-ranking", newcomerCookie);
    expect(fresh.viewer).toEqual({ username: "newcomer", standing: null });
  });

  it("has a per-event view; an unknown event is a 404, a bad page is page 1", async () => {
    const event = await players("/players-ranking?event=5&page=abc");
    expect(event.view).toMatchObject({ eventId: 5, scored: true });
    expect(event.rows.map((r) => r.username)).toEqual(["ann", "ben"]);
    const later = await players("/players-ranking?event=6");
    expect(later).toMatchObject({ rows: [], view: { eventId: 6, scored: false } });
    const missing = (await outcome(() => players("/players-ranking?event=99"))) as Response;
    expect(missing.status).toBe(404);
  });

  it("ranks leagues and points the viewer to theirs", async () => {
    const { leagues, leagueMembers } = await import("@game/db");
    const [l] = await h.db
      .insert(leagues)
      .values({
        name: "Friends",
        ownerId: ann.id,
        joinCode: "code-friends-1",
        competitionId: sql`(select id from competitions where slug = 'pro-downhill-series-2027')`,
      })
      .returning();
    await h.db.insert(leagueMembers).values([
      { leagueId: l!.id, userId: ann.id },
      { leagueId: l!.id, userId: ben.id },
    ]);
    // New leagues are ranked at the next settlement.
    let page = await leaguesRanking.loader({
      request: request("/leagues-ranking", { cookie: annCookie }),
      context: ctx,
      params: {},
    });
    // Listed after the ranked leagues (here the only one, so 1st): the line says the same place,
    // as provisional, so it never contradicts the table.
    expect(page.myLeagues).toEqual([
      {
        id: l!.id,
        name: "Friends",
        rank: 1,
        provisional: true,
        needsMembers: false,
        totalPoints: 0,
        page: 1,
      },
    ]);
    expect(page.rows.find((r) => r.id === l!.id)?.rank).toBe(1);
    await adminResults.action({
      request: request("/admin/results", {
        cookie: adminCookie,
        form: { intent: "settle", eventId: "5" },
      }),
      context: ctx,
      params: {},
    });
    page = await leaguesRanking.loader({
      request: request("/leagues-ranking", { cookie: annCookie }),
      context: ctx,
      params: {},
    });
    expect(page.rows).toEqual([{ id: l!.id, rank: 1, name: "Friends", totalPoints: 122.5 }]);
    expect(page.myLeagues[0]).toMatchObject({
      rank: 1,
      provisional: false,
      totalPoints: 122.5,
      page: 1,
    });
  });
});

describe("player and racer pages", () => {
  it("shows a player's score per event and the frozen team behind it", async () => {
    const page = await playerPage.loader({
      request: request("/players/ANN"),
      context: ctx,
      params: { username: "ANN" },
    });
    expect(page.player).toEqual({
      username: "ann",
      points: 180,
      ranking: 1,
      previousRanking: null,
    });
    expect(page.events).toEqual([
      expect.objectContaining({ id: 5, label: "R1", points: 180, rank: 1, players: 2 }),
    ]);
    expect(page.events[0]!.team.map((r) => [r.id, r.result, r.points])).toEqual([
      [men[0]!.id, 1, 100],
      [men[1]!.id, 2, 80],
    ]);
    // What the page's TeamGrid draws: name, portrait, category, then the result and points.
    expect(page.events[0]!.team[0]).toEqual({
      id: men[0]!.id,
      firstName: men[0]!.firstName,
      lastName: men[0]!.lastName,
      category: "Pro Men",
      picture: expect.toBeOneOf([expect.any(String), null]),
      // The nation colours the racer's generated avatar (the same as on every other page).
      origin: men[0]!.origin,
      price: expect.any(Number),
      rank2024: expect.any(Number),
      result: 1,
      points: 100,
      // No captain or bench in the spec's game (decisions 0168, 0169).
      captain: false,
      bench: false,
      autoSub: null,
    });
    const missing = (await outcome(() =>
      playerPage.loader({
        request: request("/players/x"),
        context: ctx,
        params: { username: "x" },
      }),
    )) as Response;
    expect(missing.status).toBe(404);
  });

  it("shows a racer's points per event and how many teams picked them", async () => {
    const page = await racerPage.loader({
      request: request(`/racers/${men[0]!.id}`),
      context: ctx,
      params: { id: String(men[0]!.id) },
    });
    expect(page.racer).toMatchObject({ id: men[0]!.id, firstName: men[0]!.firstName });
    expect(page.events).toEqual([
      expect.objectContaining({
        id: 5,
        settled: true,
        result: 1,
        points: 100,
        pickedBy: 1,
        teams: 2,
      }),
    ]);
    for (const id of ["abc", "0x1", "99999999"]) {
      const r = (await outcome(() =>
        racerPage.loader({ request: request(`/racers/${id}`), context: ctx, params: { id } }),
      )) as Response;
      expect(r.status, id).toBe(404);
    }
  });
});

describe("health and charts", () => {
  it("answers ok without the database", async () => {
    const r = healthz.loader();
    expect(r.status).toBe(200);
    expect(await r.text()).toBe("ok\n");
  });

  it("draws an accessible chart: one image with a text alternative, and a table", () => {
    const html = renderToStaticMarkup(
      <BarChart
        title="Points per event"
        data={[
          { id: 5, label: "R1", name: "Round 1: Windrock", value: 180 },
          { id: 6, label: "R2", name: "Round 2: Snowshoe", value: 65 },
        ]}
      />,
    );
    expect(html).toContain('role="img"');
    expect(html).toContain("Round 1: Windrock: 180 points; Round 2: Snowshoe: 65 points.");
    expect(html).toMatch(
      /<div class="visually-hidden"><table><caption>Points per event<\/caption>/,
    );
    expect(renderToStaticMarkup(<BarChart title="x" data={[]} emptyMessage="Nothing yet." />)).toBe(
      '<p class="chart-empty">Nothing yet.</p>',
    );
  });

  it("picks round axis steps and short labels", () => {
    expect(niceTicks(180)).toEqual([0, 50, 100, 150, 200]);
    expect(niceTicks(65)).toEqual([0, 20, 40, 60, 80]);
    expect(niceTicks(0)).toEqual([0]);
    expect(shortEventLabel("Pro Downhill Series Round 3: Mammoth Mountain")).toBe("R3");
    expect(shortEventLabel("Red Bull Rampage 2024")).toBe("Rampage");
    expect(shortEventLabel("World Cup Finals Mont-Sainte-Anne 2024")).toBe("Mont-Sai…");
    expect([1, 2, 3, 4, 11, 12, 13, 21, 102, 1013].map(ordinal)).toEqual([
      "1st",
      "2nd",
      "3rd",
      "4th",
      "11th",
      "12th",
      "13th",
      "21st",
      "102nd",
      "1,013th",
    ]);
    expect(movementText(3, 5)).toBe("up 2 places since the last event");
    expect(movementText(5, 4)).toBe("down 1 place since the last event");
    expect(movementText(5, null)).toBeNull();
  });
});
