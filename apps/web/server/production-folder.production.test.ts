// The production path (README, "Deploy"): the built app (`npm run build`: apps/web/build) copied
// to a folder of its own, `npm install --omit=dev` there from the registry, then started as the
// systemd unit starts it, without the repository, turbo or Vite. It serves, migrates and seeds
// its database, and no development tool was installed.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SERVER_FILE } from "./build.js";

const run = promisify(execFile);
const built = fileURLToPath(new URL("../build", import.meta.url));
/** Development tools: none of them may be needed, or installed, to run the app. */
const DEV_ONLY = ["vite", "@remix-run/dev", "turbo", "typescript", "vitest", "esbuild", "tsx"];

const work = mkdtempSync(path.join(tmpdir(), "gf-production-"));
const folder = path.join(work, "app");
const dataDir = path.join(work, "data");
let app: ChildProcess | undefined;
let output = "";
let base = "";

/** The environment of a process outside the repository: no npm workspace settings inherited. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  const npmWorkspace =
    /^npm_(package|lifecycle|config_(workspace|include_workspace_root|prefix|global))/i;
  for (const key of Object.keys(env)) {
    const database = key === "DATABASE_URL" || key === "DATABASE_REPLICA_URL";
    if (npmWorkspace.test(key) || database || key === "INIT_CWD") delete env[key];
  }
  return env;
}

/** Every package folder in a node_modules tree, by name (nested ones too). */
function installedPackages(dir: string, found = new Set<string>()): Set<string> {
  if (!existsSync(dir)) return found;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith(".")) continue;
    const names = entry.name.startsWith("@")
      ? readdirSync(path.join(dir, entry.name)).map((n) => `${entry.name}/${n}`)
      : [entry.name];
    for (const name of names) {
      found.add(name);
      installedPackages(path.join(dir, name, "node_modules"), found);
    }
  }
  return found;
}

beforeAll(async () => {
  if (!existsSync(path.join(built, "package.json")) || !existsSync(path.join(built, SERVER_FILE))) {
    throw new Error("No production build in apps/web/build: run `npm run build` first.");
  }
  cpSync(built, folder, { recursive: true });
  await run("npm", ["install", "--omit=dev", "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd: folder,
    env: cleanEnv({ NODE_ENV: "production" }),
    timeout: 240_000,
    maxBuffer: 16 * 1024 * 1024,
  });

  app = spawn(process.execPath, [SERVER_FILE], {
    cwd: folder,
    env: cleanEnv({ NODE_ENV: "production", PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir }),
  });
  const child = app;
  child.stdout?.on("data", (d) => {
    output += d;
  });
  child.stderr?.on("data", (d) => {
    output += d;
  });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start in 60 s:\n${output}`)), 60_000);
    child.stdout?.on("data", () => {
      const m = output.match(/Gravity Fantasy on http:\/\/localhost:(\d+)/);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code}:\n${output}`));
    });
  });
  base = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  if (app && app.exitCode === null) {
    const exited = new Promise((resolve) => app?.once("exit", resolve));
    app.kill("SIGTERM");
    await exited;
  }
  rmSync(work, { recursive: true, force: true });
});

describe("the production folder", () => {
  it("holds the runtime dependencies only, the database's migrations and the patched driver", () => {
    const installed = installedPackages(path.join(folder, "node_modules"));
    expect(installed.has("express")).toBe(true);
    expect(DEV_ONLY.filter((name) => installed.has(name))).toEqual([]);
    const migrations = readdirSync(path.join(folder, "packages/db/drizzle"));
    expect(migrations).toContain("0000_init.sql");
    const postgres = readFileSync(
      path.join(folder, "node_modules/postgres/cf/src/connection.js"),
      "utf8",
    );
    expect(postgres).toContain("Gravity Fantasy patch");
  });

  it("starts without the repository: health, readiness and the home page answer", async () => {
    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: "ready", database: "ok" });
    const home = await fetch(`${base}/`);
    expect(home.status).toBe(200);
    expect(await home.text()).toContain("Gravity Fantasy");
    // The migrated, seeded database: the seeded events on a public page.
    expect(output).toMatch(/Seeded \d+ events/);
    const ranking = await fetch(`${base}/players-ranking`);
    expect(ranking.status).toBe(200);
    expect(ranking.headers.get("etag")).toMatch(/^"/);
  });

  it("stops cleanly on SIGTERM", async () => {
    const exited = new Promise((resolve) => app?.once("exit", (code) => resolve(code)));
    app?.kill("SIGTERM");
    expect(await exited).toBe(0);
  });
});
