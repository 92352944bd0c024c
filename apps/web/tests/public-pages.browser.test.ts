import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningApp, startApp } from "./support/app";
import { launchBrowser, watchErrors } from "./support/browser";

let app: RunningApp;
let browser: Browser;
let page: Page;
let errors: string[];

beforeAll(async () => {
  [app, browser] = await Promise.all([startApp(), launchBrowser()]);
  page = await browser.newPage();
  errors = watchErrors(page);
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

/** The current game's frame: its cover behind the page, its logo on top. */
async function expectGameBackdrop(p: Page) {
  const main = p.getByRole("main");
  expect(await main.getAttribute("data-game")).toBe("5");
  expect(await main.evaluate((el) => getComputedStyle(el).backgroundImage)).toContain(
    "/img/events/cover-5.svg",
  );
  const logo = main.getByRole("img", { name: "Pro Downhill Series Round 1: Windrock logo" });
  expect(await logo.getAttribute("src")).toBe("/img/events/logo-5.svg");
  expect(await logo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
}

describe("about", () => {
  it("explains the game, the rules, the scoring table, the budget, the lock time and the FAQ", async () => {
    expect((await page.goto(`${app.url}/about`))?.status()).toBe(200);
    await expectGameBackdrop(page);
    for (const heading of [
      "How it works",
      "Team rules",
      "Scoring",
      "Budget and bank",
      "Prices between rounds",
      "Lock time",
      "Mini leagues",
      "FAQ",
    ]) {
      expect(await page.getByRole("heading", { level: 2, name: heading }).count(), heading).toBe(1);
    }
    const rows = await page
      .locator("section#scoring")
      .getByRole("table")
      .getByRole("row")
      .evaluateAll((trs) =>
        trs.slice(1).map((tr) => [...tr.children].map((c) => c.textContent?.trim())),
      );
    expect(rows.map((r) => r[1])).toEqual(["100", "80", "65", "50", "10", "0"]);
    expect(rows[3]![0]).toBe("4th to 10th place");
    const text = (await page.getByRole("main").textContent()) ?? "";
    expect(text).toContain("Exactly 6 racers");
    expect(text).toContain("At least 2 women");
    expect(text).toContain("At least 1 junior");
    expect(text).toContain("$1,000,000 budget");
    expect(text).toContain("Teams lock 12 hours before the event starts");
    // The open event's own lock moment: 12 hours before 18 April 2027, 16:00 UTC, in the
    // browser's zone (this test's is whatever the machine's is).
    expect(text).toMatch(/teams lock on (Saturday|Sunday) 1[78] April 2027, \d\d:\d\d \S+\./);

    const faq = page.locator("details").first();
    expect(await faq.locator("p").isVisible()).toBe(false);
    await faq.locator("summary").click();
    expect(await faq.locator("p").isVisible()).toBe(true);

    // The open-source licences the minified code no longer carries (decision 0180).
    const licences = await page.getByRole("link", { name: "its licences" }).getAttribute("href");
    const served = await page.request.get(`${app.url}${licences}`);
    expect(served.status()).toBe(200);
    expect(served.headers()["content-type"]).toContain("text/plain");
    expect(await served.text()).toContain("Name: react-dom");
  });

  it("writes the lock in English, in a French reader's Paris time, the zone named", async () => {
    const context = await browser.newContext({ locale: "fr-FR", timezoneId: "Europe/Paris" });
    const paris = await context.newPage();
    const parisErrors = watchErrors(paris);
    const line = "teams lock on Sunday 18 April 2027, 06:00 CEST.";
    // First visit: the server does not know the zone yet (UTC, named); the browser then does.
    const first = await paris.goto(`${app.url}/about`);
    expect(await first?.text()).toContain("Sunday 18 April 2027, 04:00 UTC");
    const callout = paris.locator("#lock .callout");
    await expect.poll(() => callout.textContent()).toContain(line);
    expect((await context.cookies()).find((c) => c.name === "gf_tz")?.value).toBe("Europe%2FParis");
    // From then on the server writes the page in the reader's zone, and hydration agrees.
    const again = await paris.reload();
    expect(await again?.text()).toContain("Sunday 18 April 2027, 06:00 CEST");
    expect(await callout.textContent()).toContain(line);
    expect(await paris.locator("body").textContent()).not.toMatch(/dimanche|avril/);
    expect(parisErrors).toEqual([]);
    await context.close();
  });

  it("has a table of contents linking to each of its sections", async () => {
    expect((await page.goto(`${app.url}/about`))?.status()).toBe(200);
    const toc = page.getByRole("navigation", { name: "Contents" }).getByRole("link");
    const links = await toc.evaluateAll((as) =>
      as.map((a) => ({ text: a.textContent ?? "", href: a.getAttribute("href") ?? "" })),
    );
    expect(links.map((l) => l.text)).toEqual([
      "How it works",
      "Team rules",
      "Scoring",
      "Budget and bank",
      "Prices between rounds",
      "Lock time",
      "Mini leagues",
      "FAQ",
      "Competitions",
    ]);
    // Every entry names a section of the page by its heading.
    for (const { text, href } of links) {
      expect(href, text).toMatch(/^#[a-z-]+$/);
      const section = page.locator(`section${href}`);
      expect(await section.getByRole("heading", { level: 2 }).textContent(), href).toBe(text);
    }
    // Following one jumps there; the footer's /about#competitions keeps working.
    await toc.filter({ hasText: "Scoring" }).click();
    expect(new URL(page.url()).hash).toBe("#scoring");
    expect(await page.locator(":target h2").textContent()).toBe("Scoring");
    expect(links.at(-1)?.href).toBe("#competitions");
  });
});

describe("legal pages", () => {
  async function expectLegal(path: string, title: string, sections: number) {
    expect((await page.goto(`${app.url}${path}`))?.status()).toBe(200);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(title);
    expect(await page.getByText("Last updated 01/01/25").count()).toBe(1);
    const toc = page.getByRole("navigation", { name: "Contents" }).getByRole("link");
    expect(await toc.count()).toBe(sections);
    const headings = await page
      .locator("section.legal-section h2")
      .evaluateAll((hs) => hs.map((h) => h.textContent ?? ""));
    expect(headings).toHaveLength(sections);
    headings.forEach((h, i) => {
      expect(h.startsWith(`${i + 1}. `)).toBe(true);
    });
    // The table of contents jumps to its section.
    await toc.nth(sections - 1).click();
    expect(new URL(page.url()).hash).not.toBe("");
    expect(await page.locator(":target h2").textContent()).toBe(headings[sections - 1]);
    return (await page.getByRole("main").textContent()) ?? "";
  }

  it("has Terms of Service in 15 sections", async () => {
    const text = await expectLegal("/tos", "Terms of Service", 15);
    expect(text).toMatch(/free/i);
    expect(text).toContain("at least 13 years old");
  });

  it("has a Privacy Policy in 12 sections stating the minimum age of 13 and the contact", async () => {
    const text = await expectLegal("/privacypolicy", "Privacy Policy", 12);
    expect(text).toContain("The minimum age to use Gravity Fantasy is 13");
    expect(text).toContain("hello@gravityfantasy.example");
  });
});

describe("view racers", () => {
  const rows = (p: Page) =>
    p
      .getByRole("tabpanel")
      .locator("tbody tr")
      .evaluateAll((trs) =>
        trs.map((tr) => ({
          portrait:
            tr.querySelector("img")?.getAttribute("src") ??
            tr.querySelector("svg[data-avatar]")?.getAttribute("data-avatar") ??
            null,
          rank: tr.querySelector(".gf-col-rank")?.textContent ?? "",
          name: tr.querySelector("th")?.textContent ?? "",
          price: tr.querySelector(".gf-num")?.textContent ?? "",
        })),
      );

  it("shows Pro Men by default, by rank2024 ascending with unranked last, prices as $75,000", async () => {
    expect((await page.goto(`${app.url}/view-racers`))?.status()).toBe(200);
    await expectGameBackdrop(page);
    const tabs = page.getByRole("tablist", { name: "Racer category" }).getByRole("tab");
    expect(await tabs.allTextContents()).toEqual([
      "Pro Men",
      "Pro Women",
      "17-18 Men",
      "17-18 Women",
    ]);
    expect(await tabs.first().getAttribute("aria-selected")).toBe("true");

    const list = await rows(page);
    expect(list.length).toBeGreaterThan(10);
    expect(list[0]).toMatchObject({ rank: "#1", name: "Loïc Bruni", price: "$320,000" });
    const ranks = list.map((r) => (r.rank.startsWith("#") ? Number(r.rank.slice(1)) : 0));
    const ranked = ranks.filter((r) => r > 0);
    expect(ranked).toEqual([...ranked].sort((a, b) => a - b));
    expect(ranks.slice(ranked.length).every((r) => r === 0)).toBe(true);
    expect(ranked.length).toBeLessThan(ranks.length);
    for (const r of list) expect(r.price).toMatch(/^\$\d{1,3}(,\d{3})+$/);
    // No portraits in the seed: every row shows the racer's generated avatar (initials), visible.
    expect(list[0]!.portrait).toBe("LB");
    for (const r of list) expect(r.portrait).toMatch(/^\p{Lu}{1,2}$/u);
    const box = await page.locator("tbody svg[data-avatar]").first().boundingBox();
    expect(box!.width).toBeGreaterThan(20);
  });

  it("switches category by tab, with the tab in the URL, saying 'Loading game data...' meanwhile", async () => {
    await page.goto(`${app.url}/view-racers`);
    // Slow the data down so the loading state can be seen.
    await page.route("**/view-racers.data*", async (route) => {
      await new Promise((r) => setTimeout(r, 800));
      await route.continue();
    });
    await page.getByRole("tab", { name: "17-18 Men" }).click();
    await page.getByRole("status").filter({ hasText: "Loading game data..." }).waitFor();
    await page.waitForURL(`${app.url}/view-racers?category=junior-men`);
    await page.getByRole("caption").filter({ hasText: "17-18 Men racers" }).waitFor();
    await page.unroute("**/view-racers.data*");
    expect(await page.getByRole("tab", { name: "17-18 Men" }).getAttribute("aria-selected")).toBe(
      "true",
    );
    const list = await rows(page);
    expect(list.some((r) => r.price === "$75,000")).toBe(true);
    expect(await page.getByText("Loading game data...").count()).toBe(0);

    // The shared link opens the same tab.
    const fresh = await browser.newPage();
    await fresh.goto(`${app.url}/view-racers?category=pro-women`);
    expect(await fresh.getByRole("tab", { name: "Pro Women" }).getAttribute("aria-selected")).toBe(
      "true",
    );
    expect((await rows(fresh))[0]!.rank).toBe("#1");
    await fresh.close();
  });

  it("works without JavaScript: the tabs are links", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const p = await context.newPage();
    await p.goto(`${app.url}/view-racers`);
    await p.getByRole("tab", { name: "Pro Women" }).click();
    await p.waitForURL(`${app.url}/view-racers?category=pro-women`);
    await expect.poll(() => p.getByText("Pro Women racers").count()).toBe(1);
    await context.close();
  });

  it("left the pages free of console errors", () => {
    expect(errors).toEqual([]);
  });
});
