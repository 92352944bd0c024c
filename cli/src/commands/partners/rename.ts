/** `game-admin partners rename <id> <name>`. */
import { renamePartner } from "@game/db";
import { Command } from "commander";
import { currentActor, withDb } from "../../context.js";
import { positiveInt } from "../../errors.js";
import { inert, printJson } from "../../output.js";
import { example } from "./options.js";

export function renameCommand(): Command {
  return new Command("rename")
    .description("rename a partner (its key and origins stay)")
    .argument("<id>", "partner id (see partners list)", positiveInt)
    .argument("<name>", "the new name")
    .option("--json", "print the partner as JSON")
    .addHelpText("after", example('rename 3 "MTB News Daily"'))
    .action(async (id: number, name: string, opts: { json?: boolean }, cmd: Command) => {
      const r = await withDb(cmd, (h) => renamePartner(h.db, id, name, currentActor()));
      if (opts.json) return printJson(r.partner);
      console.log(
        inert(
          r.changed
            ? `Partner ${id} is now named ${r.partner.name}.`
            : `Partner ${id} already was named ${r.partner.name}.`,
        ),
      );
    });
}
