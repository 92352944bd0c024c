// The CLI and the data-folder lock (docs/decisions/0070-data-folder-lock.md): it never opens a
// folder another process holds, and what it leaves behind is private.
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { lockDataDir } from "@game/db";
import { afterAll, describe, expect, it } from "vitest";
import { type CliTarget, runCli } from "./test-support.js";

const dir = mkdtempSync(path.join(tmpdir(), "gf-cli-lock-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function target(dataDir: string): CliTarget {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1", DATA_DIR: dataDir };
  delete env.DATABASE_URL; // the lock is about the embedded database
  return { kind: "pglite", env, dir, close: async () => {} };
}

describe("the CLI on the embedded data folder", () => {
  it("refuses a folder another process holds (no app socket), touching nothing", async () => {
    const dataDir = path.join(dir, "held");
    // This test process holds the folder, as a starting app or another CLI run would.
    const lock = lockDataDir(dataDir);
    try {
      const r = await runCli(target(dataDir), "events", "list");
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(dataDir);
      expect(r.stderr).toContain(`process ${process.pid}`);
      expect(r.stderr).toContain("try again in a few seconds");
      expect(readdirSync(dataDir)).toEqual(["data.lock"]);
    } finally {
      lock.release();
    }
  });

  it("opens a free folder itself, gives the lock back and leaves only private files", async () => {
    const dataDir = path.join(dir, "free");
    const r = await runCli(target(dataDir), "events", "list");
    expect(r.code, r.stderr).toBe(0);
    const entries = readdirSync(dataDir);
    expect(entries).toContain("pgdata");
    expect(entries).not.toContain("data.lock");
    const open: string[] = [];
    const walk = (at: string) => {
      const s = statSync(at);
      if (s.mode & 0o077) open.push(`${at} ${(s.mode & 0o777).toString(8)}`);
      if (s.isDirectory()) for (const name of readdirSync(at)) walk(path.join(at, name));
    };
    walk(dataDir);
    expect(open).toEqual([]);
  });
});
