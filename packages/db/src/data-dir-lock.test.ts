import { type ChildProcess, spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import os, { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createDb } from "./client.js";
import {
  DataDirLockedError,
  type DataLockHolder,
  dataDirHolder,
  dataLockFile,
  lockDataDir,
  removeStaleLock,
  tightenPermissions,
} from "./data-dir-lock.js";

// Locks and file modes are about the embedded database's folder: PGlite only.
const root = mkdtempSync(path.join(tmpdir(), "gf-lock-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let n = 0;
const freshDir = () => path.join(root, `d${++n}`);

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill("SIGKILL");
});

/** Another live process (a sleeping node), with its /proc start time. */
async function otherProcess(): Promise<{ pid: number; start?: string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
  children.push(child);
  await new Promise((resolve) => child.once("spawn", resolve));
  const pid = child.pid!;
  let start: string | undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    start = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    start = undefined;
  }
  return {
    pid,
    start,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGKILL");
      }),
  };
}

function bootId(): string | undefined {
  try {
    return readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
  } catch {
    return undefined;
  }
}

function writeHolder(dir: string, holder: Partial<DataLockHolder>) {
  mkdirSync(dir, { recursive: true });
  const full: DataLockHolder = {
    pid: 1,
    hostname: os.hostname(),
    command: "node server.js",
    startedAt: "2026-01-01T00:00:00.000Z",
    bootId: bootId(),
    token: "t".repeat(32),
    ...holder,
  };
  writeFileSync(dataLockFile(dir), JSON.stringify(full));
}

const lockedBy = (dir: string) => JSON.parse(readFileSync(dataLockFile(dir), "utf8")).pid;

describe("lockDataDir", () => {
  it("creates a private folder and a lock file naming this process, removed on release", () => {
    const dir = freshDir();
    const lock = lockDataDir(dir);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(dataLockFile(dir)).mode & 0o777).toBe(0o600);
    expect(lockedBy(dir)).toBe(process.pid);
    expect(dataDirHolder(dir)?.pid).toBe(process.pid);
    lock.release();
    expect(existsSync(dataLockFile(dir))).toBe(false);
    expect(dataDirHolder(dir)).toBeNull();
  });

  it("is shared within the process: the file goes with the last release", () => {
    const dir = freshDir();
    const a = lockDataDir(dir);
    const b = lockDataDir(dir);
    a.release();
    a.release(); // twice is once
    expect(existsSync(dataLockFile(dir))).toBe(true);
    b.release();
    expect(existsSync(dataLockFile(dir))).toBe(false);
  });

  it("refuses a folder a live process holds, naming the folder and the process, changing nothing", async () => {
    const other = await otherProcess();
    const dir = freshDir();
    writeHolder(dir, { pid: other.pid, processStart: other.start });
    const before = readFileSync(dataLockFile(dir), "utf8");
    let error: unknown;
    try {
      lockDataDir(dir);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DataDirLockedError);
    expect((error as Error).message).toContain(dir);
    expect((error as Error).message).toContain(`process ${other.pid}`);
    expect(readFileSync(dataLockFile(dir), "utf8")).toBe(before);
    expect(readdirSync(dir)).toEqual(["data.lock"]);

    // Once that process is gone its lock is stale and taken over.
    await other.stop();
    const lock = lockDataDir(dir);
    expect(lockedBy(dir)).toBe(process.pid);
    lock.release();
  });

  it("takes over the lock of a process that no longer exists", async () => {
    const gone = await otherProcess();
    await gone.stop();
    const dir = freshDir();
    writeHolder(dir, { pid: gone.pid });
    const lock = lockDataDir(dir);
    expect(lockedBy(dir)).toBe(process.pid);
    lock.release();
  });

  it("takes over a lock whose PID now belongs to another process (recycled PID)", async () => {
    const other = await otherProcess();
    if (!other.start) return; // no /proc here: nothing to tell a recycled PID by
    const dir = freshDir();
    writeHolder(dir, { pid: other.pid, processStart: String(Number(other.start) - 1000) });
    const lock = lockDataDir(dir);
    expect(lockedBy(dir)).toBe(process.pid);
    lock.release();
  });

  it("takes over a lock naming this very PID that this process did not take (restart)", () => {
    const dir = freshDir();
    writeHolder(dir, { pid: process.pid, token: "an-earlier-life" });
    const lock = lockDataDir(dir);
    expect(JSON.parse(readFileSync(dataLockFile(dir), "utf8")).token).not.toBe("an-earlier-life");
    lock.release();
  });

  it("takes over a lock from before a reboot and an unreadable lock file", async () => {
    const other = await otherProcess();
    const dir = freshDir();
    if (bootId()) {
      writeHolder(dir, { pid: other.pid, processStart: other.start, bootId: "another-boot" });
      lockDataDir(dir).release();
    }
    writeFileSync(dataLockFile(dir), "");
    lockDataDir(dir).release();
    writeFileSync(dataLockFile(dir), "{not json");
    lockDataDir(dir).release();
    expect(existsSync(dataLockFile(dir))).toBe(false);
  });

  it("removes a stale lock only if it is still the one judged stale, one remover at a time", async () => {
    const dir = freshDir();
    mkdirSync(dir);
    const file = dataLockFile(dir);
    const stale = JSON.stringify({ pid: 999_999, token: "old" });
    // A faster newcomer already replaced the stale lock with its own: it must survive.
    writeFileSync(file, JSON.stringify({ pid: process.pid, token: "fresh" }));
    removeStaleLock(file, stale);
    expect(readFileSync(file, "utf8")).toContain("fresh");
    // Another live process is removing it right now (holds the guard): leave it to that one.
    const other = await otherProcess();
    writeFileSync(file, stale);
    writeFileSync(`${file}.recover`, JSON.stringify({ pid: other.pid, token: "r" }));
    removeStaleLock(file, stale);
    expect(readFileSync(file, "utf8")).toBe(stale);
    rmSync(`${file}.recover`);
    // Still the stale content, nobody else at it: removed, and the guard with it.
    removeStaleLock(file, stale);
    expect(existsSync(file)).toBe(false);
    expect(existsSync(`${file}.recover`)).toBe(false);
  });

  it("lets exactly one of several processes starting together take a stale lock", async () => {
    const gone = await otherProcess();
    await gone.stop();
    const dir = freshDir();
    writeHolder(dir, { pid: gone.pid });
    // Each contender tries at the same moment and, if it wins, holds the folder for a while.
    const script = `
      import { lockDataDir } from "${new URL("./data-dir-lock.ts", import.meta.url).href}";
      const start = Number(process.argv[1]);
      while (Date.now() < start) {}
      try { lockDataDir(process.argv[2]); console.log("got"); setTimeout(() => {}, 6000); }
      catch (e) { console.log(e.name); }`;
    const start = Date.now() + 3000;
    const results = await Promise.all(
      Array.from({ length: 4 }, () => {
        const child = spawn(
          process.execPath,
          ["--import", "tsx", "--input-type=module", "-e", script, String(start), dir],
          { stdio: ["ignore", "pipe", "inherit"] },
        );
        let out = "";
        child.stdout.on("data", (d) => {
          out += d;
        });
        return new Promise<string>((resolve) => child.on("exit", () => resolve(out.trim())));
      }),
    );
    expect(results.sort()).toEqual([
      "DataDirLockedError",
      "DataDirLockedError",
      "DataDirLockedError",
      "got",
    ]);
  }, 30_000);

  it("never takes over a lock from another host, whose processes it cannot see", () => {
    const dir = freshDir();
    writeHolder(dir, { pid: 999_999, hostname: "elsewhere" });
    expect(() => lockDataDir(dir)).toThrow(/process 999999 on elsewhere.*delete .*data\.lock/);
  });

  it("clears the guard a recoverer left behind when it died", async () => {
    const gone = await otherProcess();
    await gone.stop();
    const dir = freshDir();
    writeHolder(dir, { pid: gone.pid });
    writeFileSync(`${dataLockFile(dir)}.recover`, JSON.stringify({ pid: gone.pid, token: "x" }));
    const lock = lockDataDir(dir);
    expect(lockedBy(dir)).toBe(process.pid);
    expect(existsSync(`${dataLockFile(dir)}.recover`)).toBe(false);
    lock.release();
  });
});

describe("tightenPermissions", () => {
  it("makes folders 0700 and files 0600, keeping the owner's bits and leaving links alone", () => {
    const dir = freshDir();
    mkdirSync(path.join(dir, "pgdata", "base"), { recursive: true, mode: 0o755 });
    const outside = path.join(root, `outside-${n}`);
    writeFileSync(outside, "x", { mode: 0o644 });
    writeFileSync(path.join(dir, "pgdata", "base", "1"), "x", { mode: 0o666 });
    writeFileSync(path.join(dir, "run.sh"), "x", { mode: 0o755 });
    symlinkSync(outside, path.join(dir, "link"));
    tightenPermissions(dir);
    const mode = (p: string) => statSync(path.join(dir, p)).mode & 0o777;
    expect(mode("")).toBe(0o700);
    expect(mode("pgdata")).toBe(0o700);
    expect(mode("pgdata/base")).toBe(0o700);
    expect(mode("pgdata/base/1")).toBe(0o600);
    expect(mode("run.sh")).toBe(0o700);
    expect(statSync(outside).mode & 0o777).toBe(0o644);
  });
});

describe("createDb on a data folder", () => {
  it("refuses a folder another live process holds before opening anything", async () => {
    const other = await otherProcess();
    const dir = freshDir();
    writeHolder(dir, { pid: other.pid, processStart: other.start });
    await expect(createDb({ url: "", dataDir: dir })).rejects.toBeInstanceOf(DataDirLockedError);
    expect(readdirSync(dir)).toEqual(["data.lock"]);
  });

  it("holds the folder while open and leaves only private files behind", async () => {
    const dir = freshDir();
    mkdirSync(dir, { mode: 0o755 });
    const h = await createDb({ url: "", dataDir: dir, migrate: false });
    try {
      expect(dataDirHolder(dir)?.pid).toBe(process.pid);
    } finally {
      await h.close();
    }
    expect(dataDirHolder(dir)).toBeNull();
    const open: string[] = [];
    const walk = (at: string) => {
      const s = statSync(at);
      if (s.mode & 0o077) open.push(`${at} ${(s.mode & 0o777).toString(8)}`);
      if (s.isDirectory()) for (const name of readdirSync(at)) walk(path.join(at, name));
    };
    walk(dir);
    expect(open).toEqual([]);
  });
});
