import { seed } from "@game/db";
import { Command } from "commander";
import { currentActor, openDb, withDb } from "../context.js";
import { addBackupCommands } from "./db-backup.js";

export function dbCommand(): Command {
  const db = new Command("db").description("database maintenance");

  db.command("migrate")
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

  db.command("seed")
    .description("add the 12 events and the seed racers (idempotent)")
    .addHelpText("after", "\nExample:\n  $ game-admin db seed")
    .action(async (_opts, cmd: Command) => {
      const r = await withDb(cmd, (h) => seed(h.db, { actor: currentActor() }));
      console.log(`Seeded ${r.eventsAdded} events and ${r.racersAdded} racers.`);
    });

  addBackupCommands(db);

  return db;
}
