/** `game-admin db restore <file>`: a backup into an empty data folder (docs/decisions/0163). */
import { readFileSync } from "node:fs";
import { BackupError, connectionForDataDir, readBackup, restoreEmbedded } from "@game/db";
import { Command } from "commander";
import { dataDirOf, globalOptions, inputPath } from "../../context.js";
import { CliError } from "../../errors.js";
import { POSTGRES_TOOLS, refusePostgres } from "./postgres-tools.js";

export function restoreCommand(): Command {
  return new Command("restore")
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
