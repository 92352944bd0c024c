/**
 * The visual check of the widgets: every story of the built Storybook (`storybook-static/` at the
 * repository root, made by `npm run build-storybook`) in Debian's Chromium (playwright-core,
 * nothing downloaded) at phone, tablet and desktop widths. Fails on sideways scrolling and on a
 * word broken inside ("Seagr / ave"): a run of letters whose box spans two lines. The team
 * grid's names with Remove buttons have a test of their own. `npm run test:visual` (part of
 * `test:browser`).
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const STATIC = fileURLToPath(new URL("../../../storybook-static/", import.meta.url));
/** Phone, small tablet, tablet, laptop and desktop widths. */
const WIDTHS = [320, 768, 1024, 1280, 1440] as const;

interface IndexEntry {
  id: string;
  type: "story" | "docs";
  title: string;
  name: string;
}

const TYPES: Record<string, string> = {
  ".html": "text/html",
  ".js": "text/javascript",
  ".mjs": "text/javascript",
  ".css": "text/css",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".woff2": "font/woff2",
  ".png": "image/png",
};

/** Serves the static Storybook (the preview's module scripts need http, not file:). */
function serve(root: string): Promise<Server> {
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname));
    const file = join(root, path.endsWith("/") ? `${path}index.html` : path);
    if (!file.startsWith(root) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
    res.end(readFileSync(file));
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

const stories: IndexEntry[] = existsSync(join(STATIC, "index.json"))
  ? Object.values(
      (
        JSON.parse(readFileSync(join(STATIC, "index.json"), "utf8")) as {
          entries: Record<string, IndexEntry>;
        }
      ).entries,
    ).filter((e) => e.type === "story")
  : [];

let server: Server;
let browser: Browser;
let base = "";

beforeAll(async () => {
  if (stories.length === 0) {
    throw new Error("No built Storybook: run `npm run build-storybook` first.");
  }
  [server, browser] = await Promise.all([
    serve(STATIC),
    chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      headless: true,
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
    }),
  ]);
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

/** Opens a story alone (the preview iframe) and waits until it has rendered and played. */
async function openStory(page: Page, id: string): Promise<void> {
  await page.goto(`${base}/iframe.html?id=${id}&viewMode=story`, { waitUntil: "load" });
  await page.waitForFunction(
    () => {
      const phase = (
        window as unknown as { __STORYBOOK_PREVIEW__?: { currentRender?: { phase?: string } } }
      ).__STORYBOOK_PREVIEW__?.currentRender?.phase;
      return phase === "finished" || phase === "errored" || phase === "aborted";
    },
    null,
    { timeout: 20_000 },
  );
  await page.evaluate(() => document.fonts.ready);
}

/** Lays the page out at `width` (one frame for the new layout). */
async function resize(page: Page, width: number): Promise<void> {
  await page.setViewportSize({ width, height: 900 });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(null))));
}

/**
 * Runs of 3 to 20 letters under `selector` whose box spans two lines, as "word" in "its text".
 * Spaces, hyphens and other punctuation are the allowed breaks; a longer run (the stories'
 * "Wolfeschlegelsteinhausenbergerdorff") may need a line of its own wider than a phone's, and
 * may break.
 */
function brokenWords(selector: string): string[] {
  const hiddenOnPurpose = (el: Element) =>
    el.closest(".gf-sr-only, [aria-hidden='true'], .gf-tip") !== null;
  const shown = (el: Element) => {
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    return box.width > 1 && box.height > 1 && style.visibility !== "hidden";
  };
  const broken: string[] = [];
  const range = document.createRange();
  for (const root of document.querySelectorAll(selector)) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || !shown(parent) || hiddenOnPurpose(parent)) continue;
      for (const m of (node.textContent ?? "").matchAll(/[\p{L}\p{M}']{3,}/gu)) {
        if (m[0].length > 20) continue;
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (lines.size > 1) broken.push(`"${m[0]}" in "${(node.textContent ?? "").trim()}"`);
      }
    }
  }
  return broken;
}

/** Everything wrong with the story as laid out now, in words (empty when nothing is). */
async function problems(page: Page): Promise<string[]> {
  return page.evaluate(`(() => {
    const brokenWords = ${brokenWords.toString()};
    const found = brokenWords("#storybook-root").map((w) => "word broken inside: " + w);
    const doc = document.documentElement;
    // A story that fixes its frame's width (the phone stories) is checked from that width up.
    const frame = document.querySelector("[data-testid=theme-root]");
    const fixed = frame && frame.style.width ? parseFloat(frame.style.width) : 0;
    if (doc.scrollWidth > doc.clientWidth + 1 && doc.clientWidth >= fixed) {
      found.push("scrolls sideways (" + doc.scrollWidth + " > " + doc.clientWidth + ")");
    }
    return found;
  })()`);
}

describe("every story at 320, 768, 1024, 1280 and 1440 px", () => {
  const byTitle = new Map<string, IndexEntry[]>();
  for (const s of stories) byTitle.set(s.title, [...(byTitle.get(s.title) ?? []), s]);
  for (const [title, group] of byTitle) {
    it(`${title}: no sideways scrolling, no word broken inside`, async () => {
      const page = await browser.newPage();
      const found: string[] = [];
      try {
        for (const story of group) {
          await resize(page, WIDTHS[0]);
          await openStory(page, story.id);
          for (const width of WIDTHS) {
            await resize(page, width);
            for (const p of await problems(page)) found.push(`${story.name} @ ${width}px: ${p}`);
          }
        }
      } finally {
        await page.close();
      }
      expect(found).toEqual([]);
    });
  }
});

describe("TeamGrid with Remove buttons", () => {
  // Both stories show a Remove button per racer.
  for (const [id, name] of [
    ["widgets-teamgrid--default", "Asa Vermette"],
    ["widgets-teamgrid--full-team", "Tahnee Seagrave"],
  ] as const) {
    it(`${id}: every racer name wraps between words only, at 320, 768, 1024 and 1440 px`, async () => {
      const page = await browser.newPage();
      try {
        await resize(page, 320);
        await openStory(page, id);
        for (const width of [320, 768, 1024, 1440]) {
          await resize(page, width);
          const state = await page.evaluate(`(() => {
            const brokenWords = ${brokenWords.toString()};
            return {
              names: [...document.querySelectorAll(".gf-slot-name")].map((n) => n.textContent),
              removeButtons: document.querySelectorAll(".gf-slot-remove").length,
              broken: brokenWords(".gf-slot-name"),
            };
          })()`);
          const { names, removeButtons, broken } = state as {
            names: string[];
            removeButtons: number;
            broken: string[];
          };
          expect(removeButtons, `${width}px`).toBe(names.length);
          expect(names, `${width}px`).toContain(name);
          expect(broken, `${width}px`).toEqual([]);
        }
      } finally {
        await page.close();
      }
    });
  }
});
