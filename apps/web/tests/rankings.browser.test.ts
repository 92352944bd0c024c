/**
 * Results in, points out: on the built app with its embedded database, an admin imports round 1's
 * results on the dashboard (a bad file first: every problem by line, nothing written), and the
 * points appear for every player on the rankings, the leagues ranking and the player page; a
 * corrected file, imported without JavaScript, fixes them. Also on a 360 px phone.
 */
import {
  createAccount,
  createDb,
  leagueMembers,
  leagues,
  listTeamRacers,
  saveTeam,
  seed,
} from "@game/db";
import { sql } from "drizzle-orm";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../app/utils/password.server";
import { type RunningApp, startApp } from "./support/app";
import { launchBrowser, watchErrors } from "./support/browser";

let app: RunningApp;
let browser: Browser;

const PASSWORD = "results-are-in-1";
const ADMIN = "judge@example.com";
type Pick = { id: number; firstName: string; lastName: string; category: string };
/** The riders the two teams are built around (cheapest riders make valid teams). */
let ann: Pick[];
let ben: Pick[];

/** An admin, and two players with saved teams for round 1 in one league, before the app starts. */
async function prepare(dataDir: string) {
  const h = await createDb({ dataDir, url: "" });
  try {
    await seed(h.db);
    const pool = await listTeamRacers(h.db, 5);
    const cheapest = (category: string, from: number, n: number) =>
      pool
        .filter((r) => r.category === category)
        .sort((a, b) => a.price - b.price || a.id - b.id)
        .slice(from, from + n);
    const teamOf = (from: number) => [
      ...cheapest("Pro Women", from * 2, 2),
      ...cheapest("17-18 Men", from, 1),
      ...cheapest("Pro Men", from * 3, 3),
    ];
    const passwordHash = await hashPassword(PASSWORD);
    await createAccount(h.db, { username: "Judge", email: ADMIN, passwordHash, role: "admin" });
    const made = [];
    for (const [i, name] of ["ann", "ben"].entries()) {
      const user = await createAccount(h.db, {
        username: name,
        email: `${name}@example.com`,
        passwordHash,
      });
      const team = teamOf(i);
      const saved = await saveTeam(h.db, {
        userId: user.id,
        eventId: 5,
        racerIds: team.map((r) => r.id),
        now: new Date(),
      });
      if (!saved.ok) throw new Error(`team not saved: ${JSON.stringify(saved)}`);
      made.push({ user, team });
    }
    ann = made[0]!.team;
    ben = made[1]!.team;
    const [league] = await h.db
      .insert(leagues)
      .values({
        name: "Sunday Shredders",
        ownerId: made[0]!.user.id,
        joinCode: "shredders-01",
        competitionId: sql`(select id from competitions where slug = 'pro-downhill-series-2027')`,
      })
      .returning();
    await h.db
      .insert(leagueMembers)
      .values(made.map((m) => ({ leagueId: league!.id, userId: m.user.id })));
  } finally {
    await h.close();
  }
}

beforeAll(async () => {
  [app, browser] = await Promise.all([startApp({ prepare }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

async function logIn(page: Page, email: string) {
  await page.goto(`${app.url}/login`);
  const form = page.locator("main form");
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Password").fill(PASSWORD);
  await form.getByRole("button", { name: "Log in" }).click();
  await page.waitForURL((url) => url.pathname !== "/login", { timeout: 30_000 });
}

const csv = (lines: string[]) => ({
  name: "round-1.csv",
  mimeType: "text/csv",
  buffer: Buffer.from(["Position,First Name,Last Name,Category", ...lines].join("\n"), "utf8"),
});
const row = (position: string | number, r: Pick) =>
  `${position},${r.firstName},${r.lastName},${r.category}`;

/** Round 1: ann's riders take every category win, ben's are second (or DNF). */
function results(swap = false): string[] {
  const lines: string[] = [];
  const places = new Map<string, number>();
  const next = (c: string) => {
    const p = (places.get(c) ?? 0) + 1;
    places.set(c, p);
    return p;
  };
  const [first, second] = swap ? [ben, ann] : [ann, ben];
  for (const r of first) lines.push(row(next(r.category), r));
  for (const r of second) lines.push(row(r.category === "17-18 Men" ? "DNF" : next(r.category), r));
  return lines;
}

/** The two teams' points for `results()`, whichever team wins, from the points table. */
function expected(): { winner: number; loser: number } {
  const table = (p: number) => (p === 1 ? 100 : p === 2 ? 80 : p === 3 ? 65 : p <= 10 ? 50 : 10);
  // Winner: Pro Women 1st and 2nd, the junior 1st, Pro Men 1st to 3rd.
  const winner = table(1) + table(2) + table(1) + table(1) + table(2) + table(3);
  // Loser: Pro Women 3rd and 4th, the junior DNF (0), Pro Men 4th to 6th.
  const loser = table(3) + table(4) + 0 + table(4) + table(5) + table(6);
  return { winner, loser };
}

const rankingRows = (page: Page) =>
  page.locator(".gf-player-rankings tbody:not(.gf-pinned) tr").allInnerTexts();

describe("results to rankings", () => {
  let admin: BrowserContext;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    admin = await browser.newContext();
    page = await admin.newPage();
    errors = watchErrors(page);
    await logIn(page, ADMIN);
  });
  afterAll(() => admin.close());

  it("shows an empty ranking before any result", async () => {
    await page.goto(`${app.url}/players-ranking`);
    await page.getByText("No scores yet").waitFor();
    // The heading names the competition shown: before any result, the one being played.
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(
      "Player Rankings: Pro Downhill Series 2027",
    );
    await page.getByText("You are not ranked yet").waitFor();
  });

  it("refuses a bad file with every problem by line, and writes nothing", async () => {
    await page.goto(`${app.url}/admin/results`);
    await page.getByLabel("Event").first().selectOption("5");
    const bad = [row(1, ann[0]!), row(1, ann[1]!), "2,Nobody,Known,Pro Men"];
    await page.getByLabel("Results file (CSV)").setInputFiles(csv(bad));
    await page.getByRole("button", { name: "Import and score" }).click();
    const alert = page.getByRole("alert");
    await alert.getByText("Nothing was imported: 2 problems in the file.").waitFor();
    expect(await alert.locator("li").allInnerTexts()).toEqual([
      `Line 3: Position 1 in ${ann[1]!.category} is already taken on line 2.`,
      "Line 4: Unknown racer: Nobody Known in Pro Men is not a racer of this event.",
    ]);
    await page.goto(`${app.url}/players-ranking`);
    await page.getByText("No scores yet").waitFor();
  });

  it("checks, imports and scores: points appear for every player and league", async () => {
    errors.length = 0; // the refused upload above answered 400, as it should
    await page.goto(`${app.url}/admin/results`);
    await page.getByLabel("Results file (CSV)").setInputFiles(csv(results()));
    await page.getByRole("button", { name: "Check file" }).click();
    await page.getByText("round-1.csv is ready: 12 results").waitFor();
    // The lock of round 1 is months away on this machine's clock: the page says what importing does.
    await page
      .getByText(/Importing results now freezes every team at once/)
      .first()
      .waitFor();
    await page.getByRole("button", { name: "Import these 12 results and score" }).click();
    await page.getByText("Imported 12 results").waitFor({ timeout: 30_000 });
    await page.getByText("2 teams scored, 2 players ranked, 1 league updated").waitFor();

    const { winner, loser } = expected();
    await page.goto(`${app.url}/players-ranking`);
    expect(await rankingRows(page)).toEqual([`1\tann\t${winner}`, `2\tben\t${loser}`]);
    await page.goto(`${app.url}/players-ranking?event=5`);
    expect((await rankingRows(page)).length).toBe(2);
    await page.goto(`${app.url}/leagues-ranking`);
    const avg = (winner + loser) / 2;
    expect(await page.locator(".gf-league-rankings tbody tr").allInnerTexts()).toEqual([
      `1\tSunday Shredders\t${avg.toLocaleString("en-US")}`,
    ]);
    expect(errors).toEqual([]);
  });

  it("a player sees their own row, their page with a chart, and the racers behind it", async () => {
    const context = await browser.newContext();
    const p = await context.newPage();
    const errs = watchErrors(p);
    await logIn(p, "ben@example.com");
    await p.goto(`${app.url}/players-ranking`);
    await p.getByText("You are 2nd of 2 in the season").waitFor();
    expect(await p.locator('.gf-player-rankings tr[aria-current="true"]').textContent()).toContain(
      "ben",
    );
    await p.getByRole("link", { name: "My scores by event" }).click();
    await p.waitForURL(`${app.url}/players/ben`);
    const chart = p.getByRole("img", { name: /ben's points per event/ });
    await chart.waitFor();
    expect(await p.locator("desc").first().textContent()).toContain(`${expected().loser} points`);
    // The frozen team, drawn by the widgets' TeamGrid: six slots, best scorer first, each with a
    // portrait, the result and the points; no Remove buttons.
    const team = p.getByRole("list", { name: "Team at the lock" });
    const slots = team.getByRole("listitem");
    expect(await slots.count()).toBe(6);
    const first = await slots.first().textContent();
    expect(first).toContain(`${ben[0]!.firstName} ${ben[0]!.lastName}`);
    expect(first).toContain("Pro Women, 3rd");
    expect(first).toContain("65 pts");
    expect(await slots.last().textContent()).toMatch(/17-18 Men, DNF0 pts$/);
    expect(await team.locator(".gf-portrait").count()).toBe(6);
    expect(await team.getByRole("button").count()).toBe(0);
    await team.getByRole("link", { name: `${ben[0]!.firstName} ${ben[0]!.lastName}` }).click();
    await p.getByText(/1 of 2 teams \(50%\) at the lock/).waitFor();
    // Every username in the table leads to that player's page.
    await p.goto(`${app.url}/players-ranking`);
    await p.locator(".gf-player-rankings").getByRole("link", { name: "ann", exact: true }).click();
    await p.waitForURL(`${app.url}/players/ann`);
    await p.getByRole("img", { name: /ann's points per event/ }).waitFor();
    expect(errs).toEqual([]);
    await context.close();
  });

  it("a corrected file, posted without JavaScript, fixes the points", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const p = await context.newPage();
    await logIn(p, ADMIN);
    await p.goto(`${app.url}/admin/results`);
    await p.getByLabel("Event").first().selectOption("5");
    await p.getByLabel("Results file (CSV)").setInputFiles(csv(results(true)));
    await p.getByRole("button", { name: "Import and score" }).click();
    await p.getByText("Imported 12 results").waitFor({ timeout: 30_000 });
    const { winner, loser } = expected();
    await p.goto(`${app.url}/players-ranking`);
    expect(await rankingRows(p)).toEqual([`1\tben\t${winner}`, `2\tann\t${loser}`]);
    await context.close();
  });

  it("fits a 360 px phone", async () => {
    const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
    const p = await context.newPage();
    for (const path of [
      "/players-ranking",
      "/leagues-ranking",
      "/players/ann",
      `/racers/${ann[0]!.id}`,
    ]) {
      await p.goto(`${app.url}${path}`);
      const width = await p.evaluate(() => document.documentElement.scrollWidth);
      expect(width, path).toBeLessThanOrEqual(360);
    }
    await context.close();
  });
});
