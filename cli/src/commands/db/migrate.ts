/** `game-admin db migrate`: apply the committed migrations. */
import { Command } from "commander";
import { openDb } from "../../context.js";

export function migrateCommand(): Command {
  return new Command("migrate")
    .description("apply committed migrations (an embedded database is backed up first)")
    .addHelpText(
      "after",
      "\nAn embedded database that is behind is backed up into <data folder>/backups first; the\nlines on stderr name the backup, each migration applied and how to go back.\n\nExample:\n  $ game-admin db migrate",
    )
    .action(async (_opts, cmd: Command) => {
      const h = await openDb(cmd, { migrate: true });
      await h.close();
      console.log(`Migrations applied (${h.label}).`);
    });
}
