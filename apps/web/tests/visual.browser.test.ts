/**
 * The visual check: every main screen at five widths, for a visitor, a player with a
 * 20-character name and an admin. Fails on sideways scrolling, a header on more than one line,
 * text clipped by its box, an image that did not load, and serious or critical axe-core
 * findings. Screenshots (390 and 1366 px) go to test-results/visual/, kept by CI.
 */
import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { logIn, type TestAccount, withAccounts } from "./support/accounts";
import { type RunningApp, startApp } from "./support/app";
import { launchBrowser } from "./support/browser";

const WIDTHS = [320, 390, 768, 1366, 1920] as const;
const SCREENSHOT_WIDTHS: readonly number[] = [390, 1366];
/** The header is one line: its bar (padding, 40 px controls) is 56 px; two lines are 100+. */
const ONE_LINE_HEADER = 64;
const SHOTS = fileURLToPath(new URL("../test-results/visual/", import.meta.url));
const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

const PLAYER: TestAccount = {
  // 20 characters, the longest a username may be.
  username: "Longest_Name_Rider20",
  email: "longest@example.com",
  password: "a long enough password",
};
const ADMIN: TestAccount = {
  username: "Dashboard_Admin_0020",
  email: "dashboard@example.com",
  password: "another long password",
  role: "admin",
};

const SCREENS: Record<"visitor" | "player" | "admin", string[]> = {
  visitor: [
    "/",
    "/game/5",
    "/game/6",
    "/view-racers",
    "/players-ranking",
    "/leagues-ranking",
    `/players/${PLAYER.username}`,
    "/racers/1",
    "/competitions/pro-downhill-series-2027",
    "/about",
    "/login",
    "/signup",
  ],
  player: [
    "/homepage",
    "/game/5",
    "/team-setup?game=5",
    "/team-setup?game=5&category=junior-women",
    "/view-racers",
    "/players-ranking",
    "/leagues-ranking",
    `/players/${PLAYER.username}`,
    "/racers/1",
    "/account",
  ],
  admin: [
    "/admin",
    "/admin/competitions",
    "/admin/events",
    "/admin/racers",
    "/admin/results",
    "/admin/users",
    "/admin/partners",
    "/admin/outbox",
    "/admin/audit",
    "/game/5",
  ],
};

let app: RunningApp;
let browser: Browser;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  [app, browser] = await Promise.all([
    startApp({ prepare: withAccounts(PLAYER, ADMIN) }),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

/** What is wrong with the page as laid out now, in words (empty when nothing is). */
function layoutProblems(maxHeader: number): string[] {
  const problems: string[] = [];
  const label = (el: Element) => {
    const cls =
      typeof el.className === "string" && el.className
        ? `.${el.className.trim().split(/\s+/).join(".")}`
        : "";
    const text = (el.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 40);
    return `<${el.tagName.toLowerCase()}${cls}> "${text}"`;
  };
  const shown = (el: Element) => {
    const box = el.getBoundingClientRect();
    if (box.width <= 1 || box.height <= 1) return false;
    const style = getComputedStyle(el);
    return style.visibility !== "hidden" && style.display !== "none";
  };
  // Screen-reader-only text and the honeypot are meant to be out of sight.
  const hiddenOnPurpose = (el: Element) =>
    el.closest(".visually-hidden, .gf-sr-only, .honeypot, [aria-hidden='true']") !== null;

  const doc = document.documentElement;
  if (doc.scrollWidth > doc.clientWidth) {
    // The deepest boxes past the edge, or whose own content sticks out (a long word).
    const wide = [...document.querySelectorAll("body *")]
      .filter((el) => shown(el) && !hiddenOnPurpose(el))
      .filter(
        (el) =>
          el.getBoundingClientRect().right > doc.clientWidth + 0.5 ||
          (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX === "visible"),
      )
      .slice(-3)
      .map(label);
    problems.push(`scrolls sideways (${doc.scrollWidth} > ${doc.clientWidth}): ${wide.join(", ")}`);
  }

  const header = document.querySelector(".site-header");
  if (header && header.getBoundingClientRect().height > maxHeader) {
    problems.push(`header on more than one line (${header.getBoundingClientRect().height} px)`);
  }

  for (const el of document.querySelectorAll("body *")) {
    if (!shown(el) || hiddenOnPurpose(el)) continue;
    const style = getComputedStyle(el);
    const clipsX = style.overflowX === "hidden" || style.overflowX === "clip";
    const clipsY = style.overflowY === "hidden" || style.overflowY === "clip";
    if (!clipsX && !clipsY) continue;
    // An ellipsis is the intended way to shorten (long usernames).
    if (style.textOverflow === "ellipsis") continue;
    if (clipsX && el.scrollWidth > el.clientWidth + 1) {
      problems.push(`text clipped sideways: ${label(el)}`);
    } else if (clipsY && el.scrollHeight > el.clientHeight + 1 && el.textContent?.trim()) {
      problems.push(`text clipped at the bottom: ${label(el)}`);
    }
  }

  // Words broken inside ("Unranke / d"): a word of letters whose box spans two lines.
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  const broken = new Set<string>();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || !shown(parent) || hiddenOnPurpose(parent)) continue;
    if (parent.closest("script, style, noscript, option, textarea")) continue;
    for (const m of (node.textContent ?? "").matchAll(/[\p{L}']{3,}/gu)) {
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      if (lines.size > 1) broken.add(m[0]);
    }
  }
  for (const word of broken) problems.push(`word broken inside: "${word}"`);

  for (const img of document.images) {
    if (img.complete && img.naturalWidth === 0 && shown(img)) {
      problems.push(`image did not load: ${img.getAttribute("src")}`);
    }
  }
  return problems;
}

type Persona = keyof typeof SCREENS;

async function check(context: BrowserContext, persona: Persona): Promise<string[]> {
  const page = await context.newPage();
  const problems: string[] = [];
  try {
    for (const path of SCREENS[persona]) {
      await page.setViewportSize({ width: WIDTHS[0], height: 800 });
      const res = await page.goto(`${app.url}${path}`, { waitUntil: "load" });
      const where = `${persona} ${path}`;
      if (!res || res.status() >= 400) problems.push(`${where}: status ${res?.status()}`);
      // Signed-in screens must not have bounced to the login dialog.
      if (persona !== "visitor" && new URL(page.url()).searchParams.has("login")) {
        problems.push(`${where}: sent to log in`);
      }
      await page
        .waitForFunction(
          () => [...document.images].every((i) => i.complete || i.loading === "lazy"),
          null,
          { timeout: 10_000 },
        )
        .catch(() => problems.push(`${where}: images still loading after 10 s`));
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 800 });
        // One frame for the new width's layout.
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(null))));
        let found = await page.evaluate(layoutProblems, ONE_LINE_HEADER);
        if (found.length > 0) {
          // Late work on a loaded machine (fonts, a hydration re-render): judge the settled page.
          await page.waitForTimeout(500);
          found = await page.evaluate(layoutProblems, ONE_LINE_HEADER);
        }
        for (const p of found) {
          problems.push(`${where} at ${width} px: ${p}`);
        }
        if (SCREENSHOT_WIDTHS.includes(width)) {
          const slug = path.replace(/^\//, "").replace(/[^a-z0-9]+/gi, "-") || "home";
          await page.screenshot({
            path: `${SHOTS}${persona}-${slug}-${width}.png`,
            fullPage: true,
          });
        }
      }
      for (const v of await axeViolations(page)) problems.push(`${where}: axe ${v}`);
    }
  } finally {
    await page.close();
  }
  return problems;
}

/** axe-core from node_modules (never downloaded), serious and critical findings only. */
async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE });
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (o: object) => Promise<AxeResults> } }).axe;
    type AxeResults = {
      violations: {
        id: string;
        impact: string | null;
        help: string;
        nodes: { target: string[] }[];
      }[];
    };
    const results = await axe.run({ resultTypes: ["violations"] });
    return results.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map(
        (v) =>
          `${v.id} (${v.impact}): ${v.help} at ${v.nodes
            .slice(0, 3)
            .map((n) => n.target.join(" "))
            .join(", ")}`,
      );
  });
}

describe("visual check", () => {
  // Axe's script is injected as an inline script: the page's nonce-based policy would block it.
  const newContext = () => browser.newContext({ bypassCSP: true });

  it("catches each defect it looks for (a page made of them)", async () => {
    const context = await newContext();
    const page = await context.newPage();
    await page.setViewportSize({ width: 320, height: 600 });
    await page.setContent(`<!doctype html><html lang="en"><head><title>Defects</title></head><body>
      <header class="site-header" style="height:100px">Header</header>
      <main>
        <div style="width:80px;overflow:hidden;white-space:nowrap">Clipped without an ellipsis</div>
        <div style="width:80px;overflow:hidden;white-space:nowrap;text-overflow:ellipsis">Ellipsis is fine</div>
        <p style="width:60px;overflow-wrap:anywhere">Unranked</p>
        <img src="data:image/png;base64,AAAA" alt="broken" width="20" height="20">
        <img src="data:image/png;base64,AAAA" width="20" height="20">
        <div style="width:400px">Too wide</div>
      </main></body></html>`);
    await page.waitForFunction(() => [...document.images].every((i) => i.complete));
    const found = await page.evaluate(layoutProblems, ONE_LINE_HEADER);
    expect(found).toEqual([
      expect.stringMatching(/^scrolls sideways \(\d+ > 320\): .*"Too wide"$/),
      "header on more than one line (100 px)",
      expect.stringMatching(/^text clipped sideways: <div> "Clipped without an ellipsis"/),
      'word broken inside: "Unranked"',
      "image did not load: data:image/png;base64,AAAA",
      "image did not load: data:image/png;base64,AAAA",
    ]);
    const axe = await axeViolations(page);
    expect(axe).toEqual([expect.stringMatching(/^image-alt \(critical\)/)]);
    await context.close();
  });

  it("every screen fits a visitor at 320 to 1920 px", async () => {
    const context = await newContext();
    expect(await check(context, "visitor")).toEqual([]);
    await context.close();
  });

  it("every screen fits a player with a 20-character name", async () => {
    const context = await newContext();
    const page = await context.newPage();
    await logIn(page, app.url, PLAYER);
    await page.close();
    expect(await check(context, "player")).toEqual([]);
    await context.close();
  });

  it("keeps the header on one line at every width from 320 to 1920 px, for everyone", async () => {
    const problems: string[] = [];
    for (const account of [null, PLAYER, ADMIN]) {
      const context = await newContext();
      const page = await context.newPage();
      if (account) await logIn(page, app.url, account);
      await page.goto(`${app.url}/about`);
      for (let width = 320; width <= 1920; width += 16) {
        await page.setViewportSize({ width, height: 700 });
        const height = await page.evaluate(
          () => document.querySelector(".site-header")?.getBoundingClientRect().height ?? 0,
        );
        if (height > ONE_LINE_HEADER) {
          problems.push(`${account?.username ?? "visitor"} at ${width} px: ${height} px high`);
        }
      }
      await context.close();
    }
    expect(problems).toEqual([]);
  });

  it("team setup on a 320 px phone: tabs that show they scroll, the one opened in sight, Rank kept", async () => {
    const context = await newContext();
    const page = await context.newPage();
    await logIn(page, app.url, PLAYER);
    await page.setViewportSize({ width: 320, height: 700 });
    await page.goto(`${app.url}/team-setup?game=5&category=junior-women`);
    const tabs = page.getByRole("tablist", { name: "Racer category" });
    const selected = tabs.getByRole("tab", { name: "17-18 Women" });
    expect(await selected.getAttribute("aria-selected")).toBe("true");
    // The row is wider than the phone and says so with its scroll shades.
    expect(await tabs.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    expect(await tabs.evaluate((el) => getComputedStyle(el).backgroundImage)).toContain(
      "radial-gradient",
    );
    await expect
      .poll(async () => {
        const [row, tab] = [await tabs.boundingBox(), await selected.boundingBox()];
        return !!row && !!tab && tab.x >= row.x - 1 && tab.x + tab.width <= row.x + row.width + 1;
      })
      .toBe(true);
    const table = page.locator(".team-page .gf-racer-table");
    expect(await table.getByRole("columnheader", { name: /Rank/ }).isVisible()).toBe(true);
    expect(await table.locator("td.gf-col-rank").first().isVisible()).toBe(true);
    await context.close();
  });

  it("every screen fits an admin, dashboard included", async () => {
    const context = await newContext();
    const page = await context.newPage();
    await logIn(page, app.url, ADMIN);
    await page.close();
    expect(await check(context, "admin")).toEqual([]);
    await context.close();
  });
});
