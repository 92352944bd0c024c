/** `game-admin partners origins <id>`: the origins allowed to embed. */
import { changePartnerOrigins, type OriginChange } from "@game/db";
import { Command } from "commander";
import { currentActor, withDb } from "../../context.js";
import { positiveInt, UsageError } from "../../errors.js";
import { inert, printJson } from "../../output.js";
import { example, label } from "./options.js";

export function originsCommand(): Command {
  return new Command("origins")
    .description("change the origins allowed to embed: add, remove, or replace them all")
    .argument("<id>", "partner id (see partners list)", positiveInt)
    .option("--add <origin...>", "origins to allow")
    .option("--remove <origin...>", "origins to stop allowing (at once, for CORS and the iframe)")
    .option("--set <origin...>", "the complete new list (instead of --add/--remove)")
    .option("--json", "print the partner as JSON")
    .addHelpText(
      "after",
      example(
        "origins 3 --add https://m.mtbnews.example --remove https://old.mtbnews.example",
        "origins 3 --set https://mtbnews.example https://www.mtbnews.example",
      ),
    )
    .action(
      async (
        id: number,
        opts: { add?: string[]; remove?: string[]; set?: string[]; json?: boolean },
        cmd: Command,
      ) => {
        if (opts.set && (opts.add || opts.remove)) {
          throw new UsageError("give either --set, or --add and/or --remove.");
        }
        if (!opts.set && !opts.add && !opts.remove) {
          throw new UsageError("give --add, --remove or --set with at least one origin.");
        }
        const change: OriginChange = opts.set
          ? { set: opts.set }
          : { add: opts.add ?? [], remove: opts.remove ?? [] };
        const r = await withDb(cmd, (h) => changePartnerOrigins(h.db, id, change, currentActor()));
        if (opts.json) return printJson(r.partner);
        const list = r.partner.origins.join(", ");
        if (!r.changed) {
          console.log(inert(`${label(r.partner)} is unchanged: ${list}.`));
          return;
        }
        const what = [
          r.added.length > 0 ? `added ${r.added.join(", ")}` : "",
          r.removed.length > 0 ? `removed ${r.removed.join(", ")}` : "",
        ].filter(Boolean);
        console.log(inert(`${label(r.partner)} now allows ${list} (${what.join("; ")}).`));
      },
    );
}
