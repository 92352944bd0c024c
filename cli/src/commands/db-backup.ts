/**
 * `db backup` and `db restore`: copies of the embedded database (docs/decisions/0163). PostgreSQL
 * is backed up and restored with its own pg_dump and pg_restore.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import {
  BackupError,
  backupThroughApp,
  connectionForDataDir,
  dumpEmbedded,
  formatSize,
  holdsDatabase,
  readBackup,
  restoreEmbedded,
  saveBackup,
} from "@game/db";
import type { Command } from "commander";
import { dataDirOf, globalOptions, inputPath, openDb } from "../context.js";
import { CliError, UsageError } from "../errors.js";

const POSTGRES_TOOLS = {
  backup: 'pg_dump -Fc -f gravity-fantasy.dump "$DATABASE_URL"',
  restore: 'pg_restore --clean --if-exists --no-owner -d "$DATABASE_URL" gravity-fantasy.dump',
};

/** On PostgreSQL these commands are the wrong tool: say which one to use instead. */
function refusePostgres(cmd: Command, what: "backup" | "restore"): void {
  const g = globalOptions(cmd);
  if (g.databaseUrl ?? process.env.DATABASE_URL) {
    throw new UsageError(
      `db ${what} is for the embedded database; on PostgreSQL (DATABASE_URL) use PostgreSQL's own tool: ${POSTGRES_TOOLS[what]} (README, "Backup and restore").`,
    );
  }
}

export function addBackupCommands(db: Command): void {
  db.command("backup")
    .description("copy the embedded database into a file (also while the app runs)")
    .argument("<file>", "the backup file to write (a gzip'd tar, .tar.gz)")
    .option("--force", "replace <file> if it exists")
    .addHelpText(
      "after",
      `
While the app runs, the app makes the copy between two transactions. Restore it with
"game-admin db restore <file>". On PostgreSQL use ${POSTGRES_TOOLS.backup}.

Example:
  $ game-admin db backup gravity-fantasy-2026-05-01.tar.gz`,
    )
    .action(async (file: string, opts: { force?: boolean }, cmd: Command) => {
      refusePostgres(cmd, "backup");
      const target = inputPath(file);
      if (!existsSync(path.dirname(target))) {
        throw new CliError(`the folder ${path.dirname(target)} does not exist`);
      }
      if (!opts.force && existsSync(target)) {
        throw new CliError(`${target} already exists: name another file, or add --force`);
      }
      const dataDir = dataDirOf(globalOptions(cmd));
      // Without an app, opening a folder without a database would create an empty one.
      if (!connectionForDataDir(dataDir) && !holdsDatabase(dataDir)) {
        throw new CliError(
          `there is no database in ${dataDir} to back up (set DATA_DIR or --data-dir to the app's data folder)`,
        );
      }
      const h = await openDb(cmd, { migrate: false });
      let bytes: Buffer;
      try {
        bytes = h.pglite ? await dumpEmbedded(h.pglite) : await backupThroughApp(h.appUrl!);
      } catch (error) {
        if (error instanceof BackupError) throw new CliError(error.message);
        const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
        throw new CliError(`no backup was made (${h.label}): ${reason}`);
      } finally {
        await h.close();
      }
      try {
        await saveBackup(target, bytes, { replace: opts.force });
      } catch (error) {
        // The copy that came back is not whole (the connection broke): nothing was written.
        if (error instanceof BackupError) {
          throw new CliError(`the copy received is not a whole backup (${error.message})`);
        }
        throw error;
      }
      console.log(`Backed up ${h.label} to ${target} (${formatSize(bytes.length)}).`);
    });

  db.command("restore")
    .description("restore a backup into an empty data folder (the app stopped)")
    .argument("<file>", "a backup made by game-admin db backup")
    .addHelpText(
      "after",
      `
Restores into DATA_DIR (or --data-dir) only when it holds no database, never under a running
app: to replace a database, stop the app and move <data folder>/pgdata aside first. On
PostgreSQL use ${POSTGRES_TOOLS.restore}.

Example:
  $ game-admin db restore gravity-fantasy-2026-05-01.tar.gz`,
    )
    .action(async (file: string, _opts: unknown, cmd: Command) => {
      refusePostgres(cmd, "restore");
      const source = inputPath(file);
      let bytes: Buffer;
      try {
        bytes = readFileSync(source);
      } catch (error) {
        throw new CliError(`cannot read ${source} (${(error as NodeJS.ErrnoException).code})`);
      }
      try {
        await readBackup(bytes);
      } catch (error) {
        if (!(error instanceof BackupError)) throw error;
        throw new CliError(
          `${source} is not a backup of the embedded database: ${error.message}. Backups are made by "game-admin db backup <file>".`,
        );
      }
      const dataDir = dataDirOf(globalOptions(cmd));
      if (connectionForDataDir(dataDir)) {
        throw new CliError(
          `the app is running on ${dataDir}: a backup is restored only into a data folder without a database, with the app stopped. Nothing was changed.`,
        );
      }
      // What the restore writes is private, as everything in the data folder.
      process.umask(0o077);
      try {
        const r = await restoreEmbedded(bytes, dataDir);
        const players = `${r.players} player${r.players === 1 ? "" : "s"}`;
        console.log(
          `Restored ${source} into ${r.dataDir}: the database at migration ${r.level ?? "(none)"}, ${players}. Start the app on it (a newer version upgrades it, backing it up first).`,
        );
      } catch (error) {
        if (error instanceof BackupError) throw new CliError(error.message);
        throw error;
      }
    });
}
