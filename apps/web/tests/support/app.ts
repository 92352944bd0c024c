/**
 * Starts the built app (`node build/server.js`) on a free port with a fresh embedded database,
 * the way a player gets it from `npm start`, for browser tests: a copy of a migrated, seeded
 * database (a first start's migrations and seed are tested by the server tests).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { seededDataDir } from "@game/db/testing";

const webRoot = fileURLToPath(new URL("../..", import.meta.url));

export interface RunningApp {
  url: string;
  dataDir: string;
  /** Everything the server printed, for failure messages. */
  output(): string;
  stop(): Promise<void>;
}

export async function startApp(
  opts: {
    env?: Record<string, string>;
    /** Runs on the fresh data folder before the server starts (e.g. to put rows in its database). */
    prepare?: (dataDir: string) => Promise<void>;
  } = {},
): Promise<RunningApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "gf-app-"));
  cpSync(path.join(await seededDataDir(), "pgdata"), path.join(dataDir, "pgdata"), {
    recursive: true,
  });
  await opts.prepare?.(dataDir);
  const env: NodeJS.ProcessEnv = { ...process.env, ...opts.env };
  // Browser tests use the embedded default unless a test passes a database explicitly.
  if (!opts.env?.DATABASE_URL) delete env.DATABASE_URL;
  Object.assign(env, { NODE_ENV: "production", PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir });
  const child = spawn(process.execPath, ["build/server.js"], { cwd: webRoot, env });
  let out = "";
  child.stdout.on("data", (d) => {
    out += d;
  });
  child.stderr.on("data", (d) => {
    out += d;
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`app did not start in 60 s:\n${out}`)), 60_000);
    const onData = () => {
      const m = out.match(/http:\/\/localhost:(\d+)/);
      if (m) {
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${m[1]}`);
      }
    };
    child.stdout.on("data", onData);
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`app exited with ${code}:\n${out}`));
    });
  });
  return {
    url,
    dataDir,
    output: () => out,
    stop: () => stopChild(child).finally(() => rmSync(dataDir, { recursive: true, force: true })),
  };
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill("SIGKILL"), 8000);
    child.once("exit", () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill("SIGTERM");
  });
}
