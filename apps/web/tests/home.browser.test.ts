import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type RunningApp, startApp } from "./support/app";
import { launchBrowser, watchErrors } from "./support/browser";

let app: RunningApp;
let browser: Browser;

beforeAll(async () => {
  [app, browser] = await Promise.all([startApp(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

it("home page lists the 12 seeded events", async () => {
  const page = await browser.newPage();
  const errors = watchErrors(page);
  const res = await page.goto(app.url);
  expect(res?.status()).toBe(200);
  await expect
    .poll(() => page.getByRole("list", { name: "Events" }).getByRole("listitem").count())
    .toBe(12);
  expect(await page.getByText("Pro Downhill Series Round 1: Windrock").count()).toBeGreaterThan(0);
  expect(errors).toEqual([]);
});
