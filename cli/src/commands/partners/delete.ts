/** `game-admin partners delete <id> --yes`: a disabled partner, for good. */
import { deletePartner } from "@game/db";
import { Command } from "commander";
import { currentActor, withDb } from "../../context.js";
import { positiveInt, UsageError } from "../../errors.js";
import { printJson } from "../../output.js";
import { example, label } from "./options.js";

export function deleteCommand(): Command {
  return new Command("delete")
    .description("delete a disabled partner for good (its key can never work again)")
    .argument("<id>", "partner id (see partners list)", positiveInt)
    .option("--yes", "confirm: deleting cannot be undone")
    .option("--json", "print the deleted partner as JSON")
    .addHelpText("after", example("disable 3", "delete 3 --yes"))
    .action(async (id: number, opts: { yes?: boolean; json?: boolean }, cmd: Command) => {
      if (!opts.yes) {
        throw new UsageError(
          `deleting partner ${id} cannot be undone: add --yes (or use disable, which can).`,
        );
      }
      const p = await withDb(cmd, (h) => deletePartner(h.db, id, currentActor()));
      if (opts.json) return printJson(p);
      console.log(`${label(p)} deleted.`);
    });
}
