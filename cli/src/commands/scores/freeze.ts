/** `game-admin scores freeze`: freeze the teams of every round whose lock has passed. */
import { freezeDueEvents } from "@game/db";
import { Command } from "commander";
import { withDb } from "../../context.js";
import { printJson } from "../../output.js";
import { thousands } from "./settlement-line.js";

export function freezeCommand(): Command {
  return new Command("freeze")
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
          : `${frozen.map((f) => `Froze event ${f.eventId}: ${thousands(f.teams)} teams.`).join("\n")}\n`,
      );
    });
}
