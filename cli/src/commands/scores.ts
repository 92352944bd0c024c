import { freezeDueEvents, SettlementError, type SettlementSummary, settleEvent } from "@game/db";
import { Command } from "commander";
import { currentActor, withDb } from "../context.js";
import { CliError, positiveInt } from "../errors.js";
import { printJson } from "../output.js";

const n = (v: number) => v.toLocaleString("en-US");

/** One line saying what a settlement did. */
export function settlementLine(s: SettlementSummary): string {
  return `Scored event ${s.eventId}${s.provisional ? " (provisional)" : ""}: ${n(s.teams)} teams, ${n(s.rankedPlayers)} players ranked, ${n(s.leagues)} leagues, in ${(s.ms / 1000).toFixed(1)} s${s.frozeNow ? " (teams frozen now)" : ""}.`;
}

export function scoresCommand(): Command {
  const scores = new Command("scores").description("scoring: settle events, freeze teams");

  scores
    .command("settle")
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

  scores
    .command("freeze")
    .description(
      "freeze the teams of every event whose lock moment has passed (the app does this every 30 s)",
    )
    .option("--json", "print the frozen events as JSON")
    .addHelpText("after", "\nExample:\n  $ game-admin scores freeze")
    .action(async (opts: { json?: boolean }, cmd: Command) => {
      const frozen = await withDb(cmd, (h) => freezeDueEvents(h.db, new Date()));
      if (opts.json) return printJson(frozen);
      process.stdout.write(
        frozen.length === 0
          ? "No event to freeze.\n"
          : `${frozen.map((f) => `Froze event ${f.eventId}: ${n(f.teams)} teams.`).join("\n")}\n`,
      );
    });

  return scores;
}
