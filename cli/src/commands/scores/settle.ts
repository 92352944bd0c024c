/** `game-admin scores settle <eventId>`: score a round again from its stored results. */
import { SettlementError, settleEvent } from "@game/db";
import { Command } from "commander";
import { currentActor, withDb } from "../../context.js";
import { CliError, positiveInt } from "../../errors.js";
import { printJson } from "../../output.js";
import { settlementLine } from "./settlement-line.js";

export function settleCommand(): Command {
  return new Command("settle")
    .description("score an event again from its stored results (safe to repeat)")
    .argument("<eventId>", "the event", positiveInt)
    .option("--json", "print the outcome as JSON")
    .addHelpText(
      "after",
      "\nRecomputes every frozen team's score, the season ranking and the leagues from the\nstored results: running it twice changes nothing.\n\nExample:\n  $ game-admin scores settle 5",
    )
    .action(async (eventId: number, opts: { json?: boolean }, cmd: Command) => {
      const summary = await withDb(cmd, async (h) => {
        try {
          return await settleEvent(h.db, eventId, { now: new Date(), audit: currentActor() });
        } catch (error) {
          if (error instanceof SettlementError) throw new CliError(error.message);
          throw error;
        }
      });
      if (opts.json) return printJson(summary);
      process.stdout.write(`${settlementLine(summary)}\n`);
    });
}
