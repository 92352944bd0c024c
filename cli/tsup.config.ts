import { defineConfig } from "tsup";

export default defineConfig({
  entry: ["src/index.ts"],
  format: ["esm"],
  clean: true,
  sourcemap: true,
  target: "node20",
  // The workspace packages stay external: @game/db finds its migrations beside its own files.
  external: ["@game/db", "@game/core"],
});
