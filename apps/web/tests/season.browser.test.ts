/**
 * The whole season loop in Debian's Chromium against the built app: a player builds a round-1
 * team, the admin imports results and advances the season with the CLI, the round-2 home shows
 * the carried team with the prices paid and today's, and the player edits and saves it.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type RunningApp, startApp } from "./support/app";
import { launchBrowser, watchErrors } from "./support/browser";
import { ensureCliBuilt, runCli } from "./support/cli";

let app: RunningApp;
let browser: Browser;

/** The real `game-admin` binary against the running app's data folder (it goes through the app). */
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
const priceButton = (row: Locator) => row.getByRole("button", { name: /^Add / });
const saveButton = (page: Page) => page.locator(".team-builder__save");
const bank = (page: Page) => page.getByTestId("bank");
const tab = (page: Page, name: string) => page.getByRole("tab", { name, exact: true });
const filledSlots = (page: Page) => page.locator(".gf-slot:not(.gf-slot--empty)");
const money = (text: string | null) => Number((text ?? "").replace(/[^\d-]/g, ""));

async function addRow(page: Page, index: number) {
  const before = await filledSlots(page).count();
  await priceButton(rows(page).nth(index)).click();
  await expect.poll(() => filledSlots(page).count()).toBe(before + 1);
}

it("round 1 team -> results -> season advance -> round 2 shows the carried team -> edit -> save", async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors = watchErrors(page);

  // A player signs up and saves a round-1 team: three cheap pro men, two women, a junior.
  const username = `season_${Date.now() % 100_000}`;
  await page.goto(`${app.url}/signup?redirectTo=${encodeURIComponent("/team-setup?game=5")}`);
  const form = page.locator("main form");
  await form.getByLabel("Username").fill(username);
  await form.getByLabel("Email").fill(`${username}@example.com`);
  await form.getByLabel("Password").fill("a long enough password");
  await form.getByRole("button", { name: "Create account" }).click();
  await page.waitForURL((url) => url.pathname === "/team-setup", { timeout: 30_000 });
  for (const i of [25, 26, 27]) await addRow(page, i);
  await tab(page, "Pro Women").click();
  const women = await rows(page).count();
  await addRow(page, women - 2);
  await addRow(page, women - 3);
  await tab(page, "17-18 Men").click();
  await addRow(page, 0);
  await saveButton(page).click();
  const alert = page.locator(".team-builder__result[role=alert]");
  await expect.poll(() => alert.textContent()).toBe("Team saved successfully!");
  const round1Bank = money(await bank(page).textContent());

  // The admin imports round 1's results (every racer finishes in rank order) and advances.
  const listed = await cli("racers", "list", "--game", "5", "--json");
  expect(listed.code).toBe(0);
  const parsed = JSON.parse(listed.stdout);
  const racers: { firstName: string; lastName: string; category: string }[] = Array.isArray(parsed)
    ? parsed
    : (parsed.racers ?? parsed.rows);
  const place = new Map<string, number>();
  const lines = ["Position,First Name,Last Name,Category"];
  for (const r of racers) {
    const p = (place.get(r.category) ?? 0) + 1;
    place.set(r.category, p);
    lines.push(`${p},${r.firstName},${r.lastName},${r.category}`);
  }
  const dir = mkdtempSync(path.join(tmpdir(), "gf-season-"));
  const file = path.join(dir, "round-1.csv");
  writeFileSync(file, `${lines.join("\n")}\n`);
  const imported = await cli("results", "import", "5", file, "--force");
  expect(imported.code, imported.stderr).toBe(0);
  const advanced = await cli("season", "advance");
  expect(advanced.code, advanced.stderr).toBe(0);
  expect(advanced.stdout).toMatch(
    /^Advanced Pro Downhill Series .* to Pro Downhill Series Round 2/,
  );
  expect(advanced.stdout).toMatch(/1 teams carried over \(0 kept as drafts to fix\)/);

  // Round 2's home: the carried team, each racer's price paid and today's; the bank unchanged.
  await page.goto(`${app.url}/game/6`);
  const changes = page.locator(".season-changes");
  await expect.poll(() => changes.count()).toBe(1);
  expect(await changes.textContent()).toContain("Since Pro Downhill Series Round 1");
  expect(await changes.textContent()).toContain("carried over from Pro Downhill Series Round 1");
  const priceRows = changes.locator("tbody tr");
  expect(await priceRows.count()).toBe(6);
  // The back-markers lost value: today's price is below the price paid for at least one.
  const table = (await changes.locator("table").textContent()) ?? "";
  expect(table).toMatch(/\(-\$\d/);
  expect(await filledSlots(page).count()).toBe(6);
  expect(money(await page.locator(".greeting dd").last().textContent())).toBe(round1Bank);

  // The player changes one racer before the lock and saves.
  await page.getByRole("link", { name: "Edit Your Team" }).click();
  await page.waitForURL(/\/team-setup\?game=6$/);
  await expect.poll(() => filledSlots(page).count()).toBe(6);
  // The team page says the same: carried over, prices paid against today's.
  expect(await page.locator(".team-page__season").textContent()).toContain(
    "Since Pro Downhill Series Round 1",
  );
  expect(money(await bank(page).textContent())).toBe(round1Bank);
  // There the prices fold into one line, closed; the keyboard opens it.
  const carried = page.locator(".team-page__season");
  const summary = carried.getByText("Since Pro Downhill Series Round 1: Windrock: prices you paid");
  expect(await carried.locator("details").getAttribute("open")).toBeNull();
  expect(await carried.locator("table").isVisible()).toBe(false);
  await summary.focus();
  await page.keyboard.press("Enter");
  await expect.poll(() => carried.locator("table").isVisible()).toBe(true);
  expect(await carried.locator("tbody tr").count()).toBe(6);

  // On a phone the team and the picker come first: the carried-over prices stay folded.
  const phone = await browser.newContext({
    storageState: await context.storageState(),
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  const small = await phone.newPage();
  await small.goto(`${app.url}/team-setup?game=6`);
  await expect.poll(() => filledSlots(small).count()).toBe(6);
  for (const part of [
    small.getByRole("heading", { name: "Your team", exact: true }),
    small.getByRole("heading", { name: "Pick your riders" }),
    tab(small, "Pro Men"),
  ]) {
    const box = (await part.boundingBox())!;
    expect(box.y + box.height, String(part)).toBeLessThanOrEqual(844);
  }
  expect(await small.locator(".team-page__season table").isVisible()).toBe(false);
  await phone.close();

  await tab(page, "Pro Men").click();
  await page
    .locator(".gf-slot", { hasText: "Pro Men" })
    .first()
    .getByRole("button", { name: /^Remove / })
    .click();
  await expect.poll(() => filledSlots(page).count()).toBe(5);
  await addRow(page, 35);
  await saveButton(page).click();
  await expect.poll(() => alert.textContent()).toBe("Team saved successfully!");

  // The dashboard's Season block uses the same service: round 2 is not settled, so it refuses.
  const granted = await cli("users", "grant-admin", `${username}@example.com`);
  expect(granted.code, granted.stderr).toBe(0);
  await page.goto(`${app.url}/admin/events`);
  const season = page.locator("section", { has: page.getByRole("heading", { name: "Season" }) });
  await season.getByRole("button", { name: "Advance season" }).click();
  await expect
    .poll(() => season.getByRole("status").textContent())
    .toMatch(/Pro Downhill Series Round 2.* has not been settled yet/);
  // The only console error is the browser logging that refusal's 409.
  expect(errors).toEqual([
    "Failed to load resource: the server responded with a status of 409 (Conflict)",
  ]);

  // Round 2 scored: "Advance season" shows what it would do and asks; nothing moves until yes.
  const round2 = JSON.parse((await cli("racers", "list", "--game", "6", "--json")).stdout);
  const field: { firstName: string; lastName: string; category: string }[] = Array.isArray(round2)
    ? round2
    : (round2.racers ?? round2.rows);
  const places = new Map<string, number>();
  const round2Lines = ["Position,First Name,Last Name,Category"];
  for (const r of field) {
    const p = (places.get(r.category) ?? 0) + 1;
    places.set(r.category, p);
    round2Lines.push(`${p},${r.firstName},${r.lastName},${r.category}`);
  }
  const round2File = path.join(dir, "round-2.csv");
  writeFileSync(round2File, `${round2Lines.join("\n")}\n`);
  const scored = await cli("results", "import", "6", round2File, "--force");
  expect(scored.code, scored.stderr).toBe(0);
  await season.getByRole("button", { name: "Advance season" }).click();
  await expect
    .poll(() => season.getByRole("status").textContent())
    .toMatch(
      /^Preview \(nothing written\): advancing would move Pro Downhill Series 2027 from .*Round 2: Snowshoe to .*Round 3: Mammoth Mountain/,
    );
  const confirm = season.getByRole("form", { name: "Confirm the advance" });
  const stillOpen = JSON.parse((await cli("events", "list", "--json")).stdout);
  expect(stillOpen.find((e: { id: number }) => e.id === 6).status).toBe("open");
  await confirm.getByRole("button", { name: /^Yes, open Pro Downhill Series Round 3/ }).click();
  await expect
    .poll(() => season.getByRole("status").textContent())
    .toMatch(/^Advanced Pro Downhill Series 2027 from .*Round 2: Snowshoe to .*Round 3/);
  expect(await confirm.count()).toBe(0);
  const after = JSON.parse((await cli("events", "list", "--json")).stdout);
  expect(after.find((e: { id: number }) => e.id === 7).status).toBe("open");
  await context.close();
}, 180_000);
