import path from "node:path";
import { CSV_MAX_BYTES, formatResultIssue, isLocked, lockTime } from "@game/core";
import { getEvent, importResults, listEventResults } from "@game/db";
import { Command } from "commander";
import { currentActor, readInputFile, withDb } from "../context.js";
import { CliError, positiveInt } from "../errors.js";
import { inert, printJson, printTable } from "../output.js";
import { settlementLine } from "./scores.js";

/** Results files share the racer files' size limit. */
function checkResultsSize(file: string) {
  return (bytes: number) => {
    if (bytes > CSV_MAX_BYTES) {
      throw new CliError(`${file} is larger than ${CSV_MAX_BYTES / 1024 / 1024} MB`);
    }
  };
}

const place = (r: { status: string; position: number | null }) =>
  r.status === "finished" ? String(r.position) : r.status;

export function resultsCommand(): Command {
  const results = new Command("results").description("race results: import from CSV, list");

  results
    .command("import")
    .description("replace an event's results from a CSV file and score the event, all or nothing")
    .argument("<eventId>", "the event (see: game-admin events list)", positiveInt)
    .argument(
      "<file.csv>",
      "columns: Position (place per category, DNF, DNS or DSQ), First Name, Last Name, Category; or a Racer ID column instead of the names",
    )
    .option("--dry-run", "check the file and show what it holds, writing nothing")
    .option("--json", "print the outcome as JSON")
    .addHelpText(
      "after",
      "\nEvery problem is reported with its line and nothing is written while there is one.\nImporting a corrected file replaces the results; scores are recomputed, never added.\n\nExample:\n  $ game-admin results import 5 round-1.csv --dry-run",
    )
    .action(
      async (
        eventId: number,
        file: string,
        opts: { dryRun?: boolean; json?: boolean },
        cmd: Command,
      ) => {
        const text = readInputFile(file, checkResultsSize(file));
        const name = path.basename(file);
        await withDb(cmd, async (h) => {
          const event = await getEvent(h.db, eventId);
          if (!event) throw new CliError(`there is no event ${eventId}`);
          const now = new Date();
          const outcome = await importResults(h.db, eventId, text, {
            now,
            dryRun: opts.dryRun,
            audit: currentActor(),
          });
          if (!outcome.ok) {
            if (opts.json) printJson(outcome);
            else for (const issue of outcome.issues) console.error(inert(formatResultIssue(issue)));
            const n = outcome.issues.length;
            throw new CliError(
              `nothing imported: ${n} ${n === 1 ? "problem" : "problems"} in ${name}`,
            );
          }
          if (opts.json) return printJson(outcome);
          const count = (s: string) => outcome.rows.filter((r) => r.status === s).length;
          const lines = [
            `${opts.dryRun ? "Dry run (nothing written): " : ""}${name}: ${outcome.rows.length} results for ${inert(event.name)}`,
            `  finished: ${count("finished")}, DNF: ${count("DNF")}, DNS: ${count("DNS")}, DSQ: ${count("DSQ")}`,
          ];
          if (!isLocked(event, now)) {
            lines.push(
              `  note: teams lock at ${lockTime(event).toISOString()}; importing freezes them now`,
            );
          }
          if (outcome.settlement) lines.push(settlementLine(outcome.settlement));
          process.stdout.write(`${lines.join("\n")}\n`);
        });
      },
    );

  results
    .command("list")
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

  return results;
}
