/**
 * The themes in a real browser (Debian's Chromium driven by playwright-core, nothing
 * downloaded): the stylesheet as shipped (`dist/styles.css`) and as a Vite production build
 * emits it (minified, what the web app serves), with roots in every theme, nested roots and a
 * partner's overrides. Each colour a root computes must be the palette's value for its theme,
 * which proves the theme toggles (`--gf-is-dark`, and the one-space `--gf-is-light`) survive both
 * pipelines. `npm run test:themes` (part of `test:browser`); needs `npm run build` first.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type Browser, chromium, type Page } from "playwright-core";
import { build, type Rollup } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { palette, type Theme } from "./css-tokens";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const PALETTE = palette(readFileSync(new URL("../src/styles.css", import.meta.url), "utf8"));
const SHIPPED = readFileSync(new URL("../dist/styles.css", import.meta.url), "utf8");

/** The stylesheet as the web app's Vite build emits it: `import url from "…/styles.css?url"`. */
async function viteBuilt(): Promise<string> {
  const entry = "\0gf-themes-entry";
  const out = (await build({
    configFile: false,
    logLevel: "silent",
    root: packageDir,
    build: { write: false, rollupOptions: { input: entry } },
    plugins: [
      {
        name: "gf-themes-entry",
        resolveId: (id) => (id === entry ? entry : undefined),
        load: (id) =>
          id === entry
            ? 'import url from "@game/widgets/styles.css?url"; document.title = url;'
            : undefined,
      },
    ],
  })) as Rollup.RollupOutput;
  const css = out.output.find((f) => f.type === "asset" && f.fileName.endsWith(".css"));
  if (css?.type !== "asset") throw new Error("the Vite build emitted no stylesheet");
  return String(css.source);
}

/** Roots in every theme; `system` follows the emulated colour scheme. */
const ROOTS = `
<div class="gf-root" id="default"><div class="gf-root" id="default-child"></div></div>
<div class="gf-root" data-theme="light" id="light"></div>
<div class="gf-root" data-theme="dark" id="dark">
  <div class="gf-root" id="dark-child"></div>
  <div class="gf-root" data-theme="light" id="light-in-dark">
    <div class="gf-root" id="light-in-dark-child"></div>
  </div>
  <div class="gf-root" data-theme="auto" id="auto-in-dark"></div>
</div>
<div class="gf-root" data-theme="auto" id="auto">
  <div class="gf-root" id="auto-child"></div>
  <div class="gf-root" data-theme="dark" id="dark-in-auto"></div>
</div>
`;
const THEMES: Record<string, Theme | "system"> = {
  default: "light",
  "default-child": "light",
  light: "light",
  dark: "dark",
  "dark-child": "dark",
  "light-in-dark": "light",
  "light-in-dark-child": "light",
  "auto-in-dark": "system",
  auto: "system",
  "auto-child": "system",
  "dark-in-auto": "dark",
};

/** The README's example of a partner's overrides. */
const PARTNER = `
.gf-root { --gf-font-family: "Inter", sans-serif; --gf-color-accent: #0b5cad; }
.gf-root[data-theme="dark"] { --gf-color-accent: #79b8ff; --gf-color-on-accent: #04121f; }
`;

/**
 * Every palette token as `root` computes it, next to the same value written literally (so both
 * go through the browser's own colour and shadow serialisation), as `[token, got, want]`.
 */
async function mismatches(
  page: Page,
  root: string,
  theme: Theme,
  overrides: Record<string, string> = {},
): Promise<[string, string, string][]> {
  const expected = Object.fromEntries(
    Object.entries(PALETTE).map(([name, values]) => [name, overrides[name] ?? values[theme]]),
  );
  return page.evaluate(
    ({ root, expected }) => {
      const at = document.getElementById(root);
      if (!at) throw new Error(`no #${root}`);
      const property = (name: string) => (name === "--gf-shadow" ? "box-shadow" : "color");
      const computed = (parent: Element, name: string, value: string) => {
        const probe = document.createElement("span");
        probe.style.setProperty(property(name), value);
        parent.append(probe);
        const out = getComputedStyle(probe).getPropertyValue(property(name));
        probe.remove();
        return out;
      };
      const bad: [string, string, string][] = [];
      for (const [name, value] of Object.entries(expected)) {
        const got = computed(at, name, `var(${name})`);
        const want = computed(document.body, name, value);
        if (got !== want) bad.push([name, got, want]);
      }
      // What the widgets paint: the root's own background and text.
      const style = getComputedStyle(at);
      const bg = computed(document.body, "--gf-color-bg", expected["--gf-color-bg"]!);
      const text = computed(document.body, "--gf-color-text", expected["--gf-color-text"]!);
      if (style.backgroundColor !== bg) bad.push(["background-color", style.backgroundColor, bg]);
      if (style.color !== text) bad.push(["color", style.color, text]);
      return bad;
    },
    { root, expected },
  );
}

const colorScheme = (page: Page, root: string) =>
  page.$eval(`#${root}`, (el) => getComputedStyle(el).colorScheme);

let browser: Browser;
/** The stylesheet by pipeline. */
const stylesheets: Record<"shipped (dist/styles.css)" | "Vite production build", string> = {
  "shipped (dist/styles.css)": SHIPPED,
  "Vite production build": "",
};

beforeAll(async () => {
  [browser, stylesheets["Vite production build"]] = await Promise.all([
    chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      headless: true,
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
    }),
    viteBuilt(),
  ]);
});

afterAll(async () => {
  await browser?.close();
});

describe("themes in Chromium", () => {
  it("the Vite build minified the stylesheet and kept both toggles", () => {
    const built = stylesheets["Vite production build"];
    expect(built.length).toBeLessThan(SHIPPED.length * 0.8);
    expect(built).toMatch(/--gf-is-light: ;/);
    expect(built).toMatch(/--gf-is-dark: ;/);
    expect(built).toMatch(/--gf-is-dark: ?initial/);
  });

  for (const name of Object.keys(stylesheets) as (keyof typeof stylesheets)[]) {
    describe(`stylesheet: ${name}`, () => {
      let page: Page;
      const css = () => stylesheets[name];

      beforeAll(async () => {
        page = await browser.newPage();
      });
      afterAll(async () => {
        await page.close();
      });

      for (const system of ["light", "dark"] as const) {
        it(`every root computes its theme's palette (system ${system})`, async () => {
          await page.emulateMedia({ colorScheme: system });
          await page.setContent(`<style>${css()}</style>${ROOTS}`);
          for (const [root, wanted] of Object.entries(THEMES)) {
            const theme = wanted === "system" ? system : wanted;
            expect(await mismatches(page, root, theme), `#${root} (${theme})`).toEqual([]);
            expect(await colorScheme(page, root), `#${root}`).toBe(theme);
          }
        });
      }

      for (const order of ["before", "after"] as const) {
        it(`a partner's overrides on .gf-root win, loaded ${order} the stylesheet`, async () => {
          await page.emulateMedia({ colorScheme: "dark" });
          const partner = `<style>${PARTNER}</style>`;
          const widgets = `<style>${css()}</style>`;
          await page.setContent(
            (order === "before" ? partner + widgets : widgets + partner) + ROOTS,
          );
          const light = { "--gf-color-accent": "#0b5cad" };
          const dark = { "--gf-color-accent": "#79b8ff", "--gf-color-on-accent": "#04121f" };
          expect(await mismatches(page, "default", "light", light)).toEqual([]);
          expect(await mismatches(page, "light-in-dark", "light", light)).toEqual([]);
          expect(await mismatches(page, "dark", "dark", dark)).toEqual([]);
          // Auto under a dark system is dark, but the partner's dark rule names data-theme="dark".
          expect(await mismatches(page, "auto", "dark", light)).toEqual([]);
          const font = await page.$eval("#dark", (el) => getComputedStyle(el).fontFamily);
          expect(font).toBe("Inter, sans-serif");
        });
      }
    });
  }
});
