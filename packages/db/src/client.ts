import { mkdirSync } from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import type { ExtractTablesWithRelations } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import {
  dumpEmbedded,
  formatSize,
  goBackLine,
  logUpgradeStart,
  savePreUpgradeBackup,
  type UpgradeBackup,
  type UpgradeLog,
} from "./backup.js";
import { emptyWriteLog, trackWrites, type WriteLog } from "./connection-loss.js";
import { lockDataDir, tightenPermissions } from "./data-dir-lock.js";
import { type MigrationLevel, type RunSql, readMigrationLevel } from "./migration-level.js";
import { migrationsFolder, resolveDataDir } from "./paths.js";
import * as schema from "./schema/index.js";

// What a lost connection left written (the CLI's messages; docs/decisions/0154).
export {
  connectionLossCode,
  isConnectionLost,
  UNREACHABLE_CODES,
  type WriteLog,
} from "./connection-loss.js";

export type Schema = typeof schema;
/** One type for both drivers: the query builder is the same on PGlite and postgres-js. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Service functions take either, so they compose inside a caller's transaction. */
export type DbOrTx = Db | Tx;

export interface DbHandle {
  /** The primary: every write, and every read that must see the caller's own writes. */
  db: Db;
  /**
   * Where read-only public pages read (rankings, racers, events, the public API): a streaming
   * replica when one is configured (`replicaUrl`), otherwise the primary itself. It may lag the
   * primary by a moment, so a player's own data never comes from here (docs/decisions/0131).
   */
  readDb: Db;
  /** The replica's URL without its password, when `readDb` is one. */
  replicaLocation?: string;
  kind: "pglite" | "postgres";
  /** The embedded engine, when that is what runs (the app serves it to the CLI). */
  pglite?: PGlite;
  /** Where the data lives: the data folder, "memory", or the URL without its password. */
  location: string;
  /**
   * What was written so far (PostgreSQL and the app's socket, when `trackWrites` was asked):
   * what a lost connection left behind (docs/decisions/0154).
   */
  writes?: WriteLog;
  close(): Promise<void>;
}

export interface CreateDbOptions {
  /** PostgreSQL URL; default `DATABASE_URL`. */
  url?: string;
  /**
   * A streaming replica of `url` for `readDb` (the app's DATABASE_REPLICA_URL). Never read from
   * the environment here: only the app's public read paths want it, not the CLI or the tests.
   */
  replicaUrl?: string;
  /** PGlite data folder, or "memory"; default `DATA_DIR` or `<repo>/data`. */
  dataDir?: string;
  /** Apply committed migrations first (default true). */
  migrate?: boolean;
  /** postgres-js pool size (default 10). */
  max?: number;
  /** PostgreSQL: give up connecting after this many seconds (default 5). */
  connectTimeoutSeconds?: number;
  /** PostgreSQL: the server cancels any statement running longer (default 30 s; 0 = never). */
  statementTimeoutMs?: number;
  /** PostgreSQL: the connections' `application_name` (the app names its process, for metrics). */
  applicationName?: string;
  /** PostgreSQL: keep a WriteLog in `writes` (the CLI, to say what a lost connection left). */
  trackWrites?: boolean;
  /**
   * Where an upgrade of an existing database says what it does: the backup taken first, each
   * migration applied, how to go back (the app's log, the CLI's stderr). Nothing is said when no
   * migration is pending, nor for a new database.
   */
  log?: UpgradeLog;
  /**
   * Backs up, before an upgrade, the embedded database that `url` reaches through the running
   * app's socket (the CLI). An embedded data folder opened here is backed up without it;
   * PostgreSQL is backed up with its own tools (pg_dump).
   */
  backupBeforeUpgrade?: (level: MigrationLevel) => Promise<UpgradeBackup>;
}

/** Defaults: an outage answers in seconds instead of hanging requests (docs/decisions/0071). */
export const DB_CONNECT_TIMEOUT_SECONDS = 5;
export const DB_STATEMENT_TIMEOUT_MS = 30_000;

/**
 * The one way to get a database: PostgreSQL through `postgres` when a URL is given (or
 * DATABASE_URL is set), otherwise embedded PGlite in a data folder (or in memory).
 */
export async function createDb(opts: CreateDbOptions = {}): Promise<DbHandle> {
  const url = opts.url ?? process.env.DATABASE_URL;
  if (opts.replicaUrl && !url) {
    throw new Error("A read replica needs PostgreSQL: set DATABASE_URL too.");
  }
  const handle = url ? openPostgres(url, opts) : await openPglite(opts.dataDir);
  if (opts.migrate ?? true) {
    try {
      await runMigrations(handle, url, opts);
    } catch (error) {
      await handle.close();
      throw error;
    }
  }
  return handle;
}

function postgresPool(url: string, opts: CreateDbOptions, readOnly = false) {
  return postgres(url, {
    max: opts.max ?? 10,
    onnotice: () => {},
    connect_timeout: opts.connectTimeoutSeconds ?? DB_CONNECT_TIMEOUT_SECONDS,
    // Pooled connections idle this long are closed: after an outage the pool reconnects fresh.
    idle_timeout: 60,
    connection: {
      statement_timeout: opts.statementTimeoutMs ?? DB_STATEMENT_TIMEOUT_MS,
      ...(opts.applicationName ? { application_name: opts.applicationName } : {}),
      // The read pool refuses writes even when the URL names a primary by mistake.
      ...(readOnly ? { default_transaction_read_only: true } : {}),
    },
  });
}

function openPostgres(url: string, opts: CreateDbOptions): DbHandle {
  const client = postgresPool(url, opts);
  const writes = opts.trackWrites ? emptyWriteLog() : undefined;
  if (writes) trackWrites(client, writes);
  const db = drizzlePostgres(client, { schema }) as unknown as Db;
  // Two explicit handles rather than drizzle's withReplicas, which sends every select to the
  // replica and every raw execute to the primary: here each call site says which it reads.
  const reader = opts.replicaUrl ? postgresPool(opts.replicaUrl, opts, true) : undefined;
  const readDb = reader ? (drizzlePostgres(reader, { schema }) as unknown as Db) : db;
  return {
    db,
    readDb,
    replicaLocation: opts.replicaUrl ? redactUrl(opts.replicaUrl) : undefined,
    kind: "postgres",
    location: redactUrl(url),
    ...(writes ? { writes } : {}),
    close: async () => {
      await Promise.all([client.end({ timeout: 5 }), reader?.end({ timeout: 5 })]);
    },
  };
}

async function openPglite(dataDir?: string): Promise<DbHandle> {
  const dir = dataDir ?? resolveDataDir();
  // Loaded here, not at the top: a CLI command that reaches the running app through its socket,
  // and every PostgreSQL set-up, never start the embedded engine.
  const { PGlite } = await import("@electric-sql/pglite");
  let pglite: PGlite;
  let lock: ReturnType<typeof lockDataDir> | undefined;
  if (dir === "memory") {
    pglite = new PGlite();
  } else {
    // One process per folder: a second engine on the same files destroys the database.
    lock = lockDataDir(dir);
    try {
      tightenPermissions(dir);
      const pgdata = path.join(dir, "pgdata");
      mkdirSync(pgdata, { recursive: true, mode: 0o700 });
      pglite = new PGlite(pgdata);
      await pglite.waitReady;
      // PGlite writes a new folder's files, and its caches on every open, 0666 whatever the
      // umask: make them private now; what it creates later follows the (app's) umask.
      tightenPermissions(dir);
    } catch (error) {
      lock.release();
      throw error;
    }
  }
  await pglite.waitReady; // the in-memory engine
  const db = drizzlePglite(pglite, { schema }) as unknown as Db;
  return {
    db,
    readDb: db,
    kind: "pglite",
    pglite,
    location: dir,
    close: async () => {
      if (!pglite.closed) await pglite.close();
      if (lock) {
        // PGlite writes its files 0666 less the umask: make what it added private too.
        tightenPermissions(dir);
        lock.release();
        lock = undefined;
      }
    },
  };
}

async function runMigrations(
  handle: DbHandle,
  url: string | undefined,
  opts: CreateDbOptions,
): Promise<void> {
  const log = opts.log ?? (() => {});
  if (handle.kind === "pglite") {
    const pglite = handle.pglite!;
    const dataDir = handle.location;
    const backup =
      dataDir === "memory"
        ? undefined
        : async (level: MigrationLevel): Promise<UpgradeBackup> => {
            const bytes = await dumpEmbedded(pglite);
            const file = await savePreUpgradeBackup(dataDir, level.current!, bytes);
            return { file, dataDir, bytes: bytes.length };
          };
    await upgrade(
      async (text) => (await pglite.query<Record<string, unknown>>(text)).rows,
      () => migratePglite(handle.db as never, { migrationsFolder }),
      log,
      backup,
    );
    return;
  }
  // Several processes may start at once (app instances, CLI): one migrates, the others wait
  // (so no statement timeout here: waiting for the lock and a long migration are both normal).
  const client = postgres(url!, {
    max: 1,
    onnotice: () => {},
    connect_timeout: opts.connectTimeoutSeconds ?? DB_CONNECT_TIMEOUT_SECONDS,
  });
  try {
    await client`select pg_advisory_lock(727274)`;
    await upgrade(
      (text) => client.unsafe(text),
      () => migratePostgres(drizzlePostgres(client), { migrationsFolder }),
      log,
      opts.backupBeforeUpgrade,
    );
    await client`select pg_advisory_unlock(727274)`;
  } finally {
    await client.end({ timeout: 5 });
  }
}

/**
 * Applies the pending migrations; on a database that has some already (an upgrade), backs it up
 * first when it can, and logs each migration applied and how to go back
 * (docs/decisions/0163-backup-and-restore.md).
 */
async function upgrade(
  run: RunSql,
  migrate: () => Promise<void>,
  log: UpgradeLog,
  backup?: (level: MigrationLevel) => Promise<UpgradeBackup>,
): Promise<void> {
  const level = await readMigrationLevel(run);
  // A new database has nothing to keep and nothing to go back to.
  if (level.current === null || level.pending.length === 0) return migrate();
  logUpgradeStart(log, level);
  let saved: UpgradeBackup | undefined;
  if (backup) {
    try {
      saved = await backup(level);
    } catch (error) {
      const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
      throw new Error(
        `The backup before upgrading the database could not be written (${reason}); nothing was migrated.`,
      );
    }
    log(`Backed up the database to ${saved.file} (${formatSize(saved.bytes)}) before upgrading.`);
  }
  try {
    await migrate();
  } catch (error) {
    // drizzle applies the pending migrations in one transaction: none of them stayed.
    log(
      `Upgrade failed: the database is as it was, at ${level.current}${saved ? ` (its backup: ${saved.file})` : ""}.`,
    );
    throw error;
  }
  for (const tag of level.pending) log(`Applied migration ${tag}.`);
  if (saved) log(goBackLine(saved.dataDir, saved.file, level.current));
}

export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "postgres";
  }
}

/** Rows of a raw `db.execute()` result: postgres-js returns an array, PGlite `{ rows }`. */
export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}
