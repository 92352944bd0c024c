import { connectionForDataDir, createDb, listOutbox } from "@game/db";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { logIn, type TestAccount, withAccounts } from "./support/accounts";
import { type RunningApp, startApp } from "./support/app";
import { launchBrowser, watchErrors } from "./support/browser";

const RIDER: TestAccount = {
  username: "Forgetful_Fred",
  email: "fred@example.com",
  password: "old-berms-2025",
};
const NEW_PASSWORD = "new-lines-all-day-26";

let app: RunningApp;
let browser: Browser;
beforeAll(async () => {
  [app, browser] = await Promise.all([startApp({ prepare: withAccounts(RIDER) }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

/** The newest mail to `to`, read from the running app's outbox (through its database socket). */
async function latestMailTo(to: string) {
  const url = connectionForDataDir(app.dataDir);
  expect(url).not.toBeNull();
  const h = await createDb({ url: url!, max: 1, migrate: false });
  try {
    const { rows } = await listOutbox(h.db, { limit: 20 });
    return rows.find((r) => r.to === to);
  } finally {
    await h.close();
  }
}

const mainNav = (page: Page) => page.getByRole("navigation", { name: "Main" });

describe("forgotten password in the browser", () => {
  it("asks for a link, follows it from the e-mail, sets a new password and logs in", async () => {
    // A browser that stays signed in elsewhere: the reset must sign it out.
    const elsewhere = await browser.newContext();
    const other = await elsewhere.newPage();
    await logIn(other, app.url, RIDER);

    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = watchErrors(page);

    await page.goto(`${app.url}/`);
    await mainNav(page).getByRole("link", { name: "Login", exact: true }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("link", { name: "Forgot your password?" }).click();
    await page.waitForURL(`${app.url}/forgot-password`);
    await page.getByRole("heading", { name: "Forgot your password?" }).waitFor();
    await page.locator("main form").getByLabel("Email").fill("FRED@example.com");
    await page.getByRole("button", { name: "Send me a link" }).click();
    await page.getByRole("status").filter({ hasText: "we have sent it a link" }).waitFor();

    // The mail is written after the answer (decision 0152): wait for it to appear.
    await expect.poll(() => latestMailTo(RIDER.email), { timeout: 15_000 }).toBeDefined();
    const mail = await latestMailTo(RIDER.email);
    expect(mail?.subject).toBe("Reset your Gravity Fantasy password");
    const link = new URL(mail!.text.match(/https?:\/\/\S+/)![0]);
    expect(link.pathname).toBe("/reset-password");
    // The link's origin is the configured public one; the test browser talks to 127.0.0.1.
    await page.goto(`${app.url}${link.pathname}${link.search}`);
    await page.getByRole("heading", { name: "Choose a new password" }).waitFor();

    const form = page.locator("main form");
    await form.getByLabel("New password").fill("password123");
    await form.getByRole("button", { name: "Save new password" }).click();
    await form
      .getByText("That password is on the list of common passwords attackers try first.", {
        exact: false,
      })
      .waitFor();

    // Saved: on to the login page, which says so; nothing on the way answers 4xx (the used
    // link was checked again and answered 400 before).
    const statuses: number[] = [];
    page.on("response", (r) => statuses.push(r.status()));
    await form.getByLabel("New password").fill(NEW_PASSWORD);
    await form.getByRole("button", { name: "Save new password" }).click();
    await page.waitForURL(`${app.url}/login?reset=done`);
    await page.getByRole("status").filter({ hasText: "Your password is changed" }).waitFor();
    expect(statuses.filter((s) => s >= 400)).toEqual([]);
    page.removeAllListeners("response");

    // The other browser was signed out.
    await other.reload();
    await mainNav(other).getByRole("link", { name: "Login", exact: true }).waitFor();

    // The link worked once.
    await page.goto(`${app.url}${link.pathname}${link.search}`);
    await page.getByRole("alert").filter({ hasText: "invalid, already used or expired" }).waitFor();

    await logIn(page, app.url, { ...RIDER, password: NEW_PASSWORD });
    expect(new URL(page.url()).pathname).toBe("/homepage");
    await mainNav(page)
      .getByRole("link", { name: /Forgetful_Fred/ })
      .click();
    await page.waitForURL(`${app.url}/account`);
    await page.getByRole("heading", { name: "Your account" }).waitFor();
    // The refused password and the dead link answer 400, as form errors do; nothing else failed.
    expect(errors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
    await Promise.all([context.close(), elsewhere.close()]);
  });
});
