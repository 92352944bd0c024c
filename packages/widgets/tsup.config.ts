import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { defineConfig, type Options } from "tsup";

/** One entry per public subpath (see `exports` in package.json). */
const components = {
  index: "src/index.ts",
  "team-grid": "src/team-grid.tsx",
  "racer-table": "src/racer-table.tsx",
  "requirement-checklist": "src/requirement-checklist.tsx",
  "player-rankings": "src/player-rankings.tsx",
  "league-rankings": "src/league-rankings.tsx",
  "event-list": "src/event-list.tsx",
  hooks: "src/hooks.ts",
  "live-scores": "src/live-scores.ts",
};

// Clean once here: the two builds below run in parallel and must not clean each other's files.
rmSync("dist", { recursive: true, force: true });

const shared: Options = {
  format: ["esm", "cjs"],
  dts: true,
  sourcemap: true,
  target: "es2020",
  platform: "neutral",
  external: ["react", "react-dom", "react/jsx-runtime"],
  clean: false,
  splitting: true,
};

export default defineConfig([
  {
    ...shared,
    entry: components,
    // React Server Components hosts (Next.js app router) need the boundary marker.
    banner: { js: '"use client";' },
    onSuccess: async () => {
      mkdirSync("dist", { recursive: true });
      copyFileSync("src/styles.css", "dist/styles.css");
      // tsup turns split ESM chunks into CJS and puts the banner after its interop prologue and
      // helpers, where it is no longer a directive: move it to the very start.
      const directive = '"use client";';
      for (const file of readdirSync("dist").filter((f) => f.endsWith(".cjs"))) {
        const code = readFileSync(`dist/${file}`, "utf8");
        const at = code.indexOf(directive);
        if (at > 0) {
          const moved = directive + code.slice(0, at) + code.slice(at + directive.length);
          writeFileSync(`dist/${file}`, moved);
        }
      }
    },
  },
  {
    // No "use client" here: the API client and the pure helpers are plain code, callable from
    // server components. Not split: no chunk of this build may be shared with the marked build.
    ...shared,
    entry: { client: "src/client.ts", helpers: "src/helpers.ts" },
    splitting: false,
  },
]);
