/**
 * Competitions end to end, on the built app with its embedded database: an admin creates a
 * cross-country competition with its own rules on the dashboard (exactly 3 women, no junior
 * needed, a 1,500,000 budget), adds a round, copies racers into it from event 5 (after a
 * preview) and opens it on the Events page; visitors see it on its page and the home page; a
 * player saves a downhill team in event 5 and a cross-country team in the new round, where a
 * team of 4 women is refused with the reason. Then the archive confirmation without JavaScript,
 * and the pages on a 360 px phone.
 */
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { logIn, type TestAccount, withAccounts } from "./support/accounts";
import { type RunningApp, startApp } from "./support/app";
import { launchBrowser, watchErrors } from "./support/browser";

const ADMIN: TestAccount = {
  username: "Cup_Admin",
  email: "cup.admin@example.com",
  password: "a long admin password",
  role: "admin",
};
const PLAYER: TestAccount = {
  username: "Two_Wheels",
  email: "two.wheels@example.com",
  password: "a long player password",
};

let app: RunningApp;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  [app, browser] = await Promise.all([
    startApp({ prepare: withAccounts(ADMIN, PLAYER) }),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => {});
  await browser?.close();
  await app?.stop();
});

async function newPage(opts: { javaScript?: boolean; width?: number } = {}) {
  const context = await browser.newContext({
    viewport: { width: opts.width ?? 1280, height: 900 },
    javaScriptEnabled: opts.javaScript ?? true,
    // The admin enters times in their own zone: Prague is CEST (UTC+2) in May.
    timezoneId: "Europe/Prague",
    locale: "en-GB",
  });
  contexts.push(context);
  const page = await context.newPage();
  return { context, page, errors: watchErrors(page) };
}

/** Whether the page is wider than the window (sideways scrolling). */
const scrollWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

const XC = "XC Cup 2028";
const SLUG = "xc-cup-2028";
const ROUND = "Round 1: Nove Mesto";
/** The new round's event id, read from the dashboard's answer. */
let roundId = 0;
let copied = 0;

describe("an admin runs a cross-country competition", () => {
  let page: Page;
  let errors: string[];
  const panel = () => page.locator(`#competition-${SLUG}`);

  beforeAll(async () => {
    ({ page, errors } = await newPage());
    await logIn(page, app.url, ADMIN);
  });

  it("finds Competitions beside Events in the admin navigation", async () => {
    await page.goto(`${app.url}/admin/events`);
    const nav = page.getByRole("navigation", { name: "Admin sections" });
    const labels = await nav.getByRole("link").allTextContents();
    expect(labels.indexOf("Events") - labels.indexOf("Competitions")).toBe(1);
    await nav.getByRole("link", { name: "Competitions" }).click();
    await page.waitForURL(`${app.url}/admin/competitions`);
    await page.getByRole("heading", { name: "Create a competition" }).waitFor();
    const list = page.getByRole("region", { name: "Competition table" });
    expect(await list.getByRole("row").count()).toBe(5);
    expect(await list.getByRole("row", { name: /Pro Downhill Series 2027/ }).textContent()).toMatch(
      /pro-downhill-series-2027.*Downhill.*2027.*Live.*5/,
    );
  });

  it("creates the competition with its rules; a wrong field says why and takes the focus", async () => {
    const form = page.getByRole("form", { name: "Create a competition" });
    await form.getByLabel("Name").fill(XC);
    await form.getByLabel("Discipline").selectOption({ label: "Cross-country" });
    await form.getByLabel("Year or season").fill("2028");
    await form.getByLabel("Description").fill("Six riders, exactly three women, a bigger budget.");
    await form.getByLabel("Team size (riders)").fill("6");
    await form.getByLabel("Budget ($)").fill("1,500,000");
    await form.getByLabel("Minimum women").fill("3");
    await form.getByLabel("Maximum women").fill("2");
    await form.getByLabel("Minimum juniors").fill("0");
    await form.getByLabel("Maximum juniors").fill("");
    await form.getByLabel("Lock (hours before a round)").fill("12");
    // Captains (decision 0168): each team names one rider whose points count double.
    await form.getByLabel("Captain: a team's captain scores double points").check();
    // A bench (decision 0169): one more rider who scores for a starter who does not start.
    await form
      .getByLabel(
        "Bench: a team may add one rider on the bench who scores for a starter who does not start",
      )
      .check();
    // Limited transfers (decision 0170), FPL's 1 free, 5 kept, 4 points each, and a wildcard.
    await form.getByLabel("Limited transfers").check();
    await form
      .getByLabel("Wildcard: once per competition, one round's transfers are all free")
      .check();
    await form.getByRole("button", { name: "Create competition" }).click();

    const maxWomen = form.getByLabel("Maximum women");
    await expect.poll(() => maxWomen.getAttribute("aria-invalid")).toBe("true");
    expect(await form.getByText("The maximum of women (2) is below the minimum (3).").count()).toBe(
      1,
    );
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute("name")))
      .toBe("maxWomen");
    // What was typed is still there.
    expect(await form.getByLabel("Name").inputValue()).toBe(XC);

    await maxWomen.fill("3");
    await form.getByRole("button", { name: "Create competition" }).click();
    await page.getByText(`Created ${XC} (${SLUG}). Add its first round below.`).waitFor();
    await panel()
      .getByRole("heading", { name: new RegExp(`^${XC}`) })
      .waitFor();
    const rules = await panel().locator(".admin-rules").textContent();
    expect(rules).toContain("Pick exactly 6 riders within a $1,500,000 budget.");
    expect(rules).toContain("Your team has exactly 3 female riders (Pro Women or 17-18 Women).");
    expect(rules).not.toContain("junior");
    expect(rules).toContain("Name one rider of your team captain: their points count double.");
    expect(rules).toContain("You may add one more rider on the bench");
    expect(rules).toContain("From round 2, your team has 1 free change a round");
    expect(rules).toContain("Once per competition you can play your wildcard");
  });

  it("adds a round at a time in the admin's own zone", async () => {
    const form = panel().getByRole("form", { name: `Add a round to ${XC}` });
    // The page has said which zone its times are in (after hydration).
    await form.getByLabel("Starts (Europe/Prague)").waitFor();
    await form.getByLabel("Round name").fill(ROUND);
    await form.getByLabel("Starts (Europe/Prague)").fill("2028-05-14T12:00");
    await form.getByLabel("Location").fill("Nove Mesto na Morave, Czechia");
    await form.getByRole("button", { name: "Add round" }).click();
    const done = form.getByText(/^Added Round 1: Nove Mesto \(event \d+, round 1\)/);
    await done.waitFor();
    const text = (await done.textContent()) ?? "";
    expect(text).toContain("starting Sunday 14 May 2028, 12:00 CEST");
    roundId = Number(/event (\d+)/.exec(text)?.[1]);
    expect(roundId).toBeGreaterThan(12);
    const rounds = panel().getByRole("region", { name: `Rounds of ${XC}` });
    await rounds.getByRole("row", { name: new RegExp(ROUND) }).waitFor();
    // The round form is empty again for the next one.
    expect(await form.getByLabel("Round name").inputValue()).toBe("");
  });

  it("copies racers from event 5 after a preview that writes nothing", async () => {
    const form = panel().getByRole("form", { name: `Copy racers into a round of ${XC}` });
    expect(await form.getByLabel("Into round").inputValue()).toBe(String(roundId));
    await form.getByLabel("Copy racers from").selectOption("5");
    await form.getByRole("button", { name: "Preview copy" }).click();
    const preview = panel().getByText(/would enter \d+ racers/);
    await preview.waitFor();
    copied = Number(/would enter (\d+) racers/.exec((await preview.textContent()) ?? "")?.[1]);
    expect(copied).toBeGreaterThan(20);
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent))
      .toBe("Preview (nothing written yet)");
    // Nothing written yet: the round has no racers in the public API.
    const before = await page.request.get(`${app.url}/api/v1/events/${roundId}/racers`);
    expect((await before.json()).data).toEqual([]);

    await panel()
      .getByRole("button", { name: `Yes, copy ${copied} racers` })
      .click();
    await panel()
      .getByText(
        `Copied ${copied} racers from Pro Downhill Series Round 1: Windrock into ${ROUND}.`,
      )
      .waitFor();
    const after = await page.request.get(`${app.url}/api/v1/events/${roundId}/racers`);
    expect((await after.json()).data).toHaveLength(copied);
  });

  it("opens the round on the Events page, linked from the round", async () => {
    await panel()
      .getByRole("link", { name: `Schedule, open or close ${ROUND}` })
      .click();
    await page.waitForURL(`${app.url}/admin/events#event-${roundId}`);
    const row = page.getByRole("form", { name: new RegExp(`^${roundId}\\. ${ROUND}`) });
    expect(await row.textContent()).toContain(`${XC}, round 1.`);
    await row.getByLabel("Status").selectOption("open");
    await row.getByRole("button", { name: "Save" }).click();
    await row.getByText(new RegExp(`^Saved ${ROUND}: open`)).waitFor();
    // The one 400: the refused rules of the first try at creating the competition.
    expect(errors).toEqual([
      "Failed to load resource: the server responded with a status of 400 (Bad Request)",
    ]);
  });
});

describe("visitors", () => {
  it("see the competition's page: its rounds and its rules in words", async () => {
    const { page, errors } = await newPage();
    const res = await page.goto(`${app.url}/competitions/${SLUG}`);
    expect(res?.status()).toBe(200);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(XC);
    expect(await page.locator(".backdrop-subtitle").textContent()).toBe("Cross-country, 2028 Live");
    const rules = page.getByRole("region", { name: "Rules" });
    expect(await rules.textContent()).toContain(
      "Your team has exactly 3 female riders (Pro Women or 17-18 Women).",
    );
    expect(await rules.textContent()).toContain("within a $1,500,000 budget");
    expect(await rules.textContent()).toContain("captain: their points count double");
    const rounds = page.getByRole("region", { name: "Rounds" });
    const link = rounds.getByRole("link", { name: ROUND });
    expect(await link.getAttribute("href")).toBe(`/game/${roundId}`);
    // The server writes UTC to a first-time visitor; the page moves to their zone once its
    // scripts run (later on a busy machine), so wait for it.
    await expect
      .poll(() => rounds.textContent(), { timeout: 15_000 })
      .toContain("Starts Sunday 14 May 2028, 12:00 CEST");

    // An unknown competition is the home screen with a 404, as any unknown page.
    const missing = await page.goto(`${app.url}/competitions/no-such-cup`);
    expect(missing?.status()).toBe(404);
    await page.getByText("We could not find that page.").waitFor();
    expect(errors.filter((e) => !e.includes("404"))).toEqual([]);
  });

  it("see it on the home page with its next round, and the seeded events still listed", async () => {
    const { page, errors } = await newPage();
    await page.goto(app.url);
    const current = page.getByRole("list", { name: "Live and upcoming competitions" });
    const card = current.getByRole("listitem").filter({ hasText: XC });
    await card.waitFor();
    expect(await card.getByRole("link", { name: XC }).getAttribute("href")).toBe(
      `/competitions/${SLUG}`,
    );
    expect(await card.getByRole("link", { name: ROUND }).getAttribute("href")).toBe(
      `/game/${roundId}`,
    );
    expect(await card.textContent()).toMatch(/Teams lock in (about \d+ months|\d+ days)\./);
    const finished = page.getByRole("list", { name: "Finished" });
    expect(await finished.getByRole("link", { name: "Freeride 2024" }).getAttribute("href")).toBe(
      "/competitions/freeride-2024",
    );
    await expect
      .poll(() => page.getByRole("list", { name: "Events" }).getByRole("listitem").count())
      .toBe(13);
    // The footer leads to the competitions, and promises nothing "coming soon".
    const footer = page.getByRole("contentinfo");
    expect(await footer.getByRole("link", { name: "All competitions" }).getAttribute("href")).toBe(
      "/#competitions",
    );
    expect(await footer.getByText(/coming soon/i).count()).toBe(0);
    expect(errors).toEqual([]);
  });
});

describe("a player", () => {
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    ({ page, errors } = await newPage());
    await logIn(page, app.url, PLAYER);
  });

  interface ApiRacer {
    id: number;
    category: string;
    price: number;
  }

  /** The cheapest racers of each category asked for, from the public API. */
  async function cheapest(eventId: number, wanted: [string, number][]): Promise<number[]> {
    const res = await page.request.get(`${app.url}/api/v1/events/${eventId}/racers`);
    const racers = ((await res.json()) as { data: ApiRacer[] }).data;
    return wanted.flatMap(([category, n]) =>
      racers
        .filter((r) => r.category === category)
        .sort((a, b) => a.price - b.price || a.id - b.id)
        .slice(0, n)
        .map((r) => r.id),
    );
  }

  const saveButton = () => page.locator(".team-builder__save");
  const outcome = () => page.locator(".team-builder__result[role=alert]");

  /** Opens the team builder of `eventId` with `racerIds` as the draft. */
  async function draft(eventId: number, racerIds: number[]): Promise<Locator> {
    const query = racerIds.map((id) => `racer=${id}`).join("&");
    await page.goto(`${app.url}/team-setup?game=${eventId}&draft=1&${query}`);
    await expect
      .poll(() => page.locator(".gf-slot:not(.gf-slot--empty)").count())
      .toBe(racerIds.length);
    return saveButton();
  }

  it("saves a downhill team in event 5", async () => {
    const team = await cheapest(5, [
      ["Pro Women", 2],
      ["17-18 Men", 1],
      ["Pro Men", 3],
    ]);
    const save = await draft(5, team);
    await save.click();
    await expect.poll(() => outcome().textContent()).toBe("Team saved successfully!");
  });

  it("is refused an XC team of 4 women, with the reason", async () => {
    const team = await cheapest(roundId, [
      ["Pro Women", 4],
      ["17-18 Men", 1],
      ["Pro Men", 1],
    ]);
    const save = await draft(roundId, team);
    // The builder judges by the XC cup's rules: its checklist says what is wrong and the save
    // stays off ("Exactly 3 female riders (not met)"); the server would refuse it the same way.
    expect(await save.isEnabled()).toBe(false);
    await expect
      .poll(() => page.getByRole("main").textContent(), { timeout: 15_000 })
      .toMatch(/Exactly 3 female riders \(not met\)/);
    expect(
      await outcome()
        .textContent()
        .catch(() => ""),
    ).not.toContain("Team saved successfully!");
  });

  it("saves an XC team of exactly 3 women in the new round, with a captain and a bench rider", async () => {
    const team = await cheapest(roundId, [
      ["Pro Women", 3],
      ["17-18 Men", 1],
      ["Pro Men", 3],
    ]);
    const save = await draft(roundId, team);
    // The seventh rider sits on the bench; "Bench" beside a starter would swap them.
    const slots = page.locator(".gf-slot:not(.gf-slot--empty)");
    expect(await slots.nth(6).textContent()).toContain("Bench ·");
    expect(await page.locator(".team-builder__team button.bench-toggle").count()).toBe(6);
    // The XC cup has captains: the builder says so, and the C beside a rider names them.
    const hint = page.locator(".team-builder__captain-hint");
    expect(await hint.textContent()).toContain("Press C beside a rider to name them.");
    // The captain is a starter: no C beside the bench rider.
    const captainButtons = page.locator(".team-builder__team button.captain-toggle");
    expect(await captainButtons.count()).toBe(6);
    await captainButtons.nth(3).click();
    expect(await captainButtons.nth(3).getAttribute("aria-pressed")).toBe("true");
    expect(await hint.textContent()).toContain("is your captain: their points count double.");
    // Round 1 of the cup: the team's first round, its picks free (decision 0170).
    expect(await page.locator(".team-transfers__line").textContent()).toBe(
      "Your first round: your picks are free.",
    );
    await save.click();
    await expect.poll(() => outcome().textContent()).toBe("Team saved successfully!");
    // The captain is saved: the builder shows it again, and so does the event home.
    await page.goto(`${app.url}/team-setup?game=${roundId}`);
    await expect
      .poll(() => page.locator("button.captain-toggle[aria-pressed=true]").count())
      .toBe(1);
    await page.goto(`${app.url}/game/${roundId}`);
    expect(await page.locator(".gf-slot .captain-mark").count()).toBe(1);
    expect(await page.locator(".gf-slot .captain-mark").textContent()).toContain("Captain");
    await page.goto(`${app.url}/team-setup?game=5`);
    expect(await page.locator("button.captain-toggle").count()).toBe(0);
    // Both teams are there: event 5's and the new round's.
    for (const id of [5, roundId]) {
      await page.goto(`${app.url}/game/${id}`);
      expect(await page.getByRole("link", { name: "Edit Your Team" }).count(), `event ${id}`).toBe(
        1,
      );
    }
    // 422: the refused save above.
    expect(errors.filter((e) => !e.includes("422"))).toEqual([]);
  });
});

describe("without JavaScript, on a phone", () => {
  it("asks before archiving, then shows the refusal while a round is open", async () => {
    const { page } = await newPage({ javaScript: false, width: 360 });
    await logIn(page, app.url, ADMIN);
    await page.goto(`${app.url}/admin/competitions`);
    const panel = page.locator(`#competition-${SLUG}`);
    await panel.getByRole("button", { name: `Archive ${XC}...` }).click();
    await panel.getByRole("heading", { name: `Archive ${XC}?` }).waitFor();
    await panel.getByRole("button", { name: `Yes, archive ${XC}` }).click();
    const refusal = panel.locator(".form-error");
    await refusal.waitFor();
    expect(await refusal.textContent()).toMatch(
      new RegExp(`^${ROUND} \\(event ${roundId}\\) is still open: close it first`),
    );
    expect(await scrollWidth(page)).toBeLessThanOrEqual(360);

    // A rules change after nothing locked yet works without JavaScript too.
    await panel.getByText("Change the rules").click();
    const rules = panel.getByRole("form", { name: `Rules of ${XC}` });
    await rules.getByLabel("Lock (hours before a round)").fill("24");
    await rules.getByRole("button", { name: "Save rules" }).click();
    await panel.getByText(`Saved the rules of ${XC}.`).waitFor();
    expect(await panel.locator(".admin-rules").textContent()).toContain(
      "Teams lock 24 hours before each round starts.",
    );
  });

  it("fits the competition pages on a 360 px phone", async () => {
    const { page, errors } = await newPage({ width: 360 });
    for (const path of [`/competitions/${SLUG}`, "/competitions/pro-downhill-series-2027", "/"]) {
      await page.goto(`${app.url}${path}`);
      expect(await scrollWidth(page), path).toBeLessThanOrEqual(360);
    }
    await logIn(page, app.url, ADMIN);
    await page.goto(`${app.url}/admin/competitions`);
    expect(await scrollWidth(page)).toBeLessThanOrEqual(360);
    expect(errors).toEqual([]);
  });
});
