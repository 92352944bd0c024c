import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import {
  CATEGORIES,
  type Category,
  CSV_MAX_BYTES,
  CsvFileError,
  decodeCsvBytes,
  formatResultIssue,
  isLocked,
  lockTime,
  normalizeCategory,
} from "@game/core";
import {
  type FinalizeOutcome,
  finalizeResults,
  getEvent,
  importResults,
  listEventResults,
  SettlementError,
} from "@game/db";
import { Command, InvalidArgumentError } from "commander";
import { currentActor, inputPath, withDb } from "../context.js";
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

/** `--category "Pro Men"` (also "pro-men", "Elite Men"): the category of the whole file. */
function categoryOption(value: string): Category {
  const category = normalizeCategory(value);
  if (!category) {
    throw new InvalidArgumentError(`must be one of ${CATEGORIES.map((c) => `"${c}"`).join(", ")}.`);
  }
  return category;
}

/**
 * The file's text, decoded as the dashboard decodes uploads: timing exports come from Excel as
 * often as not, in UTF-8, UTF-16 or Windows-1252 ("HÖLL" must not become "H�LL").
 */
function readResultsText(file: string): string {
  const at = inputPath(file);
  let bytes: Uint8Array;
  try {
    const stat = statSync(at);
    if (!stat.isFile()) throw new CliError(`${file} is not a file`);
    checkResultsSize(file)(stat.size);
    bytes = readFileSync(at);
  } catch (error) {
    if (error instanceof Error && "code" in error) {
      throw new CliError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code}`);
    }
    throw error;
  }
  try {
    return decodeCsvBytes(bytes).text;
  } catch (error) {
    if (error instanceof CsvFileError) throw new CliError(`${file}: ${error.message}`);
    throw error;
  }
}

const place = (r: { status: string; position: number | null }) =>
  r.status === "finished" ? String(r.position) : r.status;

export function resultsCommand(): Command {
  const results = new Command("results").description(
    "race results: import from CSV (provisional while the race runs), finalize, list",
  );

  results
    .command("import")
    .description(
      "replace an event's results (the categories in the file) from a CSV file and score the event, all or nothing",
    )
    .argument("<eventId>", "the event (see: game-admin events list)", positiveInt)
    .argument(
      "<file.csv>",
      "columns: Position (or Rank, Pos, Place: a place per category, DNF, DNS or DSQ), First Name and Last Name (or one Name, LASTNAME Firstname), Category; or a Racer ID column instead of the names. Bib, UCI ID, Nation, Team, Time, Gap, Status may be there (DNF/DNS/DSQ in Time or Status counts)",
    )
    .option(
      "--category <name>",
      'the category of the whole file, for a timing export per category ("Pro Men", "Pro Women", "17-18 Men", "17-18 Women")',
      categoryOption,
    )
    .option("--dry-run", "check the file and show the matched table, writing nothing")
    .option("--json", "print the outcome as JSON")
    .option("--force", "import although the event's teams have not locked yet (freezes them now)")
    .option(
      "--provisional",
      "results that arrive while the race runs: points and ranks say provisional until the final import or `results finalize`",
    )
    .addHelpText(
      "after",
      "\nEvery problem is reported with its line and nothing is written while there is one; an\nunknown name comes with the closest racer names. Importing replaces the results of the\ncategories in the file and keeps the others': import a timing company's files one category\nat a time. Scores are recomputed after each file, never added.\n\nWith --provisional the round is scored as usual but says provisional, and a racer without a\nresult has not run yet; a file identical to the stored results changes nothing. The next\nimport without --provisional, or `results finalize`, makes the results final; provisional\nresults never replace final ones.\n\nExample:\n  $ game-admin results import 5 round-1.csv --dry-run\n  $ game-admin results import 5 pro-men.csv --category \"Pro Men\"\n  $ game-admin results import 5 live.csv --provisional",
    )
    .action(
      async (
        eventId: number,
        file: string,
        opts: {
          dryRun?: boolean;
          json?: boolean;
          force?: boolean;
          category?: Category;
          provisional?: boolean;
        },
        cmd: Command,
      ) => {
        const text = readResultsText(file);
        const name = path.basename(file);
        await withDb(cmd, async (h) => {
          const event = await getEvent(h.db, eventId);
          if (!event) throw new CliError(`there is no event ${eventId}`);
          const now = new Date();
          // Results before the lock freeze every team early: almost always the wrong event.
          if (!opts.dryRun && !opts.force && !isLocked(event, now)) {
            throw new CliError(
              `teams for event ${eventId} (${inert(event.name)}) lock at ${lockTime(event).toISOString()}: importing results now would freeze every team early. Check the event id, or add --force if the race is over.`,
            );
          }
          const outcome = await importResults(h.db, eventId, text, {
            now,
            dryRun: opts.dryRun,
            audit: currentActor(),
            category: opts.category,
            provisional: opts.provisional,
          });
          if (!outcome.ok) {
            if (opts.json) printJson(outcome);
            // Final results refuse provisional ones (decision 0171): the one reason, not a line.
            if (outcome.reason === "final") {
              throw new CliError(outcome.issues.map((i) => inert(i.message)).join(" "));
            } else
              for (const issue of outcome.issues) console.error(inert(formatResultIssue(issue)));
            const n = outcome.issues.length;
            throw new CliError(
              `nothing imported: ${n} ${n === 1 ? "problem" : "problems"} in ${name}`,
            );
          }
          if (opts.json) return printJson(outcome);
          const count = (s: string) => outcome.rows.filter((r) => r.status === s).length;
          if (opts.dryRun) {
            // The matched table: the file's name for each racer next to the racer it matched.
            printTable(
              outcome.rows,
              [
                { header: "Line", value: (r) => r.line, align: "right" },
                { header: "Place", value: place, align: "right" },
                { header: "In the file", value: (r) => inert(r.asWritten) },
                { header: "Racer", value: (r) => inert(r.name) },
                { header: "ID", value: (r) => r.racerId, align: "right" },
                { header: "Category", value: (r) => r.category },
                { header: "Points", value: (r) => r.points, align: "right" },
              ],
              "No results in the file.",
            );
          }
          const lines = [
            `${opts.dryRun ? "Dry run (nothing written): " : ""}${name}: ${outcome.rows.length} results for ${inert(event.name)}`,
            `  finished: ${count("finished")}, DNF: ${count("DNF")}, DNS: ${count("DNS")}, DSQ: ${count("DSQ")}`,
            outcome.unchanged
              ? "  unchanged: the file holds the results stored; nothing re-scored"
              : `  ${opts.dryRun ? "would replace" : "replaced"} the results of: ${outcome.categories.join(", ")} (other categories kept)`,
          ];
          if (outcome.provisional) {
            lines.push(
              `  provisional: points and ranks say so until the final import or \`game-admin results finalize ${eventId}\``,
            );
          } else if (event.provisional) {
            lines.push(
              opts.dryRun
                ? "  final: the round's results are provisional; importing this file makes them final"
                : "  final: the round's results were provisional and are final now",
            );
          }
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
    .command("finalize")
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
