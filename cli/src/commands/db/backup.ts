/**
 * `game-admin db backup <file>`: a copy of the embedded database (docs/decisions/0163), made by
 * the running app when there is one.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import {
  BackupError,
  backupThroughApp,
  connectionForDataDir,
  dumpEmbedded,
  formatSize,
  holdsDatabase,
  saveBackup,
} from "@game/db";
import { Command } from "commander";
import { dataDirOf, globalOptions, inputPath, openDb } from "../../context.js";
import { CliError } from "../../errors.js";
import { POSTGRES_TOOLS, refusePostgres } from "./postgres-tools.js";

export function backupCommand(): Command {
  return new Command("backup")
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
}
