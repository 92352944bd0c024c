/**
 * CLI tests run the real built binary (`node bin/game-admin.js`) against a real database: a temp
 * data folder on PGlite, or a fresh database on the PostgreSQL server when DATABASE_URL is set.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createDb, type DbHandle, type DbSocketServer, serveDbSocket } from "@game/db";
import { createTestDb, withDatabase } from "@game/db/testing";

const bin = fileURLToPath(new URL("../bin/game-admin.js", import.meta.url));

/** One statement on the server of `url` (creating and dropping test databases). */
async function onServer(url: string, statement: string): Promise<void> {
  const h = await createDb({ url, max: 1, migrate: false });
  try {
    await h.db.execute(statement);
  } finally {
    await h.close();
  }
}

export interface CliTarget {
  kind: "pglite" | "postgres";
  /** Environment for the CLI process. */
  env: NodeJS.ProcessEnv;
  /** A folder for test files. */
  dir: string;
  /** The test's own handle, when asked for (`hold`): on PGlite it serves the CLI as the app does. */
  h?: DbHandle;
  /** The socket served to the CLI (PGlite with `hold`), to publish an address as the app does. */
  socket?: DbSocketServer;
  close(): Promise<void>;
}

export async function cliTarget(opts: { hold?: boolean } = {}): Promise<CliTarget> {
  const dir = mkdtempSync(path.join(tmpdir(), "gf-cli-"));
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1" };
  const url = process.env.DATABASE_URL;
  if (url) {
    const name = `gf_cli_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    await onServer(url, `create database "${name}"`);
    env.DATABASE_URL = withDatabase(url, name);
    const h = opts.hold ? await createDb({ url: env.DATABASE_URL }) : undefined;
    return {
      kind: "postgres",
      env,
      dir,
      h,
      async close() {
        await h?.close();
        await onServer(url, `drop database if exists "${name}" with (force)`);
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  delete env.DATABASE_URL;
  const dataDir = path.join(dir, "data");
  env.DATA_DIR = dataDir;
  let h: DbHandle | undefined;
  let served: DbSocketServer | undefined;
  if (opts.hold) {
    // An in-memory database served from the folder's socket file: what the CLI sees is the
    // same as with the app running, without an on-disk start-up per test file.
    mkdirSync(dataDir);
    h = await createTestDb();
    served = await serveDbSocket(h.pglite!, dataDir);
  }
  return {
    kind: "pglite",
    env,
    dir,
    h,
    socket: served,
    async close() {
      await served?.close();
      await h?.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the binary without blocking this process (which may be serving the CLI its database). */
export function runCli(target: CliTarget, ...args: string[]): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { env: target.env, cwd: target.dir });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

export function writeFile(target: CliTarget, name: string, text: string): string {
  const file = path.join(target.dir, name);
  writeFileSync(file, text);
  return file;
}
