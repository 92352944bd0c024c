import { readFileSync } from "node:fs";
import { defineConfig } from "tsup";

/**
 * The modules the main entry re-exports (`export * from "./rules.js"` -> `rules`): each is also an
 * entry of its own, `@game/core/<module>`, so the browser's code imports what it uses and no more
 * (the main entry is one module to a bundler: a page taking a constant from it shipped the CSV
 * parser, the common-password list and zod; docs/decisions/0164).
 */
const MODULES = [
  ...readFileSync(new URL("./src/index.ts", import.meta.url), "utf8").matchAll(
    /^export \* from "\.\/([\w-]+)\.js";$/gm,
  ),
].map((m) => m[1]!);

export default defineConfig({
  // `testing`: test support for the other packages' tests, kept out of the main entry.
  entry: ["src/index.ts", "src/testing.ts", ...MODULES.map((m) => `src/${m}.ts`)],
  format: ["esm", "cjs"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "es2022",
  // The list of top-level domains is a JSON file, which Node's ESM loader cannot import bare.
  noExternal: ["tlds"],
});
