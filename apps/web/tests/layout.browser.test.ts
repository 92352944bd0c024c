import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { logIn, type TestAccount, withAccounts } from "./support/accounts";
import { type RunningApp, startApp } from "./support/app";
import { launchBrowser, watchErrors } from "./support/browser";

let app: RunningApp;
let browser: Browser;

const PLAYER: TestAccount = {
  username: "layout_rider",
  email: "layout_rider@example.com",
  password: "a long enough password",
};
const ADMIN: TestAccount = {
  username: "layout_admin",
  email: "layout_admin@example.com",
  password: "another long password",
  role: "admin",
};

beforeAll(async () => {
  [app, browser] = await Promise.all([
    startApp({ prepare: withAccounts(PLAYER, ADMIN) }),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const NAV = [
  { name: "Home", path: "/" },
  { name: "View Racers", path: "/view-racers" },
  { name: "View Events", path: "/", hash: "#events" },
  { name: "Player Ranking", path: "/players-ranking" },
  { name: "Leagues Ranking", path: "/leagues-ranking" },
  { name: "About", path: "/about" },
];

const PUBLIC_ROUTES = [
  "/",
  "/homepage",
  "/view-racers",
  "/players-ranking",
  "/leagues-ranking",
  "/about",
  "/tos",
  "/privacypolicy",
  "/login",
  "/signup",
  "/no/such/page",
];

const mainNav = (page: Page) => page.getByRole("navigation", { name: "Main" });

/** The bar and the footer; a signed-in player gets Logout (and their name) instead of Login. */
async function expectLayout(page: Page, signedIn?: TestAccount) {
  const nav = mainNav(page);
  for (const link of NAV) {
    const a = nav.getByRole("link", { name: link.name, exact: true });
    expect(await a.count(), link.name).toBe(1);
    const href = await a.getAttribute("href");
    expect(href).toBe(`${link.path}${link.hash ?? ""}`);
  }
  const login = nav.getByRole("link", { name: "Login", exact: true });
  const logout = nav.getByRole("button", { name: "Logout", exact: true });
  expect(await login.count()).toBe(signedIn ? 0 : 1);
  expect(await logout.count()).toBe(signedIn ? 1 : 0);
  if (signedIn) {
    const who = nav.getByText(`Signed in as ${signedIn.username}`, { exact: true });
    expect(await who.count()).toBe(1);
  }
  const admin = nav.getByRole("link", { name: "Admin", exact: true });
  expect(await admin.count()).toBe(signedIn?.role === "admin" ? 1 : 0);
  const footer = page.getByRole("contentinfo");
  expect(await footer.getByRole("link", { name: "hello@gravityfantasy.example" }).count()).toBe(1);
  expect(await footer.getByRole("link", { name: "Terms of Service" }).getAttribute("href")).toBe(
    "/tos",
  );
  expect(await footer.getByRole("link", { name: "Privacy Policy" }).getAttribute("href")).toBe(
    "/privacypolicy",
  );
  expect(await footer.getByRole("link", { name: "All competitions" }).getAttribute("href")).toBe(
    "/#competitions",
  );
  expect(await footer.getByText(/coming soon/i).count()).toBe(0);
  expect(await footer.locator('img[src="/img/brand/logo.svg"]').count()).toBe(1);
}

describe("layout", () => {
  it("shows the navigation bar and the footer on every screen, without errors", async () => {
    const page = await browser.newPage();
    const errors = watchErrors(page);
    for (const path of PUBLIC_ROUTES) {
      const res = await page.goto(`${app.url}${path}`);
      expect(res?.status(), path).toBeLessThan(500);
      await expectLayout(page);
    }
    expect(errors.filter((e) => !e.includes("404"))).toEqual([]);
    await page.close();
  });

  it("shows them to a signed-in player and an admin too, with Logout instead of Login", async () => {
    const pages: [TestAccount, string[]][] = [
      [
        PLAYER,
        ["/game/5", "/team-setup?game=5", "/players-ranking", `/players/${PLAYER.username}`],
      ],
      [ADMIN, ["/admin", "/game/5"]],
    ];
    for (const [account, paths] of pages) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const errors = watchErrors(page);
      await logIn(page, app.url, account);
      for (const path of paths) {
        const res = await page.goto(`${app.url}${path}`);
        expect(res?.status(), `${account.username} ${path}`).toBe(200);
        expect(`${new URL(page.url()).pathname}${new URL(page.url()).search}`).toBe(path);
        await expectLayout(page, account);
      }
      expect(errors, account.username).toEqual([]);
      await context.close();
    }
  });

  it("leaves no error behind when a second click interrupts a navigation", async () => {
    const page = await browser.newPage();
    const errors = watchErrors(page);
    // A slow network, made certain: a page's data arrives but its connection stays open until
    // the router aborts it (as a response's last bytes can lag under load)...
    await page.addInitScript(() => {
      const realFetch = window.fetch;
      window.fetch = async (input, init) => {
        const response = await realFetch(input, init);
        const url = input instanceof Request ? input.url : String(input);
        const signal = init?.signal;
        if (!new URL(url, location.href).pathname.endsWith(".data") || !signal) return response;
        const bytes = new Uint8Array(await response.arrayBuffer());
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(bytes);
            signal.addEventListener("abort", () => controller.error(signal.reason));
          },
        });
        return new Response(body, { status: response.status, headers: response.headers });
      };
    });
    await page.goto(`${app.url}/`);
    await page.waitForFunction(() => "__remixRouter" in window);
    // ...and the About page's code is slow, so its navigation is still pending when the data is in.
    let releaseAbout = () => {};
    const aboutHeld = new Promise<void>((resolve) => {
      releaseAbout = resolve;
    });
    await page.route(/\/assets\/about-[^/]*\.js$/, async (route) => {
      await aboutHeld;
      await route.continue();
    });
    const aboutData = page.waitForResponse((r) => new URL(r.url()).pathname === "/about.data");
    await mainNav(page).getByRole("link", { name: "About", exact: true }).click();
    await aboutData;
    await mainNav(page).getByRole("link", { name: "Player Ranking", exact: true }).click();
    await page.waitForURL("**/players-ranking");
    await page.getByRole("heading", { name: /^Player Rankings/, level: 1 }).waitFor();
    releaseAbout();
    // Any error the abort caused would be reported by now; a real failure still would be.
    await page.evaluate(() => {
      void Promise.reject(new Error("a real failure"));
    });
    await expect.poll(() => errors.length).toBe(1);
    expect(errors).toEqual(["a real failure"]);
    await page.close();
  });

  it("takes every nav link where it should go", async () => {
    const page = await browser.newPage();
    await page.goto(`${app.url}/about`);
    for (const link of NAV) {
      await mainNav(page).getByRole("link", { name: link.name, exact: true }).click();
      await page.waitForURL((url) => url.pathname === link.path && url.hash === (link.hash ?? ""));
    }
    // The current page is marked for assistive technology.
    await page.goto(`${app.url}/view-racers`);
    expect(
      await mainNav(page)
        .getByRole("link", { name: "View Racers", exact: true })
        .getAttribute("aria-current"),
    ).toBe("page");
    await page.close();
  });

  it("shows the home screen with status 404 for an unknown path", async () => {
    const page = await browser.newPage();
    const res = await page.goto(`${app.url}/definitely/not/here?x=1`);
    expect(res?.status()).toBe(404);
    expect(
      await page.getByRole("status").filter({ hasText: "could not find that page" }).count(),
    ).toBe(1);
    expect(await page.getByRole("heading", { level: 2, name: "Events" }).count()).toBe(1);
    await expect
      .poll(() => page.getByRole("list", { name: "Events" }).getByRole("listitem").count())
      .toBe(12);
    expect(await page.title()).toMatch(/not found/i);
    await page.close();
  });

  it("offers a skip link first for keyboard users", async () => {
    const page = await browser.newPage();
    await page.goto(`${app.url}/about`);
    await page.keyboard.press("Tab");
    const focused = page.locator(":focus");
    expect(await focused.textContent()).toBe("Skip to content");
    await page.keyboard.press("Enter");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("main");
    await page.close();
  });

  it("folds the menu behind a Menu button on a 360px phone", async () => {
    const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${app.url}/`);
    const toggle = page.getByRole("button", { name: "Menu" });
    const about = mainNav(page).getByRole("link", { name: "About", exact: true });
    expect(await toggle.getAttribute("aria-expanded")).toBe("false");
    expect(await about.isVisible()).toBe(false);
    // Nothing sticks out sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      360,
    );

    await toggle.click();
    expect(await toggle.getAttribute("aria-expanded")).toBe("true");
    expect(await about.isVisible()).toBe(true);

    // Escape folds it again and gives focus back to the button.
    await about.focus();
    await page.keyboard.press("Escape");
    expect(await toggle.getAttribute("aria-expanded")).toBe("false");
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe("Menu");

    // A followed link folds it too.
    await toggle.click();
    await about.click();
    await page.waitForURL(`${app.url}/about`);
    await expect.poll(() => toggle.getAttribute("aria-expanded")).toBe("false");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("keeps the phone menu usable without JavaScript", async () => {
    const context = await browser.newContext({
      viewport: { width: 360, height: 740 },
      javaScriptEnabled: false,
    });
    const page = await context.newPage();
    await page.goto(`${app.url}/`);
    expect(await page.getByRole("button", { name: "Menu" }).isVisible()).toBe(false);
    for (const link of NAV) {
      expect(
        await mainNav(page).getByRole("link", { name: link.name, exact: true }).isVisible(),
      ).toBe(true);
    }
    await context.close();
  });
});
