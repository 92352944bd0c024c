import { defineConfig } from "tsup";

export default defineConfig({
  // `testing`: test support for the other packages' tests, kept out of the main entry.
  // `dates`: the date formatter alone, for the widgets (which must not bundle zod).
  entry: ["src/index.ts", "src/testing.ts", "src/dates.ts"],
  format: ["esm", "cjs"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "es2022",
  // The list of top-level domains is a JSON file, which Node's ESM loader cannot import bare.
  noExternal: ["tlds"],
});
