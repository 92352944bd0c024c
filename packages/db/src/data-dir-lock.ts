/**
 * One owner per data folder (docs/decisions/0070-data-folder-lock.md).
 *
 * PGlite does not stop a second process from opening a folder another process has open, and two
 * engines writing the same files destroy the database. So whoever opens the embedded database (the
 * app, or the CLI when no app runs) first creates `<dataDir>/data.lock` exclusively, naming its
 * process. A lock whose process is gone (killed, crashed, machine rebooted) is stale and is taken
 * over; a live one makes the newcomer stop before it touches anything.
 *
 * Why a PID file and not an mtime-refreshed lock (proper-lockfile and friends): those call a
 * lock stale when it was not refreshed for a few seconds, and PGlite runs on the main thread, so
 * a long migration or import that blocks the event loop would let a second process take over a
 * live folder, the very loss this prevents. Process liveness does not depend on timers.
 */
import { randomBytes } from "node:crypto";
import {
  chmodSync,
  closeSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";

export const DATA_LOCK_FILE = "data.lock";

/** What the lock file records about its holder. */
export interface DataLockHolder {
  pid: number;
  hostname: string;
  /** The command line, for the message a newcomer prints. */
  command: string;
  startedAt: string;
  /** Linux: the kernel's boot id and the process start time, to tell a reused PID apart. */
  bootId?: string;
  processStart?: string;
  /** Distinguishes two holders with the same PID (a process restarted under a recycled PID). */
  token: string;
}

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: DataLockHolder,
  ) {
    const elsewhere = holder.hostname && holder.hostname !== os.hostname();
    super(
      `The data folder ${dataDir} is in use by process ${holder.pid}${elsewhere ? ` on ${holder.hostname}` : ""} (${holder.command}, since ${holder.startedAt}). Stop that process first, or set DATA_DIR to another folder.${elsewhere ? ` If it no longer runs, delete ${dataLockFile(dataDir)}.` : ""}`,
    );
    this.name = "DataDirLockedError";
  }
}

export interface DataDirLock {
  readonly dataDir: string;
  readonly file: string;
  /** Gives the lock up (once per `lockDataDir` call; the file goes with the last one). */
  release(): void;
}

export function dataLockFile(dataDir: string): string {
  return path.join(dataDir, DATA_LOCK_FILE);
}

function readOptional(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8").trim();
  } catch {
    return undefined;
  }
}

const bootId = () => readOptional("/proc/sys/kernel/random/boot_id");

/** Field 22 of /proc/<pid>/stat: when the process started, in clock ticks since boot. */
function processStart(pid: number): string | undefined {
  const stat = readOptional(`/proc/${pid}/stat`);
  if (!stat) return undefined;
  // The command name (field 2) may contain spaces and parentheses: count from the last ")".
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
}

/** Whether a process exists (EPERM: it exists but belongs to someone else). */
function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Whether the process a lock names is still the one that wrote it. A reboot (another boot id) or
 * a recycled PID (another start time, or our own PID on a lock we did not take) means it is gone.
 */
export function isHolderAlive(holder: DataLockHolder): boolean {
  // Another machine or container: its processes cannot be seen from here, so assume it runs.
  if (holder.hostname && holder.hostname !== os.hostname()) return true;
  const boot = bootId();
  if (holder.bootId && boot && holder.bootId !== boot) return false;
  if (holder.pid === process.pid) return held.get(holder.token) !== undefined;
  if (!pidExists(holder.pid)) return false;
  if (holder.processStart) {
    const start = processStart(holder.pid);
    if (start && start !== holder.processStart) return false;
  }
  return true;
}

function parseHolder(raw: string | undefined): DataLockHolder | null {
  if (!raw) return null;
  try {
    const h = JSON.parse(raw) as Partial<DataLockHolder>;
    if (Number.isSafeInteger(h.pid) && typeof h.token === "string") {
      return {
        hostname: "",
        command: "unknown command",
        startedAt: "an unknown time",
        ...h,
      } as DataLockHolder;
    }
  } catch {
    // A torn or foreign file: treated as no holder.
  }
  return null;
}

/** What `<dataDir>/data.lock` says, alive or not; null when there is no readable lock. */
export function readDataLock(dataDir: string): DataLockHolder | null {
  return parseHolder(readOptional(dataLockFile(dataDir)));
}

/** The process holding `dataDir`, or null when nobody (alive) does. */
export function dataDirHolder(dataDir: string): DataLockHolder | null {
  const holder = parseHolder(readOptional(dataLockFile(dataDir)));
  return holder && isHolderAlive(holder) ? holder : null;
}

/** Locks this process holds, by token, with how many callers share each. */
const held = new Map<string, { dataDir: string; file: string; count: number }>();

function exitCleanup() {
  for (const [token, lock] of held) removeIfOurs(lock.file, token);
  held.clear();
}

function removeIfOurs(file: string, token: string) {
  if (parseHolder(readOptional(file))?.token === token) rmSync(file, { force: true });
}

/**
 * Creates `file` with `content` only if it does not exist, never showing a half-written file:
 * the content goes to a private temporary file first, then is hard-linked into place (atomic, and
 * refused when the name exists). Returns false when the file exists.
 */
function createExclusive(file: string, content: string): boolean {
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
  writeFileSync(tmp, content, { mode: 0o600, flag: "wx" });
  try {
    linkSync(tmp, file);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return false;
    if (code !== "EPERM" && code !== "ENOTSUP" && code !== "ENOSYS") throw error;
    // File systems without hard links: an exclusive create (a reader may see it empty briefly).
    let fd: number;
    try {
      fd = openSync(file, "wx", 0o600);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "EEXIST") return false;
      throw e;
    }
    try {
      writeSync(fd, content);
    } finally {
      closeSync(fd);
    }
    return true;
  } finally {
    rmSync(tmp, { force: true });
  }
}

const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Removes the stale lock `raw` read from `file`, unless someone else got there first. Only one
 * process at a time may remove a lock (the `.recover` file is its own exclusive lock), and it
 * removes it only if the file still holds the stale content: a fresh lock created by a faster
 * newcomer is never deleted. (Exported for its tests.)
 */
export function removeStaleLock(file: string, raw: string | undefined): void {
  const guard = `${file}.recover`;
  const me = JSON.stringify({ pid: process.pid, token: randomBytes(8).toString("hex") });
  if (!createExclusive(guard, me)) {
    const other = parseHolder(readOptional(guard));
    // A recoverer that died in the middle leaves its guard behind: clear it, then try again.
    if (!other || !pidExists(other.pid)) rmSync(guard, { force: true });
    else sleep(50);
    return;
  }
  try {
    if (readOptional(file) === raw) rmSync(file, { force: true });
  } finally {
    rmSync(guard, { force: true });
  }
}

/**
 * Takes the data folder for this process, creating it (private) if needed. Throws
 * DataDirLockedError, having changed nothing, when a live process holds it. Re-entrant: the app
 * locks the folder at start and its database handle locks it again; the file goes with the last
 * release, or when the process exits.
 */
export function lockDataDir(dataDir: string): DataDirLock {
  const dir = path.resolve(dataDir);
  const file = dataLockFile(dir);
  for (const [token, lock] of held) {
    if (lock.file === file) {
      lock.count++;
      return handleFor(token, lock);
    }
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const holder: DataLockHolder = {
    pid: process.pid,
    hostname: os.hostname(),
    command: [
      path.basename(process.argv0 || "node"),
      ...process.argv.slice(1).map((a) => path.basename(a)),
    ]
      .join(" ")
      .slice(0, 200),
    startedAt: new Date().toISOString(),
    bootId: bootId(),
    processStart: processStart(process.pid),
    token: randomBytes(16).toString("hex"),
  };
  const content = `${JSON.stringify(holder)}\n`;
  for (let attempt = 0; attempt < 50; attempt++) {
    if (createExclusive(file, content)) {
      const lock = { dataDir: dir, file, count: 1 };
      if (held.size === 0) process.on("exit", exitCleanup);
      held.set(holder.token, lock);
      return handleFor(holder.token, lock);
    }
    const raw = readOptional(file);
    const other = parseHolder(raw);
    if (other && isHolderAlive(other)) throw new DataDirLockedError(dir, other);
    removeStaleLock(file, raw);
  }
  throw new Error(`Could not lock the data folder ${dir}: its lock file keeps changing.`);
}

function handleFor(token: string, lock: { dataDir: string; file: string; count: number }) {
  let released = false;
  return {
    dataDir: lock.dataDir,
    file: lock.file,
    release() {
      if (released) return;
      released = true;
      if (--lock.count > 0) return;
      held.delete(token);
      if (held.size === 0) process.off("exit", exitCleanup);
      removeIfOurs(lock.file, token);
    },
  };
}

/**
 * Makes everything under `dir` private to its owner: folders 0700, files 0600. PGlite creates its
 * files 0666 (less the umask), which on most systems lets every local user read them.
 * Symbolic links are left alone (chmod would follow them out of the folder).
 */
export function tightenPermissions(dir: string): void {
  const walk = (at: string) => {
    let stat: ReturnType<typeof lstatSync>;
    try {
      stat = lstatSync(at);
    } catch {
      return; // gone meanwhile
    }
    if (stat.isSymbolicLink()) return;
    if (stat.isDirectory()) {
      if ((stat.mode & 0o777) !== 0o700) chmodSync(at, 0o700);
      for (const name of readdirSync(at)) walk(path.join(at, name));
    } else if (stat.mode & 0o077) {
      chmodSync(at, stat.mode & 0o700);
    }
  };
  walk(path.resolve(dir));
}
