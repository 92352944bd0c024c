/**
 * Race day live (docs/decisions/0171) in Debian's Chromium against the built app: a player's
 * event home and a visitor's round ranking are open when the admin imports provisional results
 * with the CLI and a timing system pushes the final ones; both pages move without a reload and
 * say "provisional" until the final results.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type RunningApp, startApp } from "./support/app";
import { launchBrowser, watchErrors } from "./support/browser";
import { ensureCliBuilt, runCli } from "./support/cli";

let app: RunningApp;
let browser: Browser;
const cli = (...args: string[]) => runCli(app, ...args);

beforeAll(async () => {
  ensureCliBuilt();
  [app, browser] = await Promise.all([startApp(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const rows = (page: Page) => page.locator(".gf-racer-table tbody tr");
const filledSlots = (page: Page) => page.locator(".gf-slot:not(.gf-slot--empty)");
const tab = (page: Page, name: string) => page.getByRole("tab", { name, exact: true });
/** Long enough for a tick (1 s) and a page's random wait (up to 2 s) on a busy machine. */
const LIVE = { timeout: 20_000, interval: 200 };

async function addRow(page: Page, index: number) {
  const before = await filledSlots(page).count();
  await rows(page).nth(index).getByRole("button", { name: /^Add / }).click();
  await expect.poll(() => filledSlots(page).count()).toBe(before + 1);
}

/** A mark a reload would wipe: the page moved by itself if it is still there. */
const mark = (page: Page) => page.evaluate(() => Object.assign(window, { __notReloaded: true }));
const stillSamePage = (page: Page) =>
  page.evaluate(() => (window as { __notReloaded?: boolean }).__notReloaded === true);

function csvFile(name: string, lines: string[]) {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "gf-live-")), name);
  writeFileSync(file, `${["Position,Racer ID", ...lines].join("\n")}\n`);
  return file;
}

it("two pages move live as provisional results come in, and settle on the final results", async () => {
  const player = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const home = await player.newPage();
  const homeErrors = watchErrors(home);
  const username = `live_${Date.now() % 100_000}`;
  await home.goto(`${app.url}/signup?redirectTo=${encodeURIComponent("/team-setup?game=5")}`);
  const form = home.locator("main form");
  await form.getByLabel("Username").fill(username);
  await form.getByLabel("Email").fill(`${username}@example.com`);
  await form.getByLabel("Password").fill("a long enough password");
  await form.getByRole("button", { name: "Create account" }).click();
  await home.waitForURL((url) => url.pathname === "/team-setup", { timeout: 30_000 });
  for (const i of [25, 26, 27]) await addRow(home, i);
  await tab(home, "Pro Women").click();
  const women = await rows(home).count();
  await addRow(home, women - 2);
  await addRow(home, women - 3);
  await tab(home, "17-18 Men").click();
  await addRow(home, 0);
  await home.locator(".team-builder__save").click();
  await expect
    .poll(() => home.locator(".team-builder__result[role=alert]").textContent())
    .toBe("Team saved successfully!");

  // Race day: the round starts in an hour, so its teams locked 11 hours ago.
  const start = new Date(Date.now() + 3600_000).toISOString();
  const scheduled = await cli("events", "schedule", "5", start);
  expect(scheduled.code, scheduled.stderr).toBe(0);
  const team = await (await fetch(`${app.url}/api/v1/teams/${username}?event=5`)).json();
  const riders: { id: number; category: string }[] = team.data.racers;
  const [first, second] = riders.filter((r) => r.category === "Pro Men");

  // Both pages are open before any result: they say they will move by themselves.
  await home.goto(`${app.url}/game/5`);
  const notice = home.getByTestId("live-notice");
  await expect.poll(() => notice.textContent()).toContain("updates by itself");
  const visitor = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const ranking = await visitor.newPage();
  const rankingErrors = watchErrors(ranking);
  await ranking.goto(`${app.url}/players-ranking?event=5`);
  expect(await ranking.getByTestId("live-notice").textContent()).toContain("updates by itself");
  expect(await ranking.getByRole("link", { name: username }).count()).toBe(0);
  await Promise.all([mark(home), mark(ranking)]);

  // The first riders are down: the admin imports them as provisional results.
  const piece = csvFile("live-1.csv", [`1,${first!.id}`]);
  const imported = await cli("results", "import", "5", piece, "--provisional");
  expect(imported.code, imported.stderr).toBe(0);
  const score = home.locator(".event-home__score");
  await expect.poll(() => score.textContent(), LIVE).toMatch(/^100 pts.*provisional$/);
  expect(await home.locator(".event-team__run").allTextContents()).toContain("1st");
  expect(await home.locator(".event-team__run").allTextContents()).toContain("Not down yet");
  expect(await notice.textContent()).toContain("Provisional: results are coming in.");
  expect(await home.locator(".greeting").textContent()).toContain("provisional");
  const row = ranking.getByRole("row").filter({ hasText: username });
  await expect.poll(() => row.count(), LIVE).toBe(1);
  expect(await row.textContent()).toContain("100");
  expect(await ranking.getByTestId("live-notice").textContent()).toContain("Provisional");

  // The timing system pushes the final standings: the second rider beat the first.
  const created = await cli("tokens", "create", "--name", "timing");
  expect(created.code, created.stderr).toBe(0);
  const token = created.stdout.trim().split("\n").at(-1)!;
  const pushed = await fetch(`${app.url}/api/v1/admin/events/5/results?final=1&category=pro-men`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "text/csv" },
    body: `Position,Racer ID\n1,${second!.id}\n2,${first!.id}\n`,
  });
  expect(pushed.status, await pushed.clone().text()).toBe(200);
  expect(await pushed.json()).toMatchObject({ provisional: false, unchanged: false });
  await expect.poll(() => score.textContent(), LIVE).toMatch(/^180 pts · rank 1 in this event$/);
  await expect.poll(() => row.textContent(), LIVE).toContain("180");
  expect(await notice.isHidden()).toBe(true);
  expect(await ranking.getByTestId("live-notice").isHidden()).toBe(true);
  expect(await home.locator(".lock-notice").textContent()).toContain("The results are in");
  expect(await home.locator(".greeting").textContent()).not.toContain("provisional");

  // Neither page was reloaded, and neither logged an error.
  expect(await stillSamePage(home)).toBe(true);
  expect(await stillSamePage(ranking)).toBe(true);
  expect(homeErrors).toEqual([]);
  expect(rankingErrors).toEqual([]);
  await player.close();
  await visitor.close();
});
