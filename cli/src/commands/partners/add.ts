/** `game-admin partners add <name> <origin...>`: a new partner and its publishable key. */
import { addPartner } from "@game/db";
import { Command } from "commander";
import { currentActor, withDb } from "../../context.js";
import { inert, printJson } from "../../output.js";
import { example } from "./options.js";

export function addCommand(): Command {
  return new Command("add")
    .description("add a partner and print its publishable key")
    .argument("<name>", "the partner's name")
    .argument("<origin...>", "web origins allowed to embed, like https://news.example")
    .option("--json", "print the new partner as JSON")
    .addHelpText(
      "after",
      example('add "MTB News" https://mtbnews.example https://www.mtbnews.example'),
    )
    .action(async (name: string, origins: string[], opts: { json?: boolean }, cmd: Command) => {
      const p = await withDb(cmd, (h) => addPartner(h.db, { name, origins }, currentActor()));
      if (opts.json) return printJson(p);
      console.log(inert(`Partner ${p.id} (${p.name}) added for ${p.origins.join(", ")}.`));
      console.log(`Publishable key: ${p.publishableKey}`);
    });
}
