// @vitest-environment node
/**
 * Packs the built package and uses the tarball as a host app outside the workspace would, with
 * React 18.3.1: every component rendered on the server (renderToString) and in jsdom (render +
 * hydrate), from ESM `import` and CJS `require`; a browser app bundled from every export path
 * (esbuild); a type-check of a TypeScript consumer (bundler and node16 resolution); a React
 * Server Components build of the pure helpers; and the tarball linted by publint and
 * arethetypeswrong. A file missing from `files` or `exports` fails.
 *
 * Offline: the tarball is unpacked into the scratch app's node_modules, and React (with its
 * types) is linked from the workspace's, so no registry is needed.
 */
import { execFileSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";
import { publint } from "publint";
import { formatMessage } from "publint/utils";
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

/** The package's public paths. Adding or removing one is a deliberate change: update this list. */
const EXPORT_PATHS = [
  ".",
  "./team-grid",
  "./racer-table",
  "./requirement-checklist",
  "./player-rankings",
  "./league-rankings",
  "./event-list",
  "./client",
  "./helpers",
  "./hooks",
  "./live-scores",
  "./styles.css",
  "./package.json",
];
/** Entries without a "use client" directive: plain code that servers may call. */
const SERVER_SAFE = ["client", "helpers"];
/** Linked into the scratch app from the workspace's node_modules. */
const LINKED = ["react", "react-dom", "@types/react", "@types/react-dom"];

const npm = process.platform === "win32" ? "npm.cmd" : "npm";
let scratch = "";
let app = "";
let tarball = "";
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

  tarball = join(scratch, info.filename);

  app = join(scratch, "app");
  cpSync(fixtures, app, { recursive: true });
  writeFileSync(
    join(app, "package.json"),
    JSON.stringify({ name: "scratch-react-18-app", private: true, version: "0.0.0" }, null, 2),
  );
  // What `npm install <tarball>` would put there: the tarball's `package/` folder.
  const modules = join(app, "node_modules");
  mkdirSync(join(modules, "@game"), { recursive: true });
  mkdirSync(join(modules, "@types"), { recursive: true });
  run("tar", ["-xzf", tarball, "-C", join(modules, "@game")], app);
  renameSync(join(modules, "@game", "package"), join(modules, "@game", "widgets"));
  for (const name of LINKED) {
    symlinkSync(dirname(require.resolve(`${name}/package.json`)), join(modules, name), "junction");
  }
}, 120_000);

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

  it("exports exactly the listed paths, with the publishing metadata", () => {
    expect(Object.keys(pkg.exports)).toEqual(EXPORT_PATHS);
    const manifest = JSON.parse(
      readFileSync(join(app, "node_modules", "@game", "widgets", "package.json"), "utf8"),
    );
    expect(manifest.publishConfig).toEqual({ access: "public" });
    expect(manifest.repository).toMatchObject({ type: "git", directory: "packages/widgets" });
    expect(manifest.homepage).toMatch(/^https:\/\//);
    expect(manifest.bugs.url).toMatch(/^https:\/\//);
    expect(manifest.engines.node).toBeTruthy();
    expect(packedFiles).toContain("CHANGELOG.md");
  });

  it('marks component entries "use client" (first statement), not the client and helpers', () => {
    const dist = join(app, "node_modules", "@game", "widgets", "dist");
    for (const file of readdirSync(dist).filter((f) => /\.c?js$/.test(f))) {
      const head = readFileSync(join(dist, file), "utf8").slice(0, 13);
      if (SERVER_SAFE.includes(file.replace(/\.c?js$/, ""))) {
        expect(head, file).not.toBe('"use client";');
      } else {
        expect(head, file).toBe('"use client";');
      }
    }
  });

  it("passes publint: no errors, warnings or suggestions", async () => {
    const data = readFileSync(tarball);
    const { messages, pkg: manifest } = await publint({
      pack: { tarball: data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) },
      level: "suggestion",
      strict: true,
    });
    const found = messages.map((m) => `${m.type}: ${formatMessage(m, manifest, { color: false })}`);
    expect(found).toEqual([]);
  });

  it("passes arethetypeswrong for node16 (from CJS and from ESM) and bundler resolution", () => {
    // The `node16` profile leaves out `node10` (TypeScript's legacy `moduleResolution: node`),
    // which ignores `exports` and so cannot see any subpath; the stylesheet has no types.
    const attwPkg = require.resolve("@arethetypeswrong/cli/package.json");
    const attw = join(dirname(attwPkg), JSON.parse(readFileSync(attwPkg, "utf8")).bin.attw);
    let out: string;
    try {
      out = execFileSync(
        process.execPath,
        [
          attw,
          tarball,
          "--format",
          "json",
          "--profile",
          "node16",
          "--exclude-entrypoints",
          "./styles.css",
        ],
        { cwd: scratch, env: cleanEnv(), encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
      );
    } catch (error) {
      // attw exits 1 when it found problems; its JSON is on stdout all the same.
      out = (error as { stdout?: string }).stdout ?? "";
    }
    const report = JSON.parse(out) as {
      analysis: {
        entrypoints: Record<string, { resolutions: Record<string, unknown> }>;
        problems: { kind: string; entrypoint?: string; resolutionKind?: string }[];
      };
    };
    const problems = report.analysis.problems
      .filter((p) => p.resolutionKind !== "node10")
      .map((p) => `${p.kind} (${p.entrypoint ?? ""}, ${p.resolutionKind ?? ""})`);
    expect(problems).toEqual([]);
    expect(Object.keys(report.analysis.entrypoints).sort()).toEqual(
      EXPORT_PATHS.filter((e) => e !== "./styles.css").sort(),
    );
  });

  it("builds a browser app that imports every export path (esbuild, from the tarball)", async () => {
    const source = readFileSync(join(app, "app.tsx"), "utf8");
    const imported = new Set(
      [...source.matchAll(/from "(@game\/widgets[^"]*)"|import "(@game\/widgets[^"]*)"/g)].map(
        (m) => (m[1] ?? m[2])!.replace("@game/widgets", "."),
      ),
    );
    expect([...imported].sort()).toEqual(EXPORT_PATHS.filter((e) => e !== "./package.json").sort());
    const result = await esbuild.build({
      absWorkingDir: app,
      entryPoints: ["app.tsx"],
      bundle: true,
      format: "esm",
      platform: "browser",
      jsx: "automatic",
      minify: true,
      outdir: "out",
      metafile: true,
      logLevel: "silent",
      define: { "process.env.NODE_ENV": '"production"' },
    });
    expect(result.errors).toEqual([]);
    const outputs = Object.keys(result.metafile.outputs);
    expect(outputs.some((f) => f.endsWith(".js"))).toBe(true);
    const css = outputs.find((f) => f.endsWith(".css"));
    expect(css && readFileSync(join(app, css), "utf8")).toContain(".gf-root");
    // Everything came from the tarball and the app, none of it from the workspace's sources.
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter((f) => f.includes("@game/widgets/dist/")).length).toBeGreaterThan(0);
    expect(inputs.filter((f) => f.includes("packages/") || f.includes("/src/"))).toEqual([]);
  });

  it(
    "helpers work in a server components build (react-server condition; " +
      '"use client" modules become client references, as RSC bundlers make them)',
    async () => {
      // What an RSC bundler (Next.js app router) does to a module marked "use client" in the
      // server graph: every export becomes a client reference, and calling one throws React's
      // error. Not Next.js itself: this proves the helpers entry is no such module and needs no
      // React, and that the "use client" entries fail there as they do in Next.js. React stays
      // external (its own `react-server` build is experimental-only in React 18).
      const clientReferences: esbuild.Plugin = {
        name: "rsc-client-references",
        setup(build) {
          build.onLoad({ filter: /\.[cm]?js$/ }, async (args) => {
            if (!readFileSync(args.path, "utf8").startsWith('"use client";')) return undefined;
            const probe = await esbuild.build({
              entryPoints: [args.path],
              bundle: true,
              write: false,
              metafile: true,
              format: "esm",
              outdir: "probe",
              external: ["react", "react-dom", "react/*", "react-dom/*"],
              logLevel: "silent",
            });
            const names = Object.values(probe.metafile.outputs).flatMap((o) => o.exports);
            const ref = (name: string) =>
              `Object.defineProperties(function () { throw new Error(${JSON.stringify(
                `Attempted to call ${name}() from the server but ${name} is on the client. ` +
                  "It's not possible to invoke a client function from the server, it can only " +
                  "be rendered as a Component or passed to props of a Client Component.",
              )}); }, { $$typeof: { value: Symbol.for("react.client.reference") } })`;
            const contents = names
              .map((n) =>
                n === "default" ? `export default ${ref(n)};` : `export const ${n} = ${ref(n)};`,
              )
              .join("\n");
            return { contents, loader: "js" };
          });
        },
      };
      const result = await esbuild.build({
        absWorkingDir: app,
        entryPoints: ["rsc.tsx", "rsc-client-entries.tsx"],
        bundle: true,
        format: "esm",
        platform: "node",
        conditions: ["react-server"],
        jsx: "automatic",
        outdir: "rsc-out",
        outExtension: { ".js": ".mjs" },
        external: ["react", "react-dom", "react/*", "react-dom/*"],
        metafile: true,
        logLevel: "silent",
        plugins: [clientReferences],
      });
      expect(result.errors).toEqual([]);

      // The helpers entry's module graph: the tarball's helpers file only, no React, no marker.
      const helpersGraph = await esbuild.build({
        absWorkingDir: app,
        stdin: { contents: 'export * from "@game/widgets/helpers";', resolveDir: app },
        bundle: true,
        write: false,
        format: "esm",
        platform: "node",
        conditions: ["react-server"],
        metafile: true,
        logLevel: "silent",
      });
      const inputs = Object.keys(helpersGraph.metafile.inputs).filter((f) => f !== "<stdin>");
      expect(inputs).toEqual(["node_modules/@game/widgets/dist/helpers.js"]);
      const helpersCode = readFileSync(join(app, inputs[0]!), "utf8");
      expect(helpersCode).not.toMatch(/^\s*["']use client["']/);
      expect(helpersCode).not.toMatch(/from\s*["']react/);

      const out = JSON.parse(run(process.execPath, ["rsc-run.mjs"], app).trim().split("\n").pop()!);
      expect(out.rsc).toBe(
        "<ol><li>Amaury Pierron<!-- -->: <!-- -->$200,000</li>" +
          "<li>Loic Bruni<!-- -->: <!-- -->$180,000</li>" +
          "<li>Vali Höll<!-- -->: <!-- -->$160,000</li></ol>",
      );
      // The control: the README's old imports fail in the same build, as in Next.js.
      expect(out["rsc-client-entries"]).toEqual({
        error: expect.stringMatching(/^Attempted to call sortRacers\(\) from the server/),
      });
    },
  );

  it("does not need @game/core at runtime or for types", () => {
    const installed = join(app, "node_modules", "@game", "widgets");
    const manifest = JSON.parse(readFileSync(join(installed, "package.json"), "utf8"));
    expect(Object.keys(manifest.dependencies ?? {})).toEqual([]);
    expect(manifest.private).toBeFalsy();
    expect(existsSync(join(app, "node_modules", "@game", "core"))).toBe(false);
    const dist = join(installed, "dist");
    for (const file of readdirSync(dist).filter((f) => !f.endsWith(".map"))) {
      expect(readFileSync(join(dist, file), "utf8"), file).not.toMatch(/@game\/core/);
    }
  });

  it("renders every component via ESM import (server + jsdom + hydration)", () => {
    const out = run(process.execPath, ["esm.mjs"], app, {
      JSDOM_PATH: require.resolve("jsdom"),
    });
    const result = JSON.parse(out.trim().split("\n").pop()!);
    expect(result.ssr).toHaveLength(7);
    expect(result.jsdom).toEqual(result.ssr);
  });

  it("renders every component via CJS require (server + jsdom + hydration)", () => {
    const out = run(process.execPath, ["cjs.cjs"], app, {
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

  it("type-checks TypeScript consumers (bundler and node16 resolution)", () => {
    const tsc = require.resolve("typescript/bin/tsc");
    const files = ["consumer.tsx", "app.tsx", "rsc.tsx", "rsc-client-entries.tsx"];
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
      [tsc, ...common, "--module", "esnext", "--moduleResolution", "bundler", ...files],
      app,
    );
    run(
      process.execPath,
      [tsc, ...common, "--module", "node16", "--moduleResolution", "node16", ...files],
      app,
    );
  });
});
