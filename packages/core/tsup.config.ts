import { defineConfig } from "tsup";

export default defineConfig({
  // `testing`: test support for the other packages' tests, kept out of the main entry.
  entry: ["src/index.ts", "src/testing.ts"],
  format: ["esm", "cjs"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "es2022",
});
