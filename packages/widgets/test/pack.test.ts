// @vitest-environment node
/**
 * Packs the built package, installs the tarball into a scratch React 18 app outside the
 * workspace, and uses it from there: every component rendered on the server
 * (renderToString) and in jsdom (render + hydrate), from ESM `import` and CJS `require`,
 * plus a type-check of a TypeScript consumer. A file missing from `files` or `exports` fails.
 */
import { execFileSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const pkgDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const fixtures = join(pkgDir, "test", "fixtures", "consumer");
const require = createRequire(join(pkgDir, "package.json"));
const pkg = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8"));

/** Environment for child npm/node processes, without the parent npm run's settings. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(npm_|INIT_CWD$|NODE_OPTIONS$|VITEST|TURBO_)/i.test(k)) continue;
    env[k] = v;
  }
  return { ...env, ...extra };
}

function run(cmd: string, args: string[], cwd: string, extra: Record<string, string> = {}): string {
  try {
    return execFileSync(cmd, args, {
      cwd,
      env: cleanEnv(extra),
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(
      `${cmd} ${args.join(" ")} failed:\n${e.stdout ?? ""}\n${e.stderr ?? e.message}`,
    );
  }
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/** Every file path named in `exports`. */
function exportTargets(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (value && typeof value === "object") return Object.values(value).flatMap(exportTargets);
  return [];
}

const npm = process.platform === "win32" ? "npm.cmd" : "npm";
let scratch = "";
let packedFiles: string[] = [];

beforeAll(() => {
  // Build when dist is missing or older than the sources (turbo builds before testing anyway).
  const built = join(pkgDir, "dist", "index.js");
  const stale =
    !existsSync(built) ||
    statSync(built).mtimeMs <
      Math.max(newestMtime(join(pkgDir, "src")), statSync(join(pkgDir, "tsup.config.ts")).mtimeMs);
  if (stale) run(npm, ["run", "build"], pkgDir);

  scratch = mkdtempSync(join(tmpdir(), "gf-widgets-pack-"));
  const packJson = run(
    npm,
    ["pack", "--json", "--ignore-scripts", "--pack-destination", scratch],
    pkgDir,
  );
  const [info] = JSON.parse(packJson.slice(packJson.indexOf("["))) as [
    { filename: string; files: { path: string }[] },
  ];
  packedFiles = info.files.map((f) => f.path);

  const app = join(scratch, "app");
  cpSync(fixtures, app, { recursive: true });
  writeFileSync(
    join(app, "package.json"),
    JSON.stringify({ name: "scratch-react-18-app", private: true, version: "0.0.0" }, null, 2),
  );
  run(
    npm,
    [
      "install",
      "--prefer-offline",
      "--no-audit",
      "--no-fund",
      "--no-package-lock",
      "--loglevel=error",
      "react@18.3.1",
      "react-dom@18.3.1",
      "@types/react@18.3",
      "@types/react-dom@18.3",
      join(scratch, info.filename),
    ],
    app,
  );
}, 240_000);

afterAll(() => {
  if (scratch && !process.env.GF_KEEP_SCRATCH) rmSync(scratch, { recursive: true, force: true });
});

describe("the packed @game/widgets", { timeout: 120_000 }, () => {
  it("ships every file named in exports, and no sources or tests", () => {
    const targets = [...exportTargets(pkg.exports), pkg.main, pkg.module, pkg.types];
    for (const target of targets) expect(packedFiles).toContain(target.replace(/^\.\//, ""));
    expect(packedFiles).toContain("README.md");
    expect(packedFiles).toContain("LICENSE");
    expect(packedFiles.filter((f) => f.startsWith("src/") || f.includes(".test."))).toEqual([]);
  });

  it('marks component entries "use client" (first statement), not the API client', () => {
    const dist = join(scratch, "app", "node_modules", "@game", "widgets", "dist");
    for (const file of readdirSync(dist).filter((f) => /\.c?js$/.test(f))) {
      const head = readFileSync(join(dist, file), "utf8").slice(0, 13);
      if (file.startsWith("client.")) expect(head, file).not.toBe('"use client";');
      else expect(head, file).toBe('"use client";');
    }
  });

  it("does not need @game/core at runtime or for types", () => {
    const installed = join(scratch, "app", "node_modules", "@game", "widgets");
    const manifest = JSON.parse(readFileSync(join(installed, "package.json"), "utf8"));
    expect(Object.keys(manifest.dependencies ?? {})).toEqual([]);
    expect(manifest.private).toBeFalsy();
    expect(existsSync(join(scratch, "app", "node_modules", "@game", "core"))).toBe(false);
    const dist = join(installed, "dist");
    for (const file of readdirSync(dist).filter((f) => !f.endsWith(".map"))) {
      expect(readFileSync(join(dist, file), "utf8"), file).not.toMatch(/@game\/core/);
    }
  });

  it("renders every component via ESM import (server + jsdom + hydration)", () => {
    const out = run(process.execPath, ["esm.mjs"], join(scratch, "app"), {
      JSDOM_PATH: require.resolve("jsdom"),
    });
    const result = JSON.parse(out.trim().split("\n").pop()!);
    expect(result.ssr).toHaveLength(7);
    expect(result.jsdom).toEqual(result.ssr);
  });

  it("renders every component via CJS require (server + jsdom + hydration)", () => {
    const out = run(process.execPath, ["cjs.cjs"], join(scratch, "app"), {
      JSDOM_PATH: require.resolve("jsdom"),
    });
    const result = JSON.parse(out.trim().split("\n").pop()!);
    expect(result.ssr).toEqual([
      "TeamGrid",
      "RacerTable",
      "RequirementChecklist",
      "PlayerRankings",
      "LeagueRankings",
      "EventCard",
      "EventList",
    ]);
    expect(result.jsdom).toEqual(result.ssr);
  });

  it("type-checks a TypeScript consumer (bundler and node16 resolution)", () => {
    const tsc = require.resolve("typescript/bin/tsc");
    const app = join(scratch, "app");
    const common = [
      "--noEmit",
      "--strict",
      "--jsx",
      "react-jsx",
      "--target",
      "es2022",
      "--skipLibCheck",
      "false",
    ];
    run(
      process.execPath,
      [tsc, ...common, "--module", "esnext", "--moduleResolution", "bundler", "consumer.tsx"],
      app,
    );
    run(
      process.execPath,
      [tsc, ...common, "--module", "node16", "--moduleResolution", "node16", "consumer.tsx"],
      app,
    );
  });
});
