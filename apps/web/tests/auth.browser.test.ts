import { accounts, createAccount, createDb, seed, setUserAccepted } from "@game/db";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../app/utils/password.server";
import { type RunningApp, startApp } from "./support/app";
import { launchBrowser, watchErrors } from "./support/browser";

let app: RunningApp;
let browser: Browser;

const GHOST = { email: "ghost@example.com", password: "ghost-password" };
const BLOCKED = { email: "blocked@example.com", password: "blocked-password" };

/** Accounts the UI cannot make: credentials without a profile, and a blocked player. */
async function prepare(dataDir: string) {
  const handle = await createDb({ dataDir, url: "" });
  try {
    await seed(handle.db);
    await handle.db
      .insert(accounts)
      .values({ email: GHOST.email, passwordHash: await hashPassword(GHOST.password) });
    const blocked = await createAccount(handle.db, {
      username: "Blocked",
      email: BLOCKED.email,
      passwordHash: await hashPassword(BLOCKED.password),
    });
    await setUserAccepted(handle.db, blocked.id, false);
  } finally {
    await handle.close();
  }
}

beforeAll(async () => {
  [app, browser] = await Promise.all([startApp({ prepare }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const dialog = (page: Page) => page.getByRole("dialog");
const mainNav = (page: Page) => page.getByRole("navigation", { name: "Main" });

async function openLogin(page: Page) {
  await mainNav(page).getByRole("link", { name: "Login", exact: true }).click();
  await dialog(page).getByRole("heading", { name: "Login" }).waitFor();
}

async function fill(page: Page, fields: Record<string, string>) {
  const d = dialog(page);
  for (const [label, value] of Object.entries(fields)) {
    await d.getByLabel(label, { exact: true }).fill(value);
  }
}

async function submit(page: Page, button: "Log in" | "Create account") {
  await dialog(page).getByRole("button", { name: button }).click();
}

async function alertText(page: Page) {
  const alert = dialog(page).getByRole("alert");
  await alert.waitFor();
  return (await alert.textContent())?.trim();
}

describe("accounts in the browser", () => {
  let context: BrowserContext;
  let page: Page;
  let errors: string[];
  beforeAll(async () => {
    context = await browser.newContext();
    page = await context.newPage();
    errors = watchErrors(page);
  });
  afterAll(() => context.close());

  it("signs up, logs out and logs in again", async () => {
    await page.goto(`${app.url}/`);
    await openLogin(page);
    await dialog(page).getByRole("link", { name: "Create Your Account" }).click();
    await dialog(page).getByRole("heading", { name: "Create Your Account" }).waitFor();
    await fill(page, {
      Username: "Sam_Hill",
      Email: "Sam@Example.com",
      Password: "flat-pedals-4ever",
    });
    await submit(page, "Create account");
    await page.waitForURL(`${app.url}/homepage`);
    // A brand-new account is welcomed, not welcomed back.
    await page.getByText("Welcome, Sam_Hill!").waitFor();
    expect(await page.getByText("Welcome back").count()).toBe(0);
    expect(await dialog(page).count()).toBe(0);

    const [cookie] = (await context.cookies()).filter((c) => c.name === "gf_session");
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/", secure: false });
    const days = (cookie!.expires - Date.now() / 1000) / 86400;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);

    await mainNav(page).getByRole("button", { name: "Logout" }).click();
    await page.waitForURL(`${app.url}/`);
    await mainNav(page).getByRole("link", { name: "Login", exact: true }).waitFor();
    expect((await context.cookies()).filter((c) => c.name === "gf_session")).toEqual([]);

    await openLogin(page);
    await fill(page, { Email: "sam@example.com", Password: "flat-pedals-4ever" });
    await submit(page, "Log in");
    await page.waitForURL(`${app.url}/homepage`);
    // Not played yet (no team, no points): still "Welcome" (decision 0117).
    await page.getByText("Welcome, Sam_Hill!").waitFor();
    expect(errors).toEqual([]);
  });

  it("lets a signed-in player enter only the open event", async () => {
    await page.goto(`${app.url}/`);
    const cards = page.getByRole("list", { name: "Events" }).getByRole("article");
    const open = cards.filter({ hasText: "Round 1: Windrock" });
    expect(await open.getByRole("link", { name: /Enter Event/ }).getAttribute("href")).toBe(
      "/game/5",
    );
    const closed = cards.filter({ hasText: "Round 2: Snowshoe" });
    expect(await closed.getByText("Closed").count()).toBe(1);
    expect(await closed.getByRole("link").count()).toBe(0);
    expect(await closed.getByRole("button").count()).toBe(0);
    const archived = cards.filter({ hasText: "Red Bull Rampage 2024" });
    expect(await archived.getByText("Archived").count()).toBe(1);
    expect(await archived.getByRole("link").count()).toBe(0);
    // Exactly one event can be entered.
    expect(await page.getByRole("link", { name: /Enter Event/ }).count()).toBe(1);
    await mainNav(page).getByRole("button", { name: "Logout" }).click();
    await page.waitForURL(`${app.url}/`);
  });
});

describe("the login modal's messages", () => {
  let page: Page;
  let errors: string[];
  beforeAll(async () => {
    page = await browser.newPage();
    errors = watchErrors(page);
    await page.goto(`${app.url}/about`);
    await openLogin(page);
  });
  afterAll(() => page.close());

  /** A fresh try: the modal is reopened (clean, no earlier answer), filled and posted. */
  const attempt = async (email: string, password: string) => {
    await page.keyboard.press("Escape");
    await dialog(page).waitFor({ state: "hidden" });
    await openLogin(page);
    expect(await dialog(page).getByRole("alert").count()).toBe(0);
    await fill(page, { Email: email, Password: password });
    await submit(page, "Log in");
    return alertText(page);
  };

  it("asks for both e-mail and password", async () => {
    await fill(page, { Email: "", Password: "" });
    await submit(page, "Log in");
    expect(await alertText(page)).toBe("Email and password are required");
  });

  it("gives a wrong password and an unknown e-mail the same message", async () => {
    expect(await attempt("sam@example.com", "wrong-password")).toBe("Wrong e-mail or password.");
    expect(await attempt("nobody@example.com", "wrong-password")).toBe("Wrong e-mail or password.");
  });

  it("says when the profile is missing, and when the account is not accepted", async () => {
    expect(await attempt(GHOST.email, GHOST.password)).toBe(
      "No user profile found. Contact admin.",
    );
    expect(await attempt(BLOCKED.email, BLOCKED.password)).toBe(
      "Account not accepted yet. Please contact admin.",
    );
    // Still on the same page, still a visitor.
    expect(new URL(page.url()).pathname).toBe("/about");
  });

  it("explains sign-up problems next to their fields", async () => {
    await dialog(page).getByRole("link", { name: "Create Your Account" }).click();
    await fill(page, { Username: "sam_hill", Email: "not-an-email", Password: "short" });
    await submit(page, "Create account");
    const d = dialog(page);
    await d.getByText("Enter a valid e-mail address.").waitFor();
    await d.getByText("Use at least 10 characters for your password.").waitFor();
    expect(await d.getByLabel("Email", { exact: true }).getAttribute("aria-invalid")).toBe("true");

    await fill(page, { Username: "SAM_HILL", Email: "SAM@example.com", Password: "long-enough-1" });
    await submit(page, "Create account");
    await d.getByText("An account with this e-mail already exists. Log in instead.").waitFor();
    await d.getByText("That username is taken. Try another one.").waitFor();
    expect(errors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
  });
});

describe("keyboard and no-JavaScript use", () => {
  it("opens, traps and closes the modal from the keyboard", async () => {
    const page = await browser.newPage();
    await page.goto(`${app.url}/about`);
    const login = mainNav(page).getByRole("link", { name: "Login", exact: true });
    await login.focus();
    await page.keyboard.press("Enter");
    await dialog(page).waitFor();
    expect(await dialog(page).getAttribute("aria-labelledby")).toBeTruthy();
    // Focus starts in the first field and Tab never leaves the dialog.
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).name)).toBe(
      "email",
    );
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press("Tab");
      const inside = await page.evaluate(
        () =>
          !!document.activeElement?.closest("dialog") || document.activeElement === document.body,
      );
      expect(inside).toBe(true);
    }
    await page.keyboard.press("Escape");
    await dialog(page).waitFor({ state: "hidden" });
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe("Login");
    await page.close();
  });

  it("opened by a move within the page to ?login=1, gives the focus back to what had it", async () => {
    const page = await browser.newPage();
    const errors = watchErrors(page);
    await page.goto(`${app.url}/view-racers`);
    // Hydrated: the router moves without a page load, as a link or a redirect of a loader does.
    await page.waitForFunction(() => "__remixRouter" in window);
    const tab = page.getByRole("tab", { name: "Pro Women" });
    await tab.focus();
    await page.evaluate(() =>
      (
        window as unknown as { __remixRouter: { navigate(to: string): void } }
      ).__remixRouter.navigate("/view-racers?login=1"),
    );
    await dialog(page).getByRole("heading", { name: "Login" }).waitFor();
    await page.keyboard.press("Escape");
    await dialog(page).waitFor({ state: "hidden" });
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent?.trim()))
      .toBe("Pro Women");
    await expect.poll(() => new URL(page.url()).search).toBe("");
    expect(errors).toEqual([]);
    await page.close();
  });

  it("moves focus into the dialog when a protected page sends a visitor to log in", async () => {
    const page = await browser.newPage();
    await page.goto(`${app.url}/team-setup?game=5`);
    expect(new URL(page.url()).searchParams.get("login")).toBe("1");
    await dialog(page).getByRole("heading", { name: "Login" }).waitFor();
    // The first field has focus once the page runs, and stays there.
    await expect
      .poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement).name))
      .toBe("email");
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).name)).toBe(
      "email",
    );
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press("Tab");
      const inside = await page.evaluate(
        () =>
          !!document.activeElement?.closest("dialog") || document.activeElement === document.body,
      );
      expect(inside).toBe(true);
    }
    // Nothing on the page opened it: closing gives focus to the page's content. The dialog
    // hides at once and its close event (which moves the focus) is queued after: wait for it.
    await page.keyboard.press("Escape");
    await dialog(page).waitFor({ state: "hidden" });
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("main");
    await page.close();
  });

  it("opens from a ?login=1 link and returns to the page it came from", async () => {
    const page = await browser.newPage();
    // The visitor types before the page's JavaScript has run (held back here, as on a slow
    // phone): what they typed must survive the dialog becoming a modal.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(/\.js(\?|$)/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${app.url}/?login=1&redirectTo=%2Fview-racers%3Fcategory%3Dpro-women`, {
      waitUntil: "commit",
    });
    await dialog(page).getByRole("heading", { name: "Login" }).waitFor();
    await fill(page, { Email: "sam@example.com", Password: "flat-pedals-4ever" });
    release();
    await expect
      .poll(() => page.evaluate(() => !!document.querySelector("dialog:modal")))
      .toBe(true);
    await page.waitForTimeout(300);
    expect(await dialog(page).getByLabel("Email", { exact: true }).inputValue()).toBe(
      "sam@example.com",
    );
    await submit(page, "Log in");
    await page.waitForURL(`${app.url}/view-racers?category=pro-women`);
    await mainNav(page).getByRole("button", { name: "Logout" }).click();
    await page.waitForURL(`${app.url}/`);
    await page.close();
  });

  it("Sign In to Play opens the modal and leads into the event", async () => {
    const page = await browser.newPage();
    await page.goto(`${app.url}/`);
    await page
      .getByRole("list", { name: "Events" })
      .getByRole("link", { name: /Sign In to Play/ })
      .click();
    await dialog(page).getByRole("heading", { name: "Login" }).waitFor();
    await fill(page, { Email: "sam@example.com", Password: "flat-pedals-4ever" });
    await submit(page, "Log in");
    await page.waitForURL(`${app.url}/game/5`);
    await page.close();
  });

  it("logs in and shows the spec's message on plain form posts", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${app.url}/`);
    await mainNav(page).getByRole("link", { name: "Login", exact: true }).click();
    await page.waitForURL(`${app.url}/login`);
    const form = page.getByRole("main");
    await form.getByRole("button", { name: "Log in" }).click();
    expect(await form.getByRole("alert").textContent()).toBe("Email and password are required");
    await form.getByLabel("Email", { exact: true }).fill("sam@example.com");
    await form.getByLabel("Password", { exact: true }).fill("wrong-password");
    await form.getByRole("button", { name: "Log in" }).click();
    expect(await form.getByRole("alert").textContent()).toBe("Wrong e-mail or password.");
    // The e-mail is kept, the password is not.
    expect(await form.getByLabel("Email", { exact: true }).inputValue()).toBe("sam@example.com");
    await form.getByLabel("Password", { exact: true }).fill("flat-pedals-4ever");
    await form.getByRole("button", { name: "Log in" }).click();
    await page.waitForURL(`${app.url}/homepage`);
    // The URL changes before the new page renders: wait for it.
    await expect.poll(() => page.getByText("Welcome, Sam_Hill!").count()).toBe(1);
    await context.close();
  });
});

describe("security over HTTP", () => {
  it("refuses a form posted from another site", async () => {
    const res = await fetch(`${app.url}/login`, {
      method: "POST",
      headers: {
        Origin: "https://evil.example",
        "Content-Type": "application/x-www-form-urlencoded",
      },
      body: "email=sam%40example.com&password=flat-pedals-4ever",
      redirect: "manual",
    });
    expect(res.status).toBe(403);
    expect(res.headers.get("Set-Cookie")).toBeNull();
  });

  it("revokes the session at logout: a copied cookie stops working", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${app.url}/login`);
    const form = page.getByRole("main");
    await form.getByLabel("Email", { exact: true }).fill("sam@example.com");
    await form.getByLabel("Password", { exact: true }).fill("flat-pedals-4ever");
    await form.getByRole("button", { name: "Log in" }).click();
    await page.waitForURL(`${app.url}/homepage`);
    const [cookie] = (await context.cookies()).filter((c) => c.name === "gf_session");
    const header = `gf_session=${cookie!.value}`;
    const asCopy = () =>
      fetch(`${app.url}/homepage`, { headers: { Cookie: header } }).then((r) => r.text());
    // React separates text parts with comments in server HTML: look for the parts.
    expect(await asCopy()).toMatch(/Welcome(<!-- -->)?, (<!-- -->)?Sam_Hill/);

    await mainNav(page).getByRole("button", { name: "Logout" }).click();
    await page.waitForURL(`${app.url}/`);
    expect(await asCopy()).not.toMatch(/Welcome(<!-- -->)?, /);
    await context.close();
  });
});
