// @vitest-environment node
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  isRootRule,
  palette,
  resolvedTokens,
  stripComments,
  type Theme,
  toggleTheme,
  tokenRules,
} from "../test/css-tokens";

const source = readFileSync(new URL("./styles.css", import.meta.url), "utf8");
const css = stripComments(source);
const rules = tokenRules(source);

const OUTERMOST = ":where(.gf-root:not(.gf-root .gf-root))";
const THEMED = (name: string) => `:where(.gf-root[data-theme="${name}"])`;
const selectors = (rule: { selector: string }) =>
  rule.selector.split(/,(?![^(]*\))/).map((s) => s.trim());

/** The theme a rule's toggles select, for the rule (outside or inside `at`) naming `selector`. */
function themeOf(selector: string, at: string[] = []): Theme | undefined {
  const rule = rules.find(
    (r) => selectors(r).includes(selector) && "--gf-is-dark" in r.vars && r.at.join() === at.join(),
  );
  return rule && toggleTheme(rule.vars);
}

const DARK_MEDIA = ["@media (prefers-color-scheme: dark)"];
const light = resolvedTokens(source, "light");
const dark = resolvedTokens(source, "dark");
const autoDark = resolvedTokens(source, themeOf(THEMED("auto"), DARK_MEDIA) ?? "light");

function luminance(hex: string): number {
  const m = /^#([0-9a-f]{6})$/i.exec(hex);
  if (!m) throw new Error(`not a #rrggbb colour: ${hex}`);
  const [r, g, b] = [0, 2, 4].map((i) => {
    const c = Number.parseInt(m[1]!.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** [foreground, background, minimum ratio] as used by the stylesheet. */
const PAIRS: [string, string, number][] = [
  ...["bg", "surface", "surface-2", "highlight"].flatMap((bg): [string, string, number][] => [
    ["text", bg, 4.5],
    ["text-muted", bg, 4.5],
    ["link", bg, 4.5],
  ]),
  ["up", "bg", 4.5],
  ["down", "bg", 4.5],
  ["up", "highlight", 4.5],
  ["down", "highlight", 4.5],
  ["up", "surface", 4.5],
  ["down", "surface", 4.5],
  ["danger", "bg", 4.5],
  ["danger", "danger-surface", 4.5],
  ["on-accent", "accent", 4.5],
  ["on-accent", "accent-hover", 4.5],
  ["on-success", "success", 4.5],
  ["tooltip-text", "tooltip-bg", 4.5],
  ["open-text", "open-bg", 4.5],
  ["disabled-text", "disabled-bg", 4.5],
  ["disabled-text", "bg", 4.5],
  // Non-text contrast (WCAG 1.4.11): focus ring, control borders, selected-tab bar, icons.
  ["focus", "bg", 3],
  ["focus", "surface", 3],
  ["border-strong", "bg", 3],
  ["accent", "bg", 3],
  ["accent", "surface", 3],
  ["success", "bg", 3],
  ["danger", "surface", 3],
  ["placeholder", "surface-2", 3],
];

describe("styles.css", () => {
  for (const [name, theme] of [
    ["light", light],
    ["dark", dark],
    ["auto (dark)", autoDark],
  ] as const) {
    it(`meets WCAG AA contrast in the ${name} theme`, () => {
      const failures = PAIRS.flatMap(([fg, bg, min]) => {
        const a = theme[`--gf-color-${fg}`];
        const b = theme[`--gf-color-${bg}`];
        if (!a || !b) return [`missing --gf-color-${!a ? fg : bg}`];
        const ratio = contrast(a, b);
        return ratio >= min ? [] : [`${fg} on ${bg}: ${ratio.toFixed(2)} < ${min}`];
      });
      expect(failures).toEqual([]);
    });
  }

  it("sets the toggles for each theme: light and auto by default, dark, auto under a dark system", () => {
    expect(themeOf(OUTERMOST)).toBe("light");
    expect(themeOf(THEMED("light"))).toBe("light");
    expect(themeOf(THEMED("auto"))).toBe("light");
    expect(themeOf(THEMED("dark"))).toBe("dark");
    expect(themeOf(THEMED("auto"), DARK_MEDIA)).toBe("dark");
    // The dark rules come after the light one: an outermost root with data-theme="dark" matches
    // both (same zero specificity), and the later wins.
    const themes = rules.map((r) => toggleTheme(r.vars));
    expect(themes.indexOf("dark")).toBeGreaterThan(themes.lastIndexOf("light"));
    // An empty toggle is one space, not `--gf-is-light:;` (that form is invalid in older
    // browsers): toggleTheme only accepts the space, this guards it in the text too.
    expect(css).not.toMatch(/--gf-is-(dark|light)\s*:;/);
  });

  it("defines the same colour tokens in every theme: each one holds a light and a dark value", () => {
    const colours = Object.keys(light).filter((k) => k.startsWith("--gf-color-"));
    const both = palette(source);
    expect(Object.keys(both).sort()).toEqual([...colours, "--gf-shadow"].sort());
    for (const [name, { light: l, dark: d }] of Object.entries(both)) {
      expect(l, name).not.toBe("");
      expect(d, name).not.toBe("");
      expect(l, name).not.toContain("var(");
      expect(d, name).not.toContain("var(");
    }
    // Most colours differ between the themes (a swapped or lost toggle would make them equal).
    expect(colours.filter((c) => light[c] !== dark[c]).length).toBeGreaterThan(20);
    expect(autoDark).toEqual(dark);
  });

  it("declares the palette once: no token in more than one rule, no light-dark()", () => {
    const seen = new Map<string, string>();
    const twice: string[] = [];
    const colours = new Set(Object.keys(palette(source)));
    for (const rule of rules) {
      // Components may set a size token locally (`--gf-portrait-size` in slots); never a colour.
      if (!isRootRule(rule)) {
        for (const name of Object.keys(rule.vars)) {
          if (colours.has(name) || name.startsWith("--gf-is-"))
            twice.push(`${name} in "${rule.selector}"`);
        }
        continue;
      }
      for (const name of Object.keys(rule.vars)) {
        if (name.startsWith("--gf-is-")) continue;
        if (seen.has(name)) twice.push(`${name} in "${seen.get(name)}" and "${rule.selector}"`);
        seen.set(name, rule.selector);
      }
    }
    expect(twice).toEqual([]);
    // A rule that sets the toggles sets both, to a theme, and no colour: the palette stays apart.
    for (const rule of rules.filter((r) => "--gf-is-dark" in r.vars || "--gf-is-light" in r.vars)) {
      expect(toggleTheme(rule.vars), rule.selector).toBeDefined();
      expect(
        Object.keys(rule.vars).filter((name) => colours.has(name)),
        rule.selector,
      ).toEqual([]);
    }
    expect(css).not.toContain("light-dark(");
  });

  it("declares the palette on every root that sets a theme, so a nested root resolves its own", () => {
    const paletteRule = rules.find((r) => "--gf-color-bg" in r.vars);
    expect(paletteRule?.at).toEqual([]);
    expect(selectors(paletteRule!).sort()).toEqual(
      [OUTERMOST, THEMED("light"), THEMED("dark"), THEMED("auto")].sort(),
    );
    for (const name of Object.keys(palette(source)))
      expect(paletteRule!.vars, name).toHaveProperty(name);
  });

  it("scopes every rule under .gf-root and prefixes every class with gf-", () => {
    const withoutKeyframes = css.replace(/@keyframes[^{]+\{(?:[^{}]*\{[^{}]*\})*[^{}]*\}/g, "");
    const selectors = [...withoutKeyframes.matchAll(/([^{};]+)\{/g)]
      .map((m) => m[1]!.trim())
      .filter((s) => !s.startsWith("@"));
    expect(selectors.length).toBeGreaterThan(50);
    for (const list of selectors) {
      for (const selector of list.split(/,(?![^(]*\))/)) {
        expect(selector.trim(), list).toMatch(/^(\.gf-root\b|:where\(\.gf-root\b)/);
      }
    }
    const classes = new Set(
      [...withoutKeyframes.matchAll(/\.(-?[_a-zA-Z][\w-]*)/g)].map((m) => m[1]),
    );
    for (const c of classes) expect(c).toMatch(/^gf-/);
    for (const m of css.matchAll(/@keyframes\s+([\w-]+)/g)) expect(m[1]).toMatch(/^gf-/);
    for (const m of css.matchAll(/(?:^|[;{\s])(--[\w-]+)\s*:/g)) expect(m[1]).toMatch(/^--gf-/);
  });

  it("is documented: the README lists every variable, with both values of each colour", () => {
    const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
    for (const name of Object.keys(light)) expect(readme, name).toContain(`\`${name}\``);
    for (const [name, { light: l, dark: d }] of Object.entries(palette(source))) {
      const row = readme.split("\n").find((line) => line.startsWith(`| \`${name}\``));
      expect(row, name).toContain(`\`${l}\``);
      expect(row, name).toContain(`\`${d}\``);
    }
  });

  it("uses only defined variables", () => {
    const defined = new Set([...Object.keys(light), "--gf-is-dark", "--gf-is-light"]);
    for (const m of css.matchAll(/var\((--[\w-]+)/g)) expect(defined, m[1]).toContain(m[1]);
  });
});
