// The server's build (`npm run build`, after Remix's): build/server.js, the server (server.ts and
// server/*.ts, with the app modules they share) compiled into one file for Node, npm packages
// left as imports. Then build/ is made a folder that runs without the repository
// (docs/decisions/0167-typescript-server-and-production-build.md):
//
//   build/package.json   the runtime dependencies only, at the lockfile's exact versions
//   build/packages/      the workspace packages Remix's server build imports (@game/db with its
//                        migrations and seed files, @game/core), as `file:` dependencies
//   build/patches/       the patches of npm packages the app runs with, applied at install
//
// `--dev` compiles build/server.js only (`npm run dev`: Vite serves the app's code).

import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build, type Metafile } from "esbuild";
import { precompress } from "./precompress.js";

const webRoot = fileURLToPath(new URL("..", import.meta.url));
const repoRoot = path.resolve(webRoot, "../..");
const out = path.join(webRoot, "build");
const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;

/** The compiled server, in build/: what `npm start` and the production folder run. */
export const SERVER_FILE = "server.js";
/** How the production folder starts (its package.json's `npm start`). */
export const PRODUCTION_START = `NODE_ENV=production node ${SERVER_FILE}`;

/** Imported by the server in development only (`npm run dev`), never by the built app. */
const DEV_ONLY = new Set(["vite"]);
/** The workspace packages the built app needs at run time, by folder under packages/. */
const WORKSPACE = { "@game/core": "core", "@game/db": "db" } as const;
/** What a workspace package brings to the production folder, beside its package.json. */
const PACKAGE_FILES = ["dist", "drizzle", "seed"];

interface PackageJson {
  name: string;
  version: string;
  type?: string;
  engines?: Record<string, string>;
  exports?: unknown;
  main?: string;
  module?: string;
  types?: string;
  sideEffects?: unknown;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, "utf8")) as T;

/** The package a bare import names: `@scope/name` or `name`, without a subpath. */
export function packageOf(specifier: string): string {
  const parts = specifier.split("/");
  return (specifier.startsWith("@") ? parts.slice(0, 2) : parts.slice(0, 1)).join("/");
}

/** Whether an import is Node's own (`node:fs`, `fs`). */
const isBuiltin = (specifier: string) =>
  specifier.startsWith("node:") || builtinModules.includes(packageOf(specifier));

/** The npm packages the bundles of `metafile` import, by name. */
function importedPackages(metafile: Metafile): Set<string> {
  const names = new Set<string>();
  for (const output of Object.values(metafile.outputs)) {
    for (const imported of output.imports) {
      if (!imported.external || imported.path.startsWith(".") || isBuiltin(imported.path)) continue;
      names.add(packageOf(imported.path));
    }
  }
  return names;
}

/** Compiles server.ts into build/server.js; returns what it imports. */
async function compileServer(): Promise<Set<string>> {
  const result = await build({
    entryPoints: [path.join(webRoot, "server.ts")],
    outfile: path.join(out, SERVER_FILE),
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    // npm packages stay imports (installed beside the build); our own modules are compiled in.
    packages: "external",
    tsconfig: path.join(webRoot, "tsconfig.json"),
    sourcemap: true,
    metafile: true,
    logLevel: "warning",
    banner: { js: "// Built from apps/web/server.ts by server/build.ts: edit those, not this." },
  });
  return importedPackages(result.metafile);
}

/** What Remix's server build (build/server/index.js) imports, read by esbuild without writing. */
async function remixImports(): Promise<Set<string>> {
  const result = await build({
    entryPoints: [path.join(out, "server", "index.js")],
    bundle: true,
    platform: "node",
    format: "esm",
    packages: "external",
    write: false,
    outdir: path.join(out, ".imports"),
    metafile: true,
    logLevel: "warning",
  });
  return importedPackages(result.metafile);
}

/**
 * The exact version the repository runs with (package-lock.json) of a package, as the workspace
 * `folder` (e.g. "apps/web") that lists it resolves it: its own node_modules first, then the root's.
 */
type LockedVersion = (name: string, folder: string) => string;

function lockedVersions(): LockedVersion {
  const lock = readJson<{ packages: Record<string, { version?: string }> }>(
    path.join(repoRoot, "package-lock.json"),
  );
  return (name, folder) => {
    const version =
      (folder ? lock.packages[`${folder}/node_modules/${name}`]?.version : undefined) ??
      lock.packages[`node_modules/${name}`]?.version;
    if (!version) throw new Error(`${name} is not in package-lock.json: run npm install`);
    return version;
  };
}

/** A workspace package's manifest and its folder in the repository. */
interface Workspace {
  folder: string;
  pkg: PackageJson;
}

/** The app's runtime dependencies: what its bundles import, each at the lockfile's version. */
export function runtimeDependencies(
  imported: Iterable<string>,
  declared: Workspace[],
  version: LockedVersion,
): Record<string, string> {
  const deps: Record<string, string> = {};
  for (const name of [...new Set(imported)].sort()) {
    if (DEV_ONLY.has(name) || name in WORKSPACE) continue;
    // The first that lists it (the web app before the packages) says which copy the app runs.
    const owner = declared.find((w) => w.pkg.dependencies?.[name] !== undefined);
    if (!owner || name.startsWith("@game/")) {
      throw new Error(
        `The built app imports ${name}, which no workspace package lists in its dependencies.`,
      );
    }
    deps[name] = version(name, owner.folder);
  }
  return deps;
}

/** Copies a workspace package into build/packages, its dependencies pinned like the app's. */
function copyWorkspacePackage(
  folder: string,
  version: LockedVersion,
  patched: Map<string, string>,
): void {
  const from = path.join(repoRoot, "packages", folder);
  const to = path.join(out, "packages", folder);
  const pkg = readJson<PackageJson>(path.join(from, "package.json"));
  mkdirSync(to, { recursive: true });
  for (const entry of PACKAGE_FILES) {
    if (existsSync(path.join(from, entry))) {
      cpSync(path.join(from, entry), path.join(to, entry), { recursive: true });
    }
  }
  const dependencies: Record<string, string> = {};
  for (const name of Object.keys(pkg.dependencies ?? {})) {
    const workspace = WORKSPACE[name as keyof typeof WORKSPACE];
    // A patched package keeps the exact version its patch was made for.
    dependencies[name] = workspace
      ? `file:../${workspace}`
      : (patched.get(name) ?? version(name, `packages/${folder}`));
  }
  const { name, type, exports, main, module, types, sideEffects, peerDependencies } = pkg;
  writeJson(path.join(to, "package.json"), {
    name,
    version: pkg.version,
    private: true,
    type,
    exports,
    main,
    module,
    types,
    sideEffects,
    dependencies,
    peerDependencies,
  });
}

const writeJson = (file: string, value: unknown) =>
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);

/** The npm packages patched at install (patches/<name>+<version>.patch), by name. */
function patchedPackages(): Map<string, { file: string; version: string }> {
  const dir = path.join(repoRoot, "patches");
  const patches = new Map<string, { file: string; version: string }>();
  if (!existsSync(dir)) return patches;
  for (const file of readdirSync(dir)) {
    // patch-package's names: `postgres+3.4.9.patch`, `@scope+name+1.0.0.patch`.
    const m = /^(.+)\+([^+]+)\.patch$/.exec(file);
    if (m?.[1] && m[2]) patches.set(m[1].replace(/\+/g, "/"), { file, version: m[2] });
  }
  return patches;
}

async function main(): Promise<void> {
  const started = Date.now();
  const serverImports = await compileServer();
  if (process.argv.includes("--dev")) return;

  if (!existsSync(path.join(out, "server", "index.js"))) {
    throw new Error("No Remix server build in build/server: run `remix vite:build` first.");
  }
  const compressed = precompress(path.join(out, "client"));
  console.log(
    `build/client: ${compressed.files} files in brotli, ${kb(compressed.bytes)} to ${kb(compressed.brotliBytes)}`,
  );
  const version = lockedVersions();
  const web = readJson<PackageJson>(path.join(webRoot, "package.json"));
  const root = readJson<PackageJson>(path.join(repoRoot, "package.json"));
  const workspace = Object.values(WORKSPACE).map((folder) => ({
    folder: `packages/${folder}`,
    pkg: readJson<PackageJson>(path.join(repoRoot, "packages", folder, "package.json")),
  }));
  const imported = [...serverImports, ...(await remixImports())];
  // The web app's own dependencies all ship (a package may be loaded without a static import);
  // what the bundles import from a workspace package's dependencies (Remix's server build
  // compiles @game/core and @game/widgets in) ships too.
  const dependencies = runtimeDependencies(
    [...imported, ...Object.keys(web.dependencies ?? {}).filter((n) => !n.startsWith("@game/"))],
    [{ folder: "apps/web", pkg: web }, ...workspace],
    version,
  );

  // Patches of packages the app runs with, applied by patch-package when the folder installs.
  const patches = patchedPackages();
  const runtimePatched = new Map<string, string>();
  for (const [name, patch] of patches) {
    const used =
      name in dependencies || workspace.some((w) => w.pkg.dependencies?.[name] !== undefined);
    if (used) runtimePatched.set(name, patch.version);
  }

  rmSync(path.join(out, "packages"), { recursive: true, force: true });
  rmSync(path.join(out, "patches"), { recursive: true, force: true });
  for (const [name, folder] of Object.entries(WORKSPACE)) {
    copyWorkspacePackage(folder, version, runtimePatched);
    dependencies[name] = `file:packages/${folder}`;
  }
  const scripts: Record<string, string> = { start: PRODUCTION_START };
  if (runtimePatched.size > 0) {
    mkdirSync(path.join(out, "patches"));
    for (const [name, patchedVersion] of runtimePatched) {
      const file = patches.get(name)?.file as string;
      cpSync(path.join(repoRoot, "patches", file), path.join(out, "patches", file));
      // At the top of node_modules, where the patch applies, at the version it was made for.
      dependencies[name] = patchedVersion;
    }
    // The repository's own copy (a development tool there, needed here at install).
    dependencies["patch-package"] = version("patch-package", "");
    scripts.postinstall = "patch-package";
  }

  writeJson(path.join(out, "package.json"), {
    name: "gravity-fantasy-app",
    version: web.version,
    private: true,
    description: "Gravity Fantasy, built: run `npm install --omit=dev`, then `npm start`.",
    type: "module",
    engines: root.engines,
    scripts,
    dependencies: Object.fromEntries(
      Object.entries(dependencies).sort(([a], [b]) => a.localeCompare(b)),
    ),
  });
  console.log(
    `build/server.js and the production folder build/ (${Object.keys(dependencies).length} dependencies) in ${Date.now() - started} ms`,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await main();
}
