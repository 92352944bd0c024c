/** `game-admin db`: one file per command in this folder. */
import { Command } from "commander";
import { backupCommand } from "./backup.js";
import { migrateCommand } from "./migrate.js";
import { restoreCommand } from "./restore.js";
import { seedCommand } from "./seed.js";

export function dbCommand(): Command {
  return new Command("db")
    .description("database maintenance")
    .addCommand(migrateCommand())
    .addCommand(seedCommand())
    .addCommand(backupCommand())
    .addCommand(restoreCommand());
}
