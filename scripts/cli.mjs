#!/usr/bin/env node
/*
 * `npm run cli -- <command>`: runs game-admin, building it (and the packages it uses) first
 * when a source file is newer than its build. The build is quiet: turbo's banner and task logs
 * are kept and shown only when the build fails, so the command's own output is all that is
 * printed (docs/decisions/0087-quiet-versioned-cli.md).
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/** The workspaces the CLI runs from: their sources, and the build file that must be newer. */
const PARTS = [
  { dir: "packages/core", sources: ["src"], built: "dist/index.js" },
  { dir: "packages/db", sources: ["src", "drizzle"], built: "dist/index.js" },
  { dir: "cli", sources: ["src"], built: "dist/index.js" },
];
const CONFIG_FILES = ["package.json", "tsup.config.ts", "tsconfig.json"];

/** Newest modification time under `dir` (0 when it does not exist); tests do not count. */
function newest(dir) {
  let time = 0;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) time = Math.max(time, newest(full));
    else if (!/\.test\.[cm]?[jt]sx?$/.test(entry.name))
      time = Math.max(time, statSync(full).mtimeMs);
  }
  return time;
}

function mtime(file) {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

function isFresh() {
  return PARTS.every(({ dir, sources, built }) => {
    const builtAt = mtime(path.join(root, dir, built));
    if (!builtAt) return false;
    const sourceAt = Math.max(
      ...sources.map((s) => newest(path.join(root, dir, s))),
      ...CONFIG_FILES.map((f) => mtime(path.join(root, dir, f))),
    );
    return sourceAt <= builtAt;
  });
}

if (!isFresh()) {
  const turbo = path.join(root, "node_modules", "turbo", "bin", "turbo");
  const build = spawnSync(
    process.execPath,
    [turbo, "run", "build", "--filter=@game/cli...", "--output-logs=errors-only"],
    { cwd: root, encoding: "utf8", env: { ...process.env, TURBO_NO_UPDATE_NOTIFIER: "1" } },
  );
  if (build.status !== 0 || !existsSync(path.join(root, "cli", "dist", "index.js"))) {
    process.stderr.write(build.stdout ?? "");
    process.stderr.write(build.stderr ?? "");
    if (build.error) process.stderr.write(`${build.error.message}\n`);
    process.stderr.write("game-admin could not be built (see above).\n");
    process.exit(1);
  }
}

// Same process: the CLI reads its arguments from process.argv.slice(2), as installed.
await import(new URL("../cli/bin/game-admin.js", import.meta.url).href);
