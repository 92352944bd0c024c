/**
 * Backups of the embedded database (docs/decisions/0163-backup-and-restore.md).
 *
 * A backup is PGlite's own copy of its PostgreSQL data folder (`dumpDataDir`: a gzip'd tar),
 * made by the process that has the database open, after a CHECKPOINT and under PGlite's
 * transaction lock: no transaction is half done in it, and the app's queries wait the moment the
 * copy takes. A running app makes it for other processes on its admin socket (the query
 * `GAME_ADMIN_BACKUP`, answered with the copy as rows of base64 text). A backup is restored
 * (PGlite's `loadDataDir`) only into a data folder without a database, on the same PostgreSQL
 * major version.
 *
 * Portraits are rows of the database (`racer_portraits`), so a backup holds them too.
 */
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { gunzip } from "node:zlib";
import type { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";
import { dataDirHolder, lockDataDir, tightenPermissions } from "./data-dir-lock.js";
import { type MigrationLevel, migrationNumber, readMigrationLevel } from "./migration-level.js";

/** What a socket client sends for a backup: not SQL, so an app without it answers a syntax error. */
export const BACKUP_QUERY = "GAME_ADMIN_BACKUP";

/** Where an upgrade leaves its backup, inside the data folder. */
export const BACKUPS_FOLDER = "backups";

/** A backup or restore that cannot be done; the message says why, for the admin. */
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BackupError";
  }
}

/**
 * A consistent copy of the database `pglite` runs (gzip'd tar of its data folder). Waits for the
 * transaction in progress, if any, and holds every other query of this process meanwhile.
 */
export async function dumpEmbedded(pglite: PGlite): Promise<Buffer> {
  return pglite._runExclusiveTransaction(async () => {
    // Everything written so far goes into the data files: the copy needs no WAL replay.
    // The engine's module is loaded on use (see client.ts); here it is already in memory.
    const { protocol } = await import("@electric-sql/pglite");
    await pglite.runExclusive(() => pglite.execProtocol(protocol.serialize.query("CHECKPOINT")));
    const tarball = await pglite.dumpDataDir("gzip");
    return Buffer.from(await tarball.arrayBuffer());
  });
}

/** A backup taken by the app that holds the database, through its admin socket (`url`). */
export async function backupThroughApp(url: string): Promise<Buffer> {
  const sql = postgres(url, { max: 1, onnotice: () => {}, connect_timeout: 5 });
  try {
    // The simple protocol: the socket answers this one message itself (rows of base64).
    const rows = await sql.unsafe<{ chunk: string }[]>(BACKUP_QUERY).simple();
    return Buffer.concat(rows.map((r) => Buffer.from(r.chunk, "base64")));
  } catch (error) {
    if ((error as { code?: string }).code === "42601") {
      throw new BackupError(
        "the running app cannot make backups (an older version): stop it and run the command again",
      );
    }
    throw error;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

export interface BackupContents {
  /** PostgreSQL's major version of the data (PG_VERSION): a backup restores on the same one. */
  pgVersion: string;
  files: number;
  /** Size of the data folder it holds, uncompressed. */
  bytes: number;
}

const unzip = promisify(gunzip);

function cString(bytes: Buffer): string {
  const end = bytes.indexOf(0);
  return bytes.subarray(0, end < 0 ? bytes.length : end).toString("utf8");
}

/**
 * Checks that `bytes` are a backup: a whole gzip'd tar of a PostgreSQL data folder. Throws
 * `BackupError` saying what is wrong otherwise.
 */
export async function readBackup(bytes: Uint8Array): Promise<BackupContents> {
  let tar: Buffer;
  try {
    tar = await unzip(bytes);
  } catch {
    throw new BackupError("it is not a gzip'd file, or it is cut short");
  }
  let files = 0;
  let pgVersion: string | undefined;
  let control = false;
  for (let at = 0; at + 512 <= tar.length; ) {
    const header = tar.subarray(at, at + 512);
    if (header.every((b) => b === 0)) break; // the end of the archive
    if (!header.subarray(257, 262).equals(Buffer.from("ustar"))) {
      throw new BackupError("it is not a tar archive");
    }
    const prefix = cString(header.subarray(345, 500));
    const name = `${prefix ? `${prefix}/` : ""}${cString(header.subarray(0, 100))}`.replace(
      /^\/+/,
      "",
    );
    const size = Number.parseInt(cString(header.subarray(124, 136)).trim() || "0", 8);
    const start = at + 512;
    if (!Number.isSafeInteger(size) || size < 0 || start + size > tar.length) {
      throw new BackupError("its archive is cut short");
    }
    if (name === "PG_VERSION")
      pgVersion = tar
        .subarray(start, start + size)
        .toString()
        .trim();
    if (name === "global/pg_control") control = true;
    files++;
    at = start + Math.ceil(size / 512) * 512;
  }
  if (files === 0) throw new BackupError("it is not a tar archive");
  if (!pgVersion || !control) {
    throw new BackupError("it is an archive, but not of a PostgreSQL data folder");
  }
  return { pgVersion, files, bytes: tar.length };
}

/** "4.6 MB" */
export function formatSize(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * Checks `bytes` (`readBackup`) and writes them to `file`, private (0600) and whole: a partial
 * file never carries the name. Refuses to replace a file unless `replace`.
 */
export async function saveBackup(
  file: string,
  bytes: Uint8Array,
  opts: { replace?: boolean } = {},
): Promise<BackupContents> {
  const contents = await readBackup(bytes);
  if (!opts.replace && existsSync(file)) throw new BackupError(`${file} already exists`);
  const tmp = `${file}.${process.pid}.tmp`;
  const fd = openSync(tmp, "wx", 0o600);
  try {
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw error;
  }
  closeSync(fd);
  try {
    renameSync(tmp, file);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
  return contents;
}

/**
 * Writes the backup taken before an upgrade from `level`, as
 * `<dataDir>/backups/pre-upgrade-<level>-<UTC time>.tar.gz`; returns its path. Inside the data
 * folder: the one place the app surely may write, and as private as the database itself.
 */
export async function savePreUpgradeBackup(
  dataDir: string,
  level: string,
  bytes: Uint8Array,
  now = new Date(),
): Promise<string> {
  const dir = path.join(dataDir, BACKUPS_FOLDER);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stamp = `${now.toISOString().slice(0, 19).replace(/:/g, "-")}Z`;
  const base = path.join(dir, `pre-upgrade-${migrationNumber(level)}-${stamp}`);
  let file = `${base}.tar.gz`;
  for (let n = 2; existsSync(file); n++) file = `${base}-${n}.tar.gz`;
  await saveBackup(file, bytes);
  return file;
}

/** The folder of the database inside a data folder. */
export function pgdataOf(dataDir: string): string {
  return path.join(dataDir, "pgdata");
}

/** Whether a data folder holds a database (files in its `pgdata`, or it is a PostgreSQL folder). */
export function holdsDatabase(dataDir: string): boolean {
  if (existsSync(path.join(dataDir, "PG_VERSION"))) return true;
  try {
    return readdirSync(pgdataOf(dataDir)).length > 0;
  } catch (error) {
    // No pgdata: no database. Anything else (a file by that name, no permission) is not empty.
    return (error as NodeJS.ErrnoException).code !== "ENOENT";
  }
}

function refuseDatabase(dir: string): void {
  if (holdsDatabase(dir)) {
    throw new BackupError(
      `${dir} already holds a database: a backup is restored only into a data folder without one, and nothing was changed. To replace it, stop the app and move ${pgdataOf(dir)} aside (keep it until the restored data is checked), then restore again.`,
    );
  }
}

export interface RestoreSummary {
  dataDir: string;
  /** The migration the restored database is at (null: none). */
  level: string | null;
  /** Its player accounts. */
  players: number;
  pgVersion: string;
}

/**
 * Restores the backup `bytes` into `dataDir`, which must hold no database and be used by no
 * process (the app, another CLI run): otherwise throws `BackupError` having written nothing. A
 * backup that does not start leaves the folder as it was.
 */
export async function restoreEmbedded(bytes: Uint8Array, dataDir: string): Promise<RestoreSummary> {
  const contents = await readBackup(bytes);
  const dir = path.resolve(dataDir);
  const holder = dataDirHolder(dir);
  if (holder) {
    throw new BackupError(
      `${dir} is in use by process ${holder.pid} (${holder.command}): stop it first. A backup is restored only into a data folder without a database; nothing was changed.`,
    );
  }
  refuseDatabase(dir);
  const existed = existsSync(dir);
  const lock = lockDataDir(dir);
  const pgdata = pgdataOf(dir);
  let restored = false;
  try {
    refuseDatabase(dir); // again, now that no other process can start on it
    const hadPgdata = existsSync(pgdata);
    mkdirSync(pgdata, { recursive: true, mode: 0o700 });
    let pglite: PGlite | undefined;
    try {
      const { PGlite } = await import("@electric-sql/pglite");
      pglite = await PGlite.create(pgdata, {
        loadDataDir: new Blob([bytes], { type: "application/x-gzip" }),
      });
      const db = pglite;
      const run = async (text: string) => (await db.query<Record<string, unknown>>(text)).rows;
      const level = await readMigrationLevel(run);
      const [users] = await run(
        "select case when to_regclass('public.users') is null then 0 else (select count(*)::int from users) end as n",
      );
      await pglite.close();
      tightenPermissions(dir);
      restored = true;
      return {
        dataDir: dir,
        level: level.current,
        players: Number(users?.n ?? 0),
        pgVersion: contents.pgVersion,
      };
    } catch (error) {
      await pglite?.close().catch(() => {});
      rmSync(pgdata, { recursive: true, force: true });
      if (hadPgdata) mkdirSync(pgdata, { mode: 0o700 });
      const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
      throw new BackupError(
        `the backup (PostgreSQL ${contents.pgVersion} data) did not start as a database (${reason}); a backup starts only on the PostgreSQL major version it was made with. ${dir} is left as it was.`,
      );
    }
  } finally {
    lock.release();
    if (!restored && !existed) rmSync(dir, { recursive: true, force: true });
  }
}

/** What an upgrade says it did, line by line (the app's log, the CLI's stderr). */
export type UpgradeLog = (line: string) => void;

/** The line before an upgrade applies `level.pending`: where the database is, what comes. */
export function logUpgradeStart(log: UpgradeLog, level: MigrationLevel): void {
  const n = level.pending.length;
  const span = n === 1 ? level.pending[0] : `${level.pending[0]} to ${level.pending[n - 1]}`;
  log(
    `Database at migration ${level.current}: applying ${n} migration${n === 1 ? "" : "s"} (${span}).`,
  );
}

/** How to go back to the database as it was before an upgrade, from its backup. */
export function goBackLine(dataDir: string, backup: string, level: string): string {
  return `To go back to ${level}: stop the app, move ${pgdataOf(dataDir)} aside, run "game-admin --data-dir ${dataDir} db restore ${backup}" and start the previous version.`;
}

/** The backup an upgrade took first. */
export interface UpgradeBackup {
  file: string;
  /** The data folder it is the backup of (where it is restored to go back). */
  dataDir: string;
  /** Its size. */
  bytes: number;
}
