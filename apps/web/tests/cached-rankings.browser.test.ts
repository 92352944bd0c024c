/**
 * A visitor's ranking pages come from the app's cache (docs/decisions/0135): in Chromium the
 * cached page runs its scripts under the CSP it is sent with (no violation), moves between the
 * rankings client-side through the cached single-fetch data, and a player who logs in sees their
 * own row, never the visitor's page.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { logIn, type TestAccount, withAccounts } from "./support/accounts";
import { type RunningApp, startApp } from "./support/app";
import { launchBrowser, watchErrors } from "./support/browser";

const PLAYER: TestAccount = {
  username: "cachedrider",
  email: "cachedrider@example.com",
  password: "cached-pages-1",
};

let app: RunningApp;
let browser: Browser;

beforeAll(async () => {
  [app, browser] = await Promise.all([
    startApp({ prepare: withAccounts(PLAYER) }),
    launchBrowser(),
  ]);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe("cached ranking pages in a browser", () => {
  it("run their scripts, navigate client-side, and give way to a player's own page", async () => {
    // A first visitor fills the app's cache; the next one (a fresh browser, nothing cached on
    // its side) gets the cached page, whose scripts must carry the nonce its CSP header names.
    const first = await browser.newContext();
    const res = await (await first.newPage()).goto(`${app.url}/leagues-ranking`);
    expect(res?.status()).toBe(200);
    await first.close();

    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = watchErrors(page);
    const dataRequests: string[] = [];
    page.on("request", (r) => {
      if (new URL(r.url()).pathname.endsWith(".data")) dataRequests.push(r.url());
    });
    const cached = await page.goto(`${app.url}/leagues-ranking`);
    expect(cached?.status()).toBe(200);
    expect(cached?.headers().etag).toBe(res?.headers().etag);
    await page.getByRole("heading", { name: "Leagues Ranking", level: 1 }).waitFor();
    // Hydrated: a header link loads the other ranking's data, not a new document.
    await page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "Player Ranking" })
      .click();
    await page.getByRole("heading", { name: "Player Rankings", level: 1 }).waitFor();
    expect(dataRequests.some((u) => new URL(u).pathname === "/players-ranking.data")).toBe(true);
    expect(errors).toEqual([]);

    // Signed in: their own standing, on a page no cache keeps.
    await logIn(page, app.url, PLAYER);
    const mine = await page.goto(`${app.url}/players-ranking`);
    expect(mine?.headers()["cache-control"]).toBe("private, no-store");
    expect(mine?.headers().etag).toBeUndefined();
    await page.getByText("You are not ranked yet").waitFor();
    expect(await page.getByText(PLAYER.username).count()).toBeGreaterThan(0);
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);
});
