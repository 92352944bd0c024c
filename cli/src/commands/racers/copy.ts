/** `game-admin racers copy <from> <to>`: start a round with another round's racers. */
import { copyRacers } from "@game/db";
import { Command } from "commander";
import { currentActor, withDb } from "../../context.js";
import { positiveInt } from "../../errors.js";
import { inert, printJson } from "../../output.js";

export function copyCommand(): Command {
  return new Command("copy")
    .description("enter every starting racer of one round in another, at their last prices")
    .argument("<fromEventId>", "the round to copy from", positiveInt)
    .argument("<toEventId>", "the round to enter them in", positiveInt)
    .option("--dry-run", "say what would be copied and write nothing")
    .option("--json", "print JSON")
    .addHelpText(
      "after",
      "\nRacers the target round already has keep their entry; withdrawn racers are not copied.\n\nExample:\n  $ game-admin racers copy 9 13 --dry-run",
    )
    .action(
      async (
        from: number,
        to: number,
        opts: { dryRun?: boolean; json?: boolean },
        cmd: Command,
      ) => {
        const s = await withDb(cmd, (h) =>
          copyRacers(h.db, from, to, {
            actor: currentActor(),
            dryRun: opts.dryRun,
            now: new Date(),
          }),
        );
        if (opts.json) return printJson(s);
        const plural = (n: number) => `${n} ${n === 1 ? "racer" : "racers"}`;
        console.log(
          `${s.dryRun ? "Dry run (nothing written): would copy" : "Copied"} ${plural(s.copied)} from ${inert(s.from.name)} (event ${s.from.id}) to ${inert(s.to.name)} (event ${s.to.id}); ${plural(s.alreadyEntered)} already entered, ${plural(s.withdrawn)} withdrawn left out.`,
        );
      },
    );
}
