import { readFileSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  type AdminActor,
  backupThroughApp,
  cliActor,
  connectionForDataDir,
  connectionLossCode,
  createDb,
  DataDirLockedError,
  DB_SOCKET_FILE,
  type DbHandle,
  dataDirHolder,
  isConnectionLost,
  publicUrlForDataDir,
  redactUrl,
  resolveDataDir,
  savePreUpgradeBackup,
  UNREACHABLE_CODES,
  type WriteLog,
} from "@game/db";
import type { Command } from "commander";
import { CliError } from "./errors.js";

export interface GlobalOptions {
  databaseUrl?: string;
  dataDir?: string;
  verbose?: boolean;
}

/** Global options of the root program, from any sub-command. */
export function globalOptions(cmd: Command): GlobalOptions {
  let root = cmd;
  while (root.parent) root = root.parent;
  return root.opts<GlobalOptions>();
}

/**
 * Who the audit log names for this run: "cli:<OS user>", or plain "cli" when the system cannot
 * say (no passwd entry for the uid in some containers, for one).
 */
export function currentActor(userInfo: () => { username: string } = os.userInfo): AdminActor {
  try {
    return cliActor(userInfo().username);
  } catch {
    return cliActor();
  }
}

/**
 * A file named on the command line, as an absolute path. `npm run cli` runs the CLI from the
 * repository root, so a relative path is resolved against INIT_CWD (the folder npm was started
 * in, set by npm and npx) when there is one, else against the working directory.
 */
export function inputPath(file: string, env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(env.INIT_CWD || process.cwd(), file);
}

/**
 * The bytes of a file named on the command line. `checkSize` refuses it by its size before
 * anything is read (it throws); a folder, or a file that cannot be read, is refused with the
 * system's reason.
 */
export function readInputFile(file: string, checkSize: (bytes: number) => void): Uint8Array {
  const at = inputPath(file);
  try {
    const stat = statSync(at);
    if (!stat.isFile()) throw new CliError(`${file} is not a file`);
    checkSize(stat.size);
    return readFileSync(at);
  } catch (error) {
    if (error instanceof Error && "code" in error) {
      throw new CliError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code}`);
    }
    throw error;
  }
}

export interface CliDb extends DbHandle {
  /** Where the data is, for messages: never contains a password. */
  label: string;
  /** The running app's socket, when the CLI reaches the embedded database through it. */
  appUrl?: string;
}

/** An upgrade's lines (the backup, each migration, how to go back): progress, so stderr. */
const upgradeLog = (line: string) => console.error(line);

/**
 * Opens the database the way the web app does: --database-url or DATABASE_URL selects
 * PostgreSQL, otherwise the embedded database in --data-dir / DATA_DIR / <repo>/data. When the
 * web app is running on that folder it holds the database (PGlite is one process per folder), so
 * the CLI connects to the socket the app serves it on instead (docs/decisions/0040).
 */
export async function openDb(cmd: Command, opts: { migrate?: boolean } = {}): Promise<CliDb> {
  const g = globalOptions(cmd);
  const migrate = opts.migrate ?? true;
  const url = g.databaseUrl ?? process.env.DATABASE_URL;
  if (url) {
    try {
      const h = await createDb({ url, migrate, trackWrites: true, log: upgradeLog });
      return { ...h, label: `postgres: ${h.location}` };
    } catch (error) {
      // Connected, then lost (while migrating): the command itself never started. A database
      // that cannot be reached at all keeps the driver's own words (ECONNREFUSED...).
      const code = connectionLossCode(error);
      if (code && !UNREACHABLE_CODES.has(code)) {
        throw new CliError(
          `the connection to the database was lost while opening it (postgres: ${redactUrl(url)}): the command did not start, nothing of it was written. Run it again once the database is back.`,
        );
      }
      throw error;
    }
  }
  const dataDir = dataDirOf(g);
  const shared = connectionForDataDir(dataDir);
  if (shared) return throughApp(dataDir, shared, migrate);
  // No app runs there: the CLI opens the folder itself, holding its lock (docs/decisions/0070)
  // and keeping the files it writes private.
  process.umask(0o077);
  try {
    const h = await createDb({ url: "", dataDir, migrate, log: upgradeLog });
    return { ...h, label: `embedded: ${dataDir}` };
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    // An app that is starting holds the folder a few seconds before it serves the CLI.
    if (error.holder.command.includes("server.js")) {
      const later = await waitForApp(dataDir, APP_START_WAIT_MS);
      if (later) return throughApp(dataDir, later, migrate);
    }
    throw new CliError(`${error.message} If it is the app starting, try again in a few seconds.`);
  }
}

/** The embedded database's folder: --data-dir, else DATA_DIR, else <repo>/data. */
export function dataDirOf(g: GlobalOptions): string {
  return g.dataDir ? inputPath(g.dataDir) : resolveDataDir();
}

/**
 * Where the links of mails sent by the CLI point: PUBLIC_URL when set, else the address the app
 * running on the embedded database published in its socket file (docs/decisions/0143). On
 * PostgreSQL there is no such file to trust (several apps, maybe on other machines), so only
 * PUBLIC_URL will do. Refuses rather than guess: a wrong link in a mail is never corrected.
 */
export function publicUrl(cmd: Command): string {
  const own = process.env.PUBLIC_URL;
  if (own) {
    if (!isHttpUrl(own)) {
      throw new CliError(`PUBLIC_URL must be an http:// or https:// address, got "${own}"`);
    }
    return own;
  }
  const g = globalOptions(cmd);
  if (g.databaseUrl ?? process.env.DATABASE_URL) {
    throw new CliError(
      "Cannot tell the site's address for the links: set PUBLIC_URL to the address players use (with DATABASE_URL the CLI cannot ask a running app).",
    );
  }
  const published = publicUrlForDataDir(dataDirOf(g));
  if (published) return published;
  throw new CliError(
    "Cannot tell the site's address for the links: start the app (it tells the CLI its address), or set PUBLIC_URL to the address players use.",
  );
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
}

/** How long the CLI waits for a starting app to serve it the database. */
const APP_START_WAIT_MS = 15_000;

async function waitForApp(dataDir: string, ms: number): Promise<string | null> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const url = connectionForDataDir(dataDir);
    if (url) return url;
    if (!dataDirHolder(dataDir)) return null; // it stopped (or failed) instead
  }
  return null;
}

async function throughApp(dataDir: string, url: string, migrate: boolean): Promise<CliDb> {
  try {
    // The socket serves one exchange at a time: one connection is all the CLI needs.
    const h = await createDb({
      url,
      max: 1,
      migrate,
      trackWrites: true,
      log: upgradeLog,
      // A CLI newer than the app upgrades the app's database: the app copies it first.
      backupBeforeUpgrade: async (level) => {
        const bytes = await backupThroughApp(url);
        const file = await savePreUpgradeBackup(dataDir, level.current!, bytes);
        return { file, dataDir, bytes: bytes.length };
      },
    });
    return { ...h, label: `embedded: ${dataDir} (through the running app)`, appUrl: url };
  } catch (error) {
    const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new CliError(
      `the app holding ${dataDir} did not answer (${reason}); if no app is running there, delete ${path.join(dataDir, DB_SOCKET_FILE)}`,
    );
  }
}

/**
 * The one line for a connection lost mid-command: what happened, and what it left written, from
 * the handle's write log (docs/decisions/0154).
 */
export function lostConnectionMessage(label: string, writes: WriteLog): string {
  const what = `the connection to the database was lost during the command (${label})`;
  const saved = (n: number) => `${n} ${n === 1 ? "change" : "changes"}`;
  if (writes.unsure) {
    const before =
      writes.committed > 0 ? `; ${saved(writes.committed)} before it had been saved` : "";
    return `${what} while a change was being saved: it may or may not have been written${before}. Check before running the command again.`;
  }
  const rolledBack = writes.rolledBack ? "; the change in progress was rolled back" : "";
  if (writes.committed === 0) {
    return `${what}: nothing was written${rolledBack}. Run it again once the database is back.`;
  }
  return `${what}: ${saved(writes.committed)} had been saved before${rolledBack}. Check what was done before running the command again.`;
}

/**
 * Runs `fn` with an open database and always closes it. A connection lost on the way becomes one
 * line saying so and what it left written (exit 1), not the driver's error.
 */
export async function withDb<T>(cmd: Command, fn: (h: CliDb) => Promise<T>): Promise<T> {
  const h = await openDb(cmd);
  let lost = false;
  try {
    return await fn(h);
  } catch (error) {
    if (h.writes && isConnectionLost(error)) {
      lost = true;
      throw new CliError(lostConnectionMessage(h.label, h.writes));
    }
    throw error;
  } finally {
    // Closing a pool whose server is gone may fail too: the message above is the one to show.
    await (lost ? h.close().catch(() => {}) : h.close());
  }
}
