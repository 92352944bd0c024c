// One owner per data folder, end to end (docs/decisions/0070-data-folder-lock.md): the built app
// (`node build/server.js`, as `npm start` runs it) on a temporary DATA_DIR, a second start on the same
// folder, the admin CLI through the running app, then a crash (SIGKILL) and a restart.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import {
  chmodSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { EventRow } from "@game/db";
import { afterAll, describe, expect, it } from "vitest";
import { spawnApp as spawnLive } from "./spawn-app.test-support.js";

const cliBin = fileURLToPath(new URL("../../../cli/dist/index.js", import.meta.url));
const dataDir = mkdtempSync(path.join(tmpdir(), "gf-owner-"));
const running = new Set<ChildProcessWithoutNullStreams>();
afterAll(() => {
  for (const child of running) child.kill("SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
});

function appEnv() {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    PORT: "0",
    HOST: "127.0.0.1",
  };
  delete env.DATABASE_URL; // the embedded database is what the lock protects
  env.DATA_DIR = dataDir;
  return env;
}

/** Spawns `node build/server.js`; `ready` resolves with its URL, `exited` with its exit code. */
function spawnApp() {
  const app = spawnLive(
    { DATABASE_URL: undefined, DATA_DIR: dataDir, PUBLIC_URL: undefined },
    running,
  );
  const ready = app.port.then((port) => `http://127.0.0.1:${port}`);
  ready.catch(() => {});
  return { ...app, ready };
}

function runCli(...args: string[]) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [cliBin, ...args], { env: appEnv() });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d;
    });
    child.stderr.on("data", (d: Buffer) => {
      stderr += d;
    });
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

const read = (name: string) => readFileSync(path.join(dataDir, name), "utf8");

describe("one app per data folder", () => {
  it("refuses a second start, keeps the first serving, survives a crash and a restart", async () => {
    // What an earlier version left open to every local user is made private at start.
    chmodSync(dataDir, 0o755);
    writeFileSync(path.join(dataDir, "session-secret"), "a".repeat(64), { mode: 0o644 });
    chmodSync(path.join(dataDir, "session-secret"), 0o644);
    const first = spawnApp();
    const url = await first.ready;
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(dataDir, "session-secret")).mode & 0o777).toBe(0o600);
    expect(statSync(path.join(dataDir, "db-socket.json")).mode & 0o777).toBe(0o600);
    // The address the CLI's reminders link to: the port the app listens on, not 3000.
    expect(JSON.parse(read("db-socket.json")).publicUrl).toBe(
      `http://localhost:${new URL(url).port}`,
    );
    expect(statSync(path.join(dataDir, "pgdata", "PG_VERSION")).mode & 0o777).toBe(0o600);
    const socketBefore = read("db-socket.json");
    const socketMtime = statSync(path.join(dataDir, "db-socket.json")).mtimeMs;
    const lockBefore = read("data.lock");
    expect(JSON.parse(lockBefore).pid).toBe(first.child.pid);

    // A second start on the same folder: exit 1 at once, naming the folder and the holder.
    const t0 = Date.now();
    const second = spawnApp();
    expect(await second.exited).toBe(1);
    // "At once": before opening the database; generous for a busy machine.
    expect(Date.now() - t0).toBeLessThan(30_000);
    expect(second.output()).toContain(dataDir);
    expect(second.output()).toContain(`process ${first.child.pid}`);
    expect(second.output()).not.toMatch(/\n\s+at /); // one line, no stack trace
    // It touched nothing: the first app's socket file and lock are as they were.
    expect(read("db-socket.json")).toBe(socketBefore);
    expect(statSync(path.join(dataDir, "db-socket.json")).mtimeMs).toBe(socketMtime);
    expect(read("data.lock")).toBe(lockBefore);

    // The first keeps serving, with its database.
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    expect((await fetch(`${url}/readyz`)).status).toBe(200);

    // The CLI works through the running app, writes included.
    const scheduled = await runCli("events", "schedule", "12", "2031-05-01T10:00:00Z");
    expect(scheduled, scheduled.stderr).toMatchObject({ code: 0 });
    const listed = await runCli("events", "list", "--json");
    expect(listed.code, listed.stderr).toBe(0);
    const events = JSON.parse(listed.stdout) as Pick<EventRow, "id">[];
    expect(events).toHaveLength(12);
    expect(JSON.stringify(events.find((e) => e.id === 12))).toContain("2031-05-01");

    // A crash leaves a stale lock behind...
    first.child.kill("SIGKILL");
    await first.exited;
    expect(JSON.parse(read("data.lock")).pid).toBe(first.child.pid);

    // ...which the next start recovers, with every row intact.
    const restarted = spawnApp();
    // A CLI run while the app is still opening the database waits for it instead of failing.
    const holds = () => {
      try {
        return JSON.parse(read("data.lock")).pid === restarted.child.pid;
      } catch {
        return false;
      }
    };
    while (!holds()) await new Promise((resolve) => setTimeout(resolve, 20));
    const during = await runCli("events", "list");
    expect(during.code, during.stderr).toBe(0);
    const url2 = await restarted.ready;
    expect(JSON.parse(read("data.lock")).pid).toBe(restarted.child.pid);
    expect((await fetch(`${url2}/readyz`)).status).toBe(200);
    const after = await runCli("events", "list", "--json");
    expect(after.code, after.stderr).toBe(0);
    const again = JSON.parse(after.stdout) as Pick<EventRow, "id">[];
    expect(again).toHaveLength(12);
    expect(JSON.stringify(again.find((e) => e.id === 12))).toContain("2031-05-01");

    // A clean stop gives the folder back.
    restarted.child.kill("SIGTERM");
    expect(await restarted.exited).toBe(0);
    expect(() => read("data.lock")).toThrow();
    expect(() => read("db-socket.json")).toThrow();
    // Everything it left behind is private.
    const open: string[] = [];
    const walk = (at: string) => {
      const s = statSync(at);
      if (s.mode & 0o077) open.push(`${at} ${(s.mode & 0o777).toString(8)}`);
      if (s.isDirectory()) for (const name of readdirSync(at)) walk(path.join(at, name));
    };
    walk(dataDir);
    expect(open).toEqual([]);
  }, 180_000);
});
