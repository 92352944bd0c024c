// @vitest-environment node
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const css = readFileSync(new URL("./styles.css", import.meta.url), "utf8").replace(
  /\/\*[\s\S]*?\*\//g,
  "",
);

/** The declarations of the first rule whose selector list contains `selector`. */
function variables(selectorPart: string, from = 0): Record<string, string> {
  const start = css.indexOf(selectorPart, from);
  const open = css.indexOf("{", start);
  const close = css.indexOf("}", open);
  const vars: Record<string, string> = {};
  for (const m of css.slice(open + 1, close).matchAll(/(--gf-[\w-]+):\s*([^;]+);/g)) {
    vars[m[1]!] = m[2]!.trim();
  }
  return vars;
}

const light = variables(":where(.gf-root:not(");
const dark = { ...light, ...variables(':where(.gf-root[data-theme="dark"])') };
const autoDark = {
  ...light,
  ...variables(':where(.gf-root[data-theme="auto"])', css.indexOf("@media (prefers-color-scheme")),
};

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

  it("defines the same colour tokens in every theme", () => {
    const colours = (vars: Record<string, string>) =>
      Object.keys(vars)
        .filter((k) => k.startsWith("--gf-color-"))
        .sort();
    const darkOnly = variables(':where(.gf-root[data-theme="dark"])');
    const autoOnly = variables(
      ':where(.gf-root[data-theme="auto"])',
      css.indexOf("@media (prefers-color-scheme"),
    );
    expect(colours(darkOnly)).toEqual(colours(light));
    expect(autoOnly).toEqual(darkOnly);
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

  it("is documented: the README lists every variable", () => {
    const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
    for (const name of Object.keys(light)) expect(readme, name).toContain(`\`${name}\``);
  });

  it("uses only defined variables", () => {
    const defined = new Set(Object.keys(light));
    for (const m of css.matchAll(/var\((--[\w-]+)/g)) expect(defined, m[1]).toContain(m[1]);
  });
});
