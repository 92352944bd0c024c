/**
 * Partner embeds end to end: the built app, a partner site on a second origin (registered with
 * the real `game-admin partners add` before the app starts) and an unlisted site on a third.
 * Readers of the partner see every widget with real data, unharmed by hostile CSS, and can sign
 * in through the popup and save a team from the partner's page; the unlisted site gets nothing.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { formatDate, LOCK_MS } from "@game/core";
import {
  CLI_ACTOR,
  createAccount,
  createDb,
  createLeague,
  type Db,
  importRacers,
  importResults,
  joinByCode,
  listTeamRacers,
  saveTeam,
  scheduleEvent,
  seed,
  seedFolder,
  setEventStatus,
  type TeamRacerView,
} from "@game/db";
import { build } from "esbuild";
import type { Browser, Frame, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPartnerSite } from "../../partner-demo/server.mjs";
import { hashPassword } from "../app/utils/password.server";
import { logIn } from "./support/accounts";
import { type RunningApp, startApp } from "./support/app";
import { launchBrowser, watchErrors } from "./support/browser";

type Site = { url: string; settings: { app: string; key: string }; close(): Promise<void> };

const repo = fileURLToPath(new URL("../../..", import.meta.url));
const cliBin = path.join(repo, "cli/bin/game-admin.js");
const shots = path.join(repo, "apps/web/test-results");
/** The past race whose teams, results and rankings the widgets show. */
const RACE = 7;
const READER = {
  email: "reader@trailtalk.example",
  username: "trail_reader",
  password: "Berm-Slayer-2027",
};

/** Reads the partner's stats on the dashboard. */
const ADMIN = {
  email: "admin@gravity.example",
  username: "race_control",
  password: "Pit-Board-Lap-2027",
};

let app: RunningApp;
let browser: Browser;
let partner: Site;
let unlisted: Site;
let partnerKey = "";
// What the reader's test really did: CI retries a failed browser test, and a retried attempt signs
// in (and may save) again, so the partner's stats are checked against these, not against 1.
const done = { signIns: 0, teamSaves: 0 };

/** Runs the admin command line on the app's data folder (before the app starts). */
function cli(dataDir: string, ...args: string[]): string {
  if (!existsSync(path.join(repo, "cli/dist/index.js"))) {
    execFileSync("npx", ["tsup"], { cwd: path.join(repo, "cli"), stdio: "ignore" });
  }
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  return execFileSync(process.execPath, [cliBin, ...args], { env, encoding: "utf8" });
}

/** A valid team (2 Pro Women, 1 junior man, 3 Pro Men), varied by `offset`. */
function team(pool: TeamRacerView[], offset: number): number[] {
  const cheapest = (category: string, n: number) =>
    pool
      .filter((r) => r.category === category)
      .sort((a, b) => a.price - b.price || a.id - b.id)
      .slice(offset, offset + n)
      .map((r) => r.id);
  return [...cheapest("Pro Women", 2), ...cheapest("17-18 Men", 1), ...cheapest("Pro Men", 3)];
}

/**
 * Round 3 becomes a race that ran an hour ago: racers imported, three players' teams saved
 * while it was open, results imported (which freezes and settles). Round 1 stays open for the
 * reader. Then the reader's account.
 */
async function fixtures(db: Db) {
  const now = Date.now();
  await seed(db);
  const csv = readFileSync(path.join(seedFolder, "racers.csv"), "utf8");
  await importRacers(db, { csv, gameId: RACE, actor: CLI_ACTOR });
  await setEventStatus(db, RACE, "open", CLI_ACTOR);
  const start = new Date(now - 60 * 60 * 1000);
  await scheduleEvent(db, RACE, start, CLI_ACTOR);
  const whileOpen = new Date(start.getTime() - LOCK_MS - 86_400_000);
  const pool = await listTeamRacers(db, RACE);
  const players = [];
  for (const [i, username] of ["trailboss", "rootsrider", "berm_queen"].entries()) {
    const user = await createAccount(db, {
      email: `${username}@players.example`,
      username,
      passwordHash: "unusable",
      emailConfirmed: true,
    });
    const saved = await saveTeam(db, {
      userId: user.id,
      eventId: RACE,
      racerIds: team(pool, i * 3),
      now: whileOpen,
    });
    if (!saved.ok) throw new Error(`fixture team refused: ${saved.reason}`);
    players.push(user);
  }
  const crew = await createLeague(db, players[0]!, "Trail Talk Crew");
  if (!crew.ok) throw new Error("fixture league refused");
  // Two members: the league ranking lists no league of one (decision 0151).
  const joined = await joinByCode(db, players[1]!, crew.league.joinCode);
  if (!joined.ok) throw new Error("fixture join refused");
  // Results: every racer finishes, in 2024 rank order within each category.
  const lines = ["Position,First Name,Last Name,Category"];
  const place = new Map<string, number>();
  for (const r of [...pool].sort(
    (a, b) => (a.rank2024 || 999) - (b.rank2024 || 999) || a.id - b.id,
  )) {
    const n = (place.get(r.category) ?? 0) + 1;
    place.set(r.category, n);
    lines.push(`${n},"${r.firstName}","${r.lastName}",${r.category}`);
  }
  const imported = await importResults(db, RACE, lines.join("\n"), { now: new Date(now) });
  if (!imported.ok) throw new Error(`fixture results refused: ${JSON.stringify(imported.issues)}`);
  await setEventStatus(db, RACE, "closed", CLI_ACTOR);
  await createAccount(db, { ...READER, passwordHash: await hashPassword(READER.password) });
  await createAccount(db, {
    ...ADMIN,
    role: "admin",
    passwordHash: await hashPassword(ADMIN.password),
  });
}

beforeAll(async () => {
  [partner, unlisted] = await Promise.all([startPartnerSite(), startPartnerSite()]);
  [app, browser] = await Promise.all([
    startApp({
      prepare: async (dataDir) => {
        const out = cli(dataDir, "partners", "add", "Trail Talk", partner.url);
        partnerKey = /Publishable key: (pk_\S+)/.exec(out)?.[1] ?? "";
        const h = await createDb({ dataDir, url: "" });
        try {
          await fixtures(h.db);
        } finally {
          await h.close();
        }
      },
    }),
    launchBrowser(),
  ]);
  for (const site of [partner, unlisted]) {
    site.settings.app = app.url;
    site.settings.key = partnerKey;
  }
  mkdirSync(shots, { recursive: true });
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
  await partner?.close();
  await unlisted?.close();
});

async function api<T>(pathname: string): Promise<T> {
  const res = await fetch(`${app.url}/api/v1${pathname}`);
  expect(res.status, pathname).toBe(200);
  return (await res.json()) as T;
}

type Named = { firstName: string; lastName: string };
const fullName = (r: Named) => `${r.firstName} ${r.lastName}`;

/**
 * A PNG of one widget at a fixed width (the host element is pinned so page layout around it does
 * not matter), once its portraits have loaded.
 */
async function widgetShot(page: Page, host: string): Promise<Buffer> {
  const el = page.locator(host).first();
  await el.evaluate((node: HTMLElement) => {
    const pin: [string, string][] = [
      ["display", "block"],
      ["width", "640px"],
      ["margin", "0"],
      ["padding", "0"],
    ];
    for (const [k, v] of pin) node.style.setProperty(k, v, "important");
  });
  await el.evaluate((node) =>
    Promise.all(
      [...node.shadowRoot!.querySelectorAll("img")].map((img) =>
        img.complete
          ? null
          : new Promise((done) => img.addEventListener("load", done, { once: true })),
      ),
    ),
  );
  return el.screenshot({ animations: "disabled", caret: "hide" });
}

/**
 * Share of pixels that differ noticeably between two same-sized PNGs (drawn in the browser).
 * `shift`: also try them a pixel apart vertically and keep the best (two pages whose layouts
 * round a widget's position differently).
 */
async function pixelDifference(page: Page, a: Buffer, b: Buffer, shift = false): Promise<number> {
  return page.evaluate(
    async ([one, two, shifted]: string[]) => {
      const load = async (b64: string) => {
        const img = new Image();
        img.src = `data:image/png;base64,${b64}`;
        await img.decode();
        const canvas = document.createElement("canvas");
        canvas.width = img.width;
        canvas.height = img.height;
        const ctx = canvas.getContext("2d")!;
        ctx.drawImage(img, 0, 0);
        return ctx.getImageData(0, 0, img.width, img.height);
      };
      const [x, y] = await Promise.all([load(one!), load(two!)]);
      // A fractional page offset can round the box a pixel taller: compare the shared area.
      if (x.width !== y.width || Math.abs(x.height - y.height) > 1) return 1;
      const share = (dy: number) => {
        const height = Math.min(x.height, y.height) - Math.abs(dy);
        let differ = 0;
        for (let row = 0; row < height; row++) {
          const xi = (row + Math.max(0, dy)) * x.width * 4;
          const yi = (row + Math.max(0, -dy)) * y.width * 4;
          for (let i = 0; i < x.width * 4; i += 4) {
            const d = Math.max(
              Math.abs(x.data[xi + i]! - y.data[yi + i]!),
              Math.abs(x.data[xi + i + 1]! - y.data[yi + i + 1]!),
              Math.abs(x.data[xi + i + 2]! - y.data[yi + i + 2]!),
            );
            if (d > 48) differ++;
          }
        }
        return differ / (x.width * height);
      };
      return shifted ? Math.min(share(-1), share(0), share(1)) : share(0);
    },
    [a.toString("base64"), b.toString("base64"), shift ? "yes" : ""],
  );
}

/** Computed styles of elements inside a widget's shadow root. */
function shadowStyles(page: Page, host: string) {
  return page
    .locator(host)
    .first()
    .evaluate((el) => {
      const root = el.shadowRoot!;
      const pick = (selector: string, props: string[]) => {
        const node = root.querySelector(selector);
        if (!node) return null;
        const style = getComputedStyle(node);
        return Object.fromEntries(props.map((p) => [p, style.getPropertyValue(p)]));
      };
      const text = [
        "font-family",
        "font-size",
        "color",
        "text-transform",
        "letter-spacing",
        "text-align",
        "line-height",
      ];
      return {
        root: pick(".gf-root", [...text, "display", "background-color"]),
        cell: pick(".gf-table td", ["padding-top", "padding-left", "border-top-style", "display"]),
        head: pick(".gf-table thead th", [...text, "padding-top"]),
        table: pick(".gf-table", ["border-collapse", "border-spacing", "display"]),
        tab: pick('[role="tab"]', [
          "background-color",
          "border-radius",
          "font-size",
          "padding-top",
          "display",
        ]),
        portrait: pick(".gf-table img, .gf-table svg", ["width", "height"]),
      };
    });
}

describe("a partner page", () => {
  it("shows every widget with the game's real data, themed, without console errors", async () => {
    const page = await browser.newPage();
    const errors = watchErrors(page);
    await page.goto(`${partner.url}/`);

    const women = await api<{ data: (Named & { id: number })[] }>(
      "/events/5/racers?category=pro-women",
    );
    const racerRows = page.locator("#racers gf-racer-table tbody tr");
    await expect.poll(() => racerRows.count(), { timeout: 15_000 }).toBe(women.data.length);
    await expect.poll(() => racerRows.first().textContent()).toContain(fullName(women.data[0]!));
    // Each name links to the racer's page on the game's site, in a new tab (the reader keeps the
    // partner's page), which screen readers are told.
    const firstWoman = women.data[0]!;
    const nameLink = racerRows
      .first()
      .getByRole("link", { name: `${fullName(firstWoman)} (opens in a new tab)` });
    expect(await nameLink.getAttribute("href")).toBe(`${app.url}/racers/${firstWoman.id}`);
    expect(await nameLink.getAttribute("target")).toBe("_blank");
    const [racerTab] = await Promise.all([page.context().waitForEvent("page"), nameLink.click()]);
    await racerTab.waitForLoadState();
    expect(racerTab.url()).toBe(`${app.url}/racers/${firstWoman.id}`);
    expect(await racerTab.locator("h1").textContent()).toBe(fullName(firstWoman));
    await racerTab.close();
    expect(page.url()).toBe(`${partner.url}/`);

    const players = await api<{ data: { username: string; points: number }[] }>(
      "/rankings/players",
    );
    expect(players.data.map((p) => p.username).sort()).toEqual([
      "berm_queen",
      "rootsrider",
      "trailboss",
    ]);
    const playerRows = page.locator("#players gf-player-rankings tbody tr");
    await expect.poll(() => playerRows.count()).toBe(3);
    expect(await playerRows.first().textContent()).toContain(players.data[0]!.username);

    await expect
      .poll(() => page.locator("#leagues gf-league-rankings tbody").textContent())
      .toContain("Trail Talk Crew");

    const leader = await api<{ data: { racers: (Named & { id: number })[] } }>(
      `/teams/trailboss?event=${RACE}`,
    );
    expect(leader.data.racers).toHaveLength(6);
    const slots = page.locator("#team gf-team-grid li.gf-slot:not(.gf-slot--empty)");
    await expect.poll(() => slots.count()).toBe(6);
    const grid = await page.locator("#team gf-team-grid ol").textContent();
    for (const r of leader.data.racers) expect(grid).toContain(fullName(r));
    const slotLinks = page.locator("#team gf-team-grid a.gf-slot-name");
    expect(await slotLinks.evaluateAll((as) => as.map((a) => a.getAttribute("href")))).toEqual(
      leader.data.racers.map((r) => `${app.url}/racers/${r.id}`),
    );
    expect(await slotLinks.first().getAttribute("target")).toBe("_blank");

    // theme="dark" and a --gf-* variable set by the partner's stylesheet.
    const dark = await shadowStyles(page, "#team gf-team-grid");
    expect(dark.root?.["background-color"]).toBe("rgb(18, 20, 23)");
    const selectedTab = page.locator('#themed gf-racer-table [role="tab"][aria-selected="true"]');
    await expect.poll(() => selectedTab.textContent()).toBe("17-18 Women");
    expect(await selectedTab.evaluate((el) => getComputedStyle(el).borderBottomColor)).toBe(
      "rgb(11, 110, 79)",
    );
    const plainTab = page.locator('#racers gf-racer-table [role="tab"][aria-selected="true"]');
    expect(await plainTab.evaluate((el) => getComputedStyle(el).borderBottomColor)).not.toBe(
      "rgb(11, 110, 79)",
    );

    // The tabs work inside the shadow root.
    await page.locator('#racers gf-racer-table [role="tab"]', { hasText: "Pro Men" }).click();
    await expect.poll(() => racerRows.first().textContent()).toContain("Bruni");

    await page.screenshot({ path: path.join(shots, "embeds-partner.png"), fullPage: true });
    expect(errors).toEqual([]);
    await page.close();
  });

  it("keeps the widgets intact under hostile CSS", async () => {
    const clean = await browser.newPage();
    await clean.goto(`${partner.url}/`);
    await expect
      .poll(() => clean.locator("#racers gf-racer-table tbody tr").count())
      .toBeGreaterThan(3);
    const expected = await shadowStyles(clean, "#racers gf-racer-table");

    const page = await browser.newPage();
    const errors = watchErrors(page);
    await page.goto(`${partner.url}/hostile.html`);
    const rows = page.locator("gf-racer-table tbody tr");
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBeGreaterThan(3);
    await expect.poll(() => page.locator("gf-player-rankings tbody tr").count()).toBe(3);

    // `* { all: unset }`, html { font-size: 10px }, table/td/button/img rules, rules aimed at our
    // classes and at the custom elements: none of it reaches inside.
    const hostile = await shadowStyles(page, "gf-racer-table");
    expect(hostile).toEqual(expected);
    expect(hostile.root).toMatchObject({
      "font-size": "15px",
      "text-transform": "none",
      "letter-spacing": "normal",
      "text-align": "left",
      display: "block",
    });
    expect(hostile.root?.["font-family"]).toContain("system-ui");
    expect(hostile.cell?.["border-top-style"]).not.toBe("dashed");
    const box = await page.locator("gf-racer-table .gf-table").first().boundingBox();
    expect(box?.width).toBeGreaterThan(300);

    await page.screenshot({ path: path.join(shots, "embeds-hostile.png"), fullPage: true });

    // And it looks the same, pixel for pixel (within anti-aliasing), as on the clean page.
    const cleanTable = clean.locator("#racers gf-racer-table");
    await cleanTable.evaluate((el) => el.setAttribute("category", "pro-men"));
    await expect
      .poll(() => clean.locator("#racers gf-racer-table tbody tr").first().textContent())
      .toBe(await rows.first().textContent());
    const [want, got] = [
      await widgetShot(clean, "#racers gf-racer-table"),
      await widgetShot(page, "gf-racer-table"),
    ];
    writeFileSync(path.join(shots, "embeds-racer-table-clean.png"), want);
    writeFileSync(path.join(shots, "embeds-racer-table-hostile.png"), got);
    expect(await pixelDifference(clean, want, got)).toBeLessThan(0.002);
    expect(errors).toEqual([]);
    await Promise.all([page.close(), clean.close()]);
  });
});

describe("on a 360 px phone", () => {
  it("the widgets and the team builder fit the screen", async () => {
    const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${partner.url}/`);
    await expect
      .poll(() => page.locator("#racers gf-racer-table tbody tr").count())
      .toBeGreaterThan(3);
    await expect.poll(() => page.locator("#team gf-team-grid li.gf-slot").count()).toBe(6);
    // Wide tables scroll inside their own region; the page itself never scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      360,
    );

    await page.goto(`${partner.url}/team.html`);
    const iframe = page.locator("gf-team-builder iframe");
    await iframe.waitFor();
    const frame = (await (await iframe.elementHandle())!.contentFrame()) as Frame;
    await frame.getByRole("button", { name: "Sign in to build your team" }).waitFor();
    const overflow = await frame.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      360,
    );
    await page.screenshot({ path: path.join(shots, "embeds-phone.png"), fullPage: true });
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe("the embed's files", () => {
  it("load from any origin, the loader cached briefly since it names this build's modules, the modules for good", async () => {
    const loader = await fetch(`${app.url}/embed/v1/widgets.js`, {
      headers: { Origin: unlisted.url },
    });
    expect(loader.status).toBe(200);
    expect(loader.headers.get("access-control-allow-origin")).toBe("*");
    expect(loader.headers.get("cache-control")).toBe("public, max-age=300");
    const module = /racer-table-[0-9a-f]{10}\.js/.exec(await loader.text())?.[0];
    expect(module).toBeDefined();
    const res = await fetch(`${app.url}/embed/v1/${module}`, { headers: { Origin: partner.url } });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("content-type")).toMatch(/javascript/);
    // Named by content: cached for good, and so is the shared chunk it imports.
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const chunk = /shared-[A-Z0-9]{8}\.js/.exec(await res.text())?.[0];
    expect(chunk).toBeDefined();
    const shared = await fetch(`${app.url}/embed/v1/${chunk}`);
    expect(shared.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
  });
});

/** What the partner's home page shows, by its section: element, its module and component. */
const HOME_WIDGETS = [
  { section: "racers", tag: "gf-racer-table", file: "racer-table", component: "GfRacerTable" },
  {
    section: "players",
    tag: "gf-player-rankings",
    file: "player-rankings",
    component: "GfPlayerRankings",
  },
  {
    section: "leagues",
    tag: "gf-league-rankings",
    file: "league-rankings",
    component: "GfLeagueRankings",
  },
  { section: "team", tag: "gf-team-grid", file: "team-grid", component: "GfTeamGrid" },
] as const;

/**
 * One of the embed's widgets drawn by React 18 with the package's stylesheet, as a host app
 * draws the package: the same element component, attributes, data and theme variables as on the
 * partner's page, pinned at the width `widgetShot` gives the embed. Only the renderer differs.
 */
async function reactWidget(
  page: Page,
  widget: (typeof HOME_WIDGETS)[number],
  attrs: Record<string, string>,
  style: string,
): Promise<Buffer> {
  const element = path.join(repo, "apps/web/embed/elements", `${widget.file}.tsx`);
  const bundle = await build({
    stdin: {
      contents: [
        'import { createElement } from "react";',
        'import { createRoot } from "react-dom/client";',
        'import { createGameClient } from "@game/widgets/client";',
        'import { GravityProvider } from "@game/widgets/hooks";',
        `import { ${widget.component} as Widget } from ${JSON.stringify(element)};`,
        "window.renderWidget = (attrs, base) => {",
        "  const client = createGameClient({ baseUrl: base });",
        "  const host = document.getElementById('root');",
        "  createRoot(host).render(createElement(GravityProvider, { client },",
        "    createElement(Widget, { attrs, ctx: { client, base }, host })));",
        "};",
      ].join("\n"),
      resolveDir: path.join(repo, "apps/web"),
      loader: "tsx",
    },
    bundle: true,
    write: false,
    format: "iife",
    jsx: "automatic",
    minify: true,
    define: { "process.env.NODE_ENV": '"production"' },
    logLevel: "silent",
  });
  const css = readFileSync(path.join(repo, "packages/widgets/dist/styles.css"), "utf8");
  // Served from the partner's origin, which the API lets read its data.
  await page.goto(`${partner.url}/`);
  await page.setContent(
    `<!doctype html><html><head><meta charset="utf-8"><style>${css}</style></head><body style="margin:0"><div id="root" style="width:640px;${style}"></div></body></html>`,
  );
  await page.addScriptTag({ content: bundle.outputFiles[0]!.text });
  await page.evaluate(
    ([a, base]) =>
      (window as unknown as { renderWidget: (...x: unknown[]) => void }).renderWidget(a, base),
    [attrs, app.url] as const,
  );
  await expect
    .poll(() => page.locator("#root tbody tr, #root .gf-slot").count())
    .toBeGreaterThan(0);
  await expect.poll(() => page.locator("#root [aria-busy=true]").count()).toBe(0);
  // Portraits loaded, as `widgetShot` waits for them in the embed.
  await page
    .locator("#root")
    .evaluate((root) =>
      Promise.all(
        [...root.querySelectorAll("img")].map((img) =>
          img.complete
            ? null
            : new Promise((done) => img.addEventListener("load", done, { once: true })),
        ),
      ),
    );
  return page.locator("#root").screenshot({ animations: "disabled", caret: "hide" });
}

describe("the embed beside the React package", () => {
  it("draws every widget as React does with the package, pixel for pixel", async () => {
    const embed = await browser.newPage();
    const react = await browser.newPage();
    try {
      await embed.goto(`${partner.url}/`);
      for (const widget of HOME_WIDGETS) {
        const host = embed.locator(`#${widget.section} ${widget.tag}`);
        const shadow = host.locator("tbody tr, .gf-slot");
        await expect.poll(() => shadow.count(), { message: widget.tag }).toBeGreaterThan(0);
        await expect
          .poll(() => host.locator("[aria-busy=true]").count(), {
            message: widget.tag,
          })
          .toBe(0);
        const got = await widgetShot(embed, `#${widget.section} ${widget.tag}`);
        // The same attributes, the accent the partner's page sets on it (the one theme variable
        // that page uses), and the same fraction of a pixel in its position (text is drawn
        // differently half a pixel down).
        const { attrs, style } = await host.evaluate((el) => {
          const accent = getComputedStyle(el).getPropertyValue("--gf-color-accent").trim();
          const box = el.getBoundingClientRect();
          const fraction = (n: number) => n - Math.floor(n);
          const declarations = [
            `margin:${fraction(box.top + scrollY)}px 0 0 ${fraction(box.left + scrollX)}px`,
          ];
          if (accent) declarations.push(`--gf-color-accent:${accent}`);
          return {
            attrs: Object.fromEntries([...el.attributes].map((a) => [a.name, a.value])),
            style: declarations.join(";"),
          };
        });
        const want = await reactWidget(react, widget, attrs, style);
        writeFileSync(path.join(shots, `embed-${widget.file}.png`), got);
        writeFileSync(path.join(shots, `react-${widget.file}.png`), want);
        // Avatars, tabs and text in the same places (within anti-aliasing): the embed renders with
        // Preact, which once wrote the avatars' SVG `textAnchor` literally and shifted initials.
        expect(await pixelDifference(embed, want, got, true), widget.tag).toBeLessThan(0.001);
      }
    } finally {
      await embed.close();
      await react.close();
    }
  });
});

describe("the embed's round trips", () => {
  it("asks for each widget's module, the chunks it imports and the hello at once, and the hello brings the data: two round trips", async () => {
    const loader = await (await fetch(`${app.url}/embed/v1/widgets.js`)).text();
    // The chunks the partner's home page needs (its four kinds of widget), read from the loader.
    const chunks = new Set<string>();
    for (const tag of ["racer-table", "player-rankings", "league-rankings", "team-grid"]) {
      const files = new RegExp(`"gf-${tag}":\\[([^\\]]*)\\]`).exec(loader)?.[1] ?? "";
      for (const name of files.match(/shared-\w+\.js/g) ?? []) chunks.add(name);
    }
    expect(chunks.size).toBeGreaterThan(0);

    const page = await browser.newPage();
    const asked = new Set<string>();
    let hello = false;
    // The API requests the page makes itself (the live scores' stream aside): none until the
    // reader or the page changes something, since the hello brought every widget's first data.
    const api: string[] = [];
    page.on("request", (request) => {
      const { pathname, search } = new URL(request.url());
      const name = pathname.split("/").pop() ?? "";
      if (chunks.has(name)) asked.add(name);
      if (pathname === "/embed/v1/hello") hello = true;
      if (pathname.startsWith("/api/v1/") && !pathname.endsWith("/live"))
        api.push(pathname + search);
    });
    // Every widget module is held back: whatever the page asks for meanwhile, the loader asked
    // for, not a module's imports (found only once a module has arrived).
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(/\/embed\/v1\/[a-z-]+-[0-9a-f]{10}\.js$/, async (route) => {
      await released;
      await route.continue();
    });
    try {
      await page.goto(`${partner.url}/`);
      await expect.poll(() => [...asked].sort()).toEqual([...chunks].sort());
      await expect.poll(() => hello).toBe(true);
      release();
      const rows = page.locator("#racers gf-racer-table tbody tr");
      await expect.poll(() => rows.count()).toBeGreaterThan(1);
      // Every widget of the page showing its data (two tables of one event among them)...
      await expect.poll(() => page.locator("gf-racer-table tbody tr").count()).toBeGreaterThan(3);
      await expect
        .poll(() => page.locator("#players gf-player-rankings tbody tr").count())
        .toBeGreaterThan(0);
      await expect
        .poll(() => page.locator("#leagues gf-league-rankings tbody tr").count())
        .toBeGreaterThan(0);
      await expect
        .poll(() => page.locator("#team gf-team-grid li.gf-slot:not(.gf-slot--empty)").count())
        .toBeGreaterThan(0);
      // ...without one request of its own to the API.
      expect(api).toEqual([]);
      // A change asks the game: the hello's answers serve a widget's first requests only.
      await page
        .locator("#players gf-player-rankings")
        .evaluate((el) => el.setAttribute("page", "2"));
      await expect.poll(() => api).toContain("/api/v1/rankings/players?page=2");
    } finally {
      release();
      await page.close();
    }
  });
});

describe("a site that is not a partner", () => {
  it("gets no CORS permission from the API", async () => {
    const ask = (origin: string) =>
      fetch(`${app.url}/api/v1/events`, { headers: { Origin: origin } });
    const allowed = await ask(partner.url);
    expect(allowed.headers.get("access-control-allow-origin")).toBe(partner.url);
    const refused = await ask(unlisted.url);
    expect(refused.headers.get("access-control-allow-origin")).toBeNull();
    expect(refused.headers.get("vary")).toContain("Origin");
    const preflight = (origin: string) =>
      fetch(`${app.url}/api/v1/rankings/players`, {
        method: "OPTIONS",
        headers: { Origin: origin, "Access-Control-Request-Method": "GET" },
      });
    const ok = await preflight(partner.url);
    expect(ok.status).toBe(204);
    expect(ok.headers.get("access-control-allow-origin")).toBe(partner.url);
    expect((await preflight(unlisted.url)).headers.get("access-control-allow-origin")).toBeNull();
  });

  it("shows readers nothing broken, and tells the developer in the console why", async () => {
    const page = await browser.newPage();
    const messages: string[] = [];
    page.on("console", (m) => messages.push(`${m.type()}: ${m.text()}`));
    const errors = watchErrors(page);
    await page.goto(`${unlisted.url}/`);
    await expect
      .poll(() => messages.find((m) => m.includes("origin not allowed")), { timeout: 15_000 })
      .toBe(
        `warning: Gravity Fantasy: origin not allowed: ask the game's admin to add ${unlisted.url} to your partner origins. The widgets stay hidden.`,
      );
    // Said once per page, however many widgets it has.
    expect(messages.filter((m) => m.includes("origin not allowed"))).toHaveLength(1);
    const shown = await page.evaluate(() =>
      [...document.querySelectorAll("gf-racer-table, gf-player-rankings, gf-team-grid")].map(
        (el) => ({
          text: el.shadowRoot?.textContent ?? "",
          buttons: el.shadowRoot?.querySelectorAll("button").length ?? 0,
          height: el.getBoundingClientRect().height,
        }),
      ),
    );
    expect(shown.length).toBeGreaterThan(2);
    for (const w of shown) expect(w).toEqual({ text: "", buttons: 0, height: 0 });
    // The API was never asked, so no CORS errors either.
    expect(errors).toEqual([]);

    // The team builder: no refused, empty frame on the page.
    await page.goto(`${unlisted.url}/team.html`);
    await expect
      .poll(() => messages.filter((m) => m.includes("origin not allowed")).length, {
        timeout: 15_000,
      })
      .toBe(2);
    expect(await page.locator("gf-team-builder iframe").count()).toBe(0);
    expect(
      await page.locator("gf-team-builder").evaluate((el) => el.getBoundingClientRect().height),
    ).toBe(0);
    await page.close();
  });

  it("cannot frame the team builder, even with the partner's key", async () => {
    // The rest of the site can be framed by nobody; the builder by the partner only.
    const home = await fetch(`${app.url}/`);
    expect(home.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(home.headers.get("x-frame-options")).toBe("DENY");
    const builder = await fetch(`${app.url}/embed/team-setup?partner=${partnerKey}&event=5`);
    expect(builder.status).toBe(200);
    expect(builder.headers.get("content-security-policy")).toContain(
      `frame-ancestors ${partner.url}`,
    );
    expect(builder.headers.get("content-security-policy")).not.toContain("frame-ancestors 'none'");
    expect(builder.headers.get("x-frame-options")).toBeNull();

    const page = await browser.newPage();
    const messages: string[] = [];
    page.on("console", (m) => messages.push(m.text()));
    await page.goto(`${unlisted.url}/team.html`);
    // The embed shows no frame here; a hand-made one is refused by the browser.
    await page.evaluate((src) => {
      const iframe = document.createElement("iframe");
      iframe.src = src;
      document.body.append(iframe);
    }, `${app.url}/embed/team-setup?partner=${partnerKey}&event=5`);
    await expect
      .poll(() => messages.some((m) => m.includes("frame-ancestors")), { timeout: 15_000 })
      .toBe(true);
    const frame = page.frames().find((f) => f !== page.mainFrame());
    expect(frame).toBeDefined();
    expect(await frame!.locator("text=Sign in to build your team").count()).toBe(0);
    await page.close();
  });
});

describe("a reader on the partner's page", () => {
  it("signs in through the popup and saves a team without leaving the page", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${partner.url}/team.html`);
    const iframe = page.locator("gf-team-builder iframe");
    await iframe.waitFor();
    const frame = (await (await iframe.elementHandle())!.contentFrame()) as Frame;
    await frame.getByRole("button", { name: "Sign in to build your team" }).waitFor();

    // The iframe grows with its content up to about a screen (85 % of the window, at least
    // 480 px), then scrolls inside.
    const fits = async () => {
      const inner = await frame.evaluate(() => document.documentElement.scrollHeight);
      const outer = await iframe.evaluate((el) => el.getBoundingClientRect().height);
      const cap = await page.evaluate(() => Math.max(480, window.innerHeight * 0.85));
      return Math.abs(Math.min(inner, cap) - outer) <= 2;
    };
    await expect.poll(fits).toBe(true);

    const [popup] = await Promise.all([
      page.waitForEvent("popup"),
      frame.getByRole("button", { name: "Sign in to build your team" }).click(),
    ]);
    await popup.waitForLoadState();
    expect(new URL(popup.url()).origin).toBe(new URL(app.url).origin);
    // The site's own login page (its header also holds the login modal: use the page's form).
    const form = popup.locator("main");
    await form.getByLabel("Email").fill(READER.email);
    await form.getByLabel("Password").fill(READER.password);
    await form.getByRole("button", { name: "Log in" }).click();
    await popup.getByRole("button", { name: `Continue as ${READER.username}` }).click();
    await popup.waitForEvent("close");
    done.signIns += 1;

    await frame.getByText(`Signed in as ${READER.username}`, { exact: true }).waitFor();
    // The full builder is taller than a screen: the frame stops growing and scrolls inside.
    await expect.poll(fits).toBe(true);
    const sizes = await frame.evaluate(() => ({
      scroll: document.documentElement.scrollHeight,
      client: document.documentElement.clientHeight,
    }));
    expect(sizes.scroll).toBeGreaterThan(sizes.client);
    // Build a team the rules accept: 2 Pro Women, 1 junior man, 3 Pro Men (the cheapest).
    const pick = async (category: string, n: number) => {
      await frame.getByRole("tab", { name: category }).click();
      const racers = await api<{ data: (Named & { price: number; id: number })[] }>(
        `/events/5/racers?category=${category === "Pro Men" ? "pro-men" : category === "Pro Women" ? "pro-women" : "junior-men"}`,
      );
      const cheapest = [...racers.data]
        .sort((a, b) => a.price - b.price || a.id - b.id)
        .slice(0, n);
      for (const r of cheapest) {
        await frame.getByRole("button", { name: new RegExp(`^Add ${fullName(r)} for`) }).click();
      }
      return cheapest.map(fullName);
    };
    const chosen = [
      ...(await pick("Pro Women", 2)),
      ...(await pick("17-18 Men", 1)),
      ...(await pick("Pro Men", 3)),
    ];
    // Names link to the racer's page on the game's site, in a new tab (the reader stays here).
    const slotLink = frame.locator(".gf-slot a.gf-slot-name").first();
    expect(await slotLink.getAttribute("href")).toMatch(/^\/racers\/\d+$/);
    expect(await slotLink.getAttribute("target")).toBe("_blank");
    await frame.getByRole("button", { name: "Save Team" }).click();
    await expect
      .poll(() => frame.getByRole("alert").filter({ hasText: "Team saved" }).textContent())
      .toContain("Team saved successfully!");
    done.teamSaves += 1;
    await frame.getByRole("button", { name: "Edit Team" }).waitFor();
    // The partner page heard about it (a DOM event from the embed script).
    await expect.poll(() => page.locator("#after").textContent()).toBe("Team saved for event 5.");
    await expect.poll(fits).toBe(true);
    await page.screenshot({ path: path.join(shots, "embeds-team-builder.png"), fullPage: true });

    // Saved on the game itself: the reader's own team page (first party) shows the same six.
    const own = await context.newPage();
    await own.goto(`${app.url}/team-setup?game=5`);
    const grid = own.getByRole("list", { name: "Your team" });
    for (const name of chosen) await expect.poll(() => grid.textContent()).toContain(name);

    expect(errors).toEqual([]);
    await context.close();
  });
});

describe("the partner's stats", () => {
  it("count what its pages did today, and nothing for the unlisted site", async () => {
    // The app writes API calls and widget loads every few seconds: poll through the CLI, which
    // reaches the running app's database.
    const today = new Date().toISOString().slice(0, 10);
    const stats = () =>
      JSON.parse(cli(app.dataDir, "partners", "stats", "--days", "1", "--json")) as {
        name: string;
        days: {
          day: string;
          widgetLoads: number;
          apiCalls: number;
          signIns: number;
          teamSaves: number;
        }[];
      }[];
    const written = () => {
      const d = stats()[0]?.days[0];
      return !!d && d.apiCalls > 0 && d.signIns >= done.signIns && d.teamSaves >= done.teamSaves;
    };
    await expect.poll(written, { timeout: 30_000, interval: 1000 }).toBe(true);
    const [trail, ...others] = stats();
    expect(others).toEqual([]);
    expect(trail!.name).toBe("Trail Talk");
    const day = trail!.days[0]!;
    expect(day.day).toBe(today);
    // The demo's index (five widgets) was opened at least three times by the tests above (each
    // test that opens it counts), plus the hostile and team pages.
    expect(day.widgetLoads).toBeGreaterThanOrEqual(3 * 5);
    expect(done.signIns).toBeGreaterThan(0);
    expect(done.teamSaves).toBeGreaterThan(0);
    expect(day.signIns).toBe(done.signIns);
    expect(day.teamSaves).toBe(done.teamSaves);

    // The same numbers on the partner's page of the dashboard, on a phone.
    const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await logIn(page, app.url, ADMIN);
    await page.goto(`${app.url}/admin/partners`);
    await page.getByRole("link", { name: "Manage Trail Talk" }).click();
    const panel = page.locator("#partner-manage");
    await expect
      .poll(() => panel.getByText("Today so far").locator("..").textContent())
      .toContain(
        `${day.signIns} sign-in${day.signIns === 1 ? "" : "s"}, ` +
          `${day.teamSaves} team${day.teamSaves === 1 ? "" : "s"} saved.`,
      );
    expect(await panel.getByRole("img", { name: /Widget loads per day/ }).count()).toBe(1);
    const row = panel.getByRole("region", { name: "Partner stats per day" }).locator("tbody tr");
    expect(await row.count()).toBe(14);
    // Days are written in the game's one date format (a UTC day, docs/decisions/0144).
    expect(await row.first().locator("th").textContent()).toBe(
      formatDate(`${today}T00:00:00Z`, "UTC"),
    );
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      360,
    );
    await page.screenshot({ path: path.join(shots, "embeds-partner-stats.png"), fullPage: true });
    expect(errors).toEqual([]);
    await context.close();
  });
});
