import { seed } from "@game/db";
import { Command } from "commander";
import { currentActor, openDb, withDb } from "../context.js";

export function dbCommand(): Command {
  const db = new Command("db").description("database maintenance");

  db.command("migrate")
    .description("apply committed migrations")
    .addHelpText("after", "\nExample:\n  $ game-admin db migrate")
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

  return db;
}
