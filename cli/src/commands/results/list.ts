/** `game-admin results list <eventId>`: a round's stored results with points and picks. */
import { getEvent, listEventResults } from "@game/db";
import { Command } from "commander";
import { withDb } from "../../context.js";
import { CliError, positiveInt } from "../../errors.js";
import { printJson, printTable } from "../../output.js";
import { place } from "./options.js";

export function listCommand(): Command {
  return new Command("list")
    .description("list an event's stored results with points and picks")
    .argument("<eventId>", "the event", positiveInt)
    .option("--json", "print JSON")
    .addHelpText("after", "\nExample:\n  $ game-admin results list 5")
    .action(async (eventId: number, opts: { json?: boolean }, cmd: Command) => {
      const rows = await withDb(cmd, async (h) => {
        if (!(await getEvent(h.db, eventId))) throw new CliError(`there is no event ${eventId}`);
        return listEventResults(h.db, eventId);
      });
      if (opts.json) return printJson(rows);
      printTable(
        rows,
        [
          { header: "Category", value: (r) => r.category },
          { header: "Place", value: place, align: "right" },
          { header: "Racer", value: (r) => `${r.firstName} ${r.lastName}` },
          { header: "ID", value: (r) => r.racerId, align: "right" },
          { header: "Points", value: (r) => r.points, align: "right" },
          { header: "Picked by", value: (r) => r.pickedBy, align: "right" },
        ],
        "No results for this event yet.",
      );
    });
}
