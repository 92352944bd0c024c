/** `game-admin db seed`: the seeded season (idempotent). */
import { seed } from "@game/db";
import { Command } from "commander";
import { currentActor, withDb } from "../../context.js";

export function seedCommand(): Command {
  return new Command("seed")
    .description("add the 12 events and the seed racers (idempotent)")
    .addHelpText("after", "\nExample:\n  $ game-admin db seed")
    .action(async (_opts, cmd: Command) => {
      const r = await withDb(cmd, (h) => seed(h.db, { actor: currentActor() }));
      console.log(`Seeded ${r.eventsAdded} events and ${r.racersAdded} racers.`);
    });
}
