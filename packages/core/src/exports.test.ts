/**
 * The package's entries (docs/decisions/0164): the main entry for servers, and `@game/core/<module>`
 * for every module it re-exports, so the browser's code takes what it uses. A bundler keeps the
 * main entry whole once anything is taken from it (zod, the CSV parser, the password list).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const read = (file: string) => readFileSync(new URL(file, import.meta.url), "utf8");
const pkg = JSON.parse(read("../package.json")) as {
  sideEffects: unknown;
  exports: Record<string, { types: string; import: string; require: string }>;
};
const barrel = [...read("./index.ts").matchAll(/^export \* from "\.\/([\w-]+)\.js";$/gm)].map(
  (m) => m[1]!,
);

/** The modules the web app's pages take in the browser: no zod, no CSV parser, no big lists. */
const PAGE_MODULES = [
  "categories",
  "constants",
  "dates",
  "events",
  "format",
  "name-messages",
  "pricing",
  "rules",
  "scoring",
  "selling-price",
  "team",
];

/** What a source module imports at run time (`import type` leaves nothing behind). */
function runtimeImports(module: string): string[] {
  const source = read(`./${module}.ts`);
  return [...source.matchAll(/^(?:import|export)(?!\s+type\b)[^;]*?from\s+"([^"]+)";/gm)].map(
    (m) => m[1]!,
  );
}

/** Every module `module` loads at run time, itself included (`./x.js` as `x`, packages as named). */
function closure(module: string): Set<string> {
  const seen = new Set<string>();
  const todo = [module];
  for (let m = todo.pop(); m !== undefined; m = todo.pop()) {
    if (seen.has(m)) continue;
    seen.add(m);
    if (m.startsWith("pkg:")) continue;
    for (const s of runtimeImports(m)) {
      todo.push(s.startsWith("./") ? s.slice(2).replace(/\.js$/, "") : `pkg:${s}`);
    }
  }
  return seen;
}

describe("@game/core's entries", () => {
  it("has one per module of the main entry, plus the main entry and the test support", () => {
    expect(barrel.length).toBeGreaterThan(20);
    expect(Object.keys(pkg.exports).sort()).toEqual(
      [".", "./testing", ...barrel.map((m) => `./${m}`)].sort(),
    );
    for (const [subpath, target] of Object.entries(pkg.exports)) {
      const name = subpath === "." ? "index" : subpath.slice(2);
      expect(target).toEqual({
        types: `./dist/${name}.d.ts`,
        import: `./dist/${name}.js`,
        require: `./dist/${name}.cjs`,
      });
    }
  });

  it("declares no side effects, so a bundler drops what a page does not use", () => {
    expect(pkg.sideEffects).toBe(false);
  });

  it("keeps the modules pages use free of other packages and of the password list", () => {
    expect(closure("format")).toEqual(new Set(["format"]));
    for (const module of PAGE_MODULES) {
      const loads = [...closure(module)];
      expect(
        loads.filter((m) => m.startsWith("pkg:")),
        module,
      ).toEqual([]);
      expect(loads, module).not.toContain("common-passwords");
      expect(loads, module).not.toContain("rules-schema");
    }
  });
});
