/** `game-admin results finalize <eventId>`: provisional results become final. */
import { type FinalizeOutcome, finalizeResults, getEvent, SettlementError } from "@game/db";
import { Command } from "commander";
import { currentActor, withDb } from "../../context.js";
import { CliError, positiveInt } from "../../errors.js";
import { inert, printJson } from "../../output.js";
import { settlementLine } from "../scores/settlement-line.js";

export function finalizeCommand(): Command {
  return new Command("finalize")
    .description("make an event's provisional results final as they stand and score it again")
    .argument("<eventId>", "the event", positiveInt)
    .option("--json", "print the outcome as JSON")
    .addHelpText(
      "after",
      "\nOnce final, a racer without a result did not start (bench riders come on) and the round\nno longer says provisional. Results already final are left as they are.\n\nExample:\n  $ game-admin results finalize 5",
    )
    .action(async (eventId: number, opts: { json?: boolean }, cmd: Command) => {
      await withDb(cmd, async (h) => {
        const event = await getEvent(h.db, eventId);
        if (!event) throw new CliError(`there is no event ${eventId}`);
        let outcome: FinalizeOutcome;
        try {
          outcome = await finalizeResults(h.db, eventId, {
            now: new Date(),
            audit: currentActor(),
          });
        } catch (error) {
          if (error instanceof SettlementError) throw new CliError(error.message);
          throw error;
        }
        if (opts.json) return printJson(outcome);
        process.stdout.write(
          outcome.alreadyFinal
            ? `The results of event ${eventId} (${inert(event.name)}) are final already: nothing to do.\n`
            : `The results of event ${eventId} (${inert(event.name)}) are final now.\n${settlementLine(outcome.settlement)}\n`,
        );
      });
    });
}
