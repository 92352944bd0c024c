/**
 * Reads the `--gf-*` declarations of the widget stylesheet, rule by rule, and resolves the
 * theme toggles (`--gf-is-dark`, `--gf-is-light`) the way a browser does, so the stylesheet
 * tests can check each theme's values without a browser. Shared by `src/styles.test.ts` and the
 * real-browser theme test, which compares Chromium's result with these values.
 */

export type Theme = "light" | "dark";

/** One rule: its selector list, the at-rules around it (`@media (…)`), its `--gf-*` values. */
export type TokenRule = { selector: string; at: string[]; vars: Record<string, string> };

/** Both values of a palette token: `var(--gf-is-dark, LIGHT) var(--gf-is-light, DARK)`. */
export type PaletteEntry = Record<Theme, string>;

export function stripComments(css: string): string {
  return css.replace(/\/\*[\s\S]*?\*\//g, "");
}

/** Every style rule that declares at least one `--gf-*` variable, in source order. */
export function tokenRules(source: string): TokenRule[] {
  const css = stripComments(source);
  const rules: TokenRule[] = [];
  const at: string[] = [];
  let start = 0;
  for (let i = 0; i < css.length; i++) {
    if (css[i] === "{") {
      const prelude = css.slice(start, i).trim();
      if (prelude.startsWith("@")) {
        at.push(prelude);
        start = i + 1;
        continue;
      }
      const close = css.indexOf("}", i);
      const vars: Record<string, string> = {};
      // A declaration starts the block or follows a `;`; its value runs to the next `;` or `}`.
      for (const m of css.slice(i + 1, close).matchAll(/(?:^|;)\s*(--gf-[\w-]+)\s*:([^;]*)/g)) {
        vars[m[1]!] = m[2]!;
      }
      if (Object.keys(vars).length > 0) rules.push({ selector: prelude, at: [...at], vars });
      i = close;
      start = close + 1;
    } else if (css[i] === "}") {
      at.pop();
      start = i + 1;
    } else if (css[i] === ";" && css.slice(start, i).trim().startsWith("@")) {
      start = i + 1; // a statement at-rule (`@import …;`)
    }
  }
  return rules;
}

/**
 * A rule of the theme roots (`:where(.gf-root…)`, zero specificity), where the tokens are set;
 * not a component rule that sets a token locally (`.gf-root .gf-slot .gf-portrait`).
 */
export function isRootRule(rule: TokenRule): boolean {
  return rule.selector.split(/,(?![^(]*\))/).every((s) => s.trim().startsWith(":where(.gf-root"));
}

const PALETTE_VALUE = /^\s*var\(--gf-is-dark,\s*(.+?)\)\s+var\(--gf-is-light,\s*(.+)\)\s*$/s;

/** The light and dark values of one palette declaration, or undefined if it is not one. */
export function paletteEntry(value: string): PaletteEntry | undefined {
  const m = PALETTE_VALUE.exec(value);
  if (!m) return undefined;
  // The lazy first group must not have stopped inside a nested `rgb(…)`: parens balance.
  const balanced = (s: string) => s.split("(").length === s.split(")").length;
  if (!balanced(m[1]!) || !balanced(m[2]!)) return undefined;
  return { light: m[1]!.replace(/\s+/g, " ").trim(), dark: m[2]!.replace(/\s+/g, " ").trim() };
}

/** The palette: every token declared in the toggle form, with its two values. */
export function palette(source: string): Record<string, PaletteEntry> {
  const out: Record<string, PaletteEntry> = {};
  for (const rule of tokenRules(source)) {
    for (const [name, value] of Object.entries(rule.vars)) {
      const entry = paletteEntry(value);
      if (entry) out[name] = entry;
    }
  }
  return out;
}

/** The toggles a theme rule sets: light leaves `--gf-is-dark` unset (`initial`), dark the other. */
export function toggleTheme(vars: Record<string, string>): Theme | undefined {
  const dark = vars["--gf-is-dark"];
  const light = vars["--gf-is-light"];
  if (dark === undefined || light === undefined) return undefined;
  const empty = (v: string) => v.trim() === "" && v.length > 0;
  if (dark.trim() === "initial" && empty(light)) return "light";
  if (light.trim() === "initial" && empty(dark)) return "dark";
  return undefined;
}

/**
 * Every variable a root in `theme` ends up with, toggles resolved: the plain tokens of the root
 * rules, and each palette token as its `theme` value.
 */
export function resolvedTokens(source: string, theme: Theme): Record<string, string> {
  const out: Record<string, string> = {};
  for (const rule of tokenRules(source).filter(isRootRule)) {
    for (const [name, value] of Object.entries(rule.vars)) {
      if (name.startsWith("--gf-is-")) continue;
      out[name] = paletteEntry(value)?.[theme] ?? value.replace(/\s+/g, " ").trim();
    }
  }
  return out;
}
