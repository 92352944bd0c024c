/** `game-admin results import <eventId> <file.csv>`: replace a round's results and score it. */
import path from "node:path";
import { type Category, formatResultIssue, isLocked, lockTime } from "@game/core";
import { getEvent, importResults } from "@game/db";
import { Command } from "commander";
import { currentActor, withDb } from "../../context.js";
import { CliError, positiveInt } from "../../errors.js";
import { inert, printJson, printTable } from "../../output.js";
import { settlementLine } from "../scores/settlement-line.js";
import { categoryOption, place, readResultsText } from "./options.js";

interface ImportOptions {
  dryRun?: boolean;
  json?: boolean;
  force?: boolean;
  category?: Category;
  provisional?: boolean;
}
type Round = NonNullable<Awaited<ReturnType<typeof getEvent>>>;
type Outcome = Awaited<ReturnType<typeof importResults>>;
type Refused = Extract<Outcome, { ok: false }>;
type Imported = Extract<Outcome, { ok: true }>;

/** Results before the lock freeze every team early: almost always the wrong event. */
function refuseBeforeLock(event: Round, opts: ImportOptions, now: Date): void {
  if (opts.dryRun || opts.force || isLocked(event, now)) return;
  throw new CliError(
    `teams for event ${event.id} (${inert(event.name)}) lock at ${lockTime(event).toISOString()}: importing results now would freeze every team early. Check the event id, or add --force if the race is over.`,
  );
}

/** Every problem on stderr (with --json, the outcome on stdout too), then the failure. */
function refuse(outcome: Refused, name: string, json?: boolean): never {
  if (json) printJson(outcome);
  // Final results refuse provisional ones (decision 0171): the one reason, not a line.
  if (outcome.reason === "final") {
    throw new CliError(outcome.issues.map((i) => inert(i.message)).join(" "));
  }
  for (const issue of outcome.issues) console.error(inert(formatResultIssue(issue)));
  const n = outcome.issues.length;
  throw new CliError(`nothing imported: ${n} ${n === 1 ? "problem" : "problems"} in ${name}`);
}

/** The matched table: the file's name for each racer next to the racer it matched. */
function printMatches(outcome: Imported): void {
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

function summaryLines(
  event: Round,
  outcome: Imported,
  opts: ImportOptions,
  name: string,
  now: Date,
): string[] {
  const count = (s: string) => outcome.rows.filter((r) => r.status === s).length;
  const lines = [
    `${opts.dryRun ? "Dry run (nothing written): " : ""}${name}: ${outcome.rows.length} results for ${inert(event.name)}`,
    `  finished: ${count("finished")}, DNF: ${count("DNF")}, DNS: ${count("DNS")}, DSQ: ${count("DSQ")}`,
    outcome.unchanged
      ? "  unchanged: the file holds the results stored; nothing re-scored"
      : `  ${opts.dryRun ? "would replace" : "replaced"} the results of: ${outcome.categories.join(", ")} (other categories kept)`,
  ];
  if (outcome.provisional) {
    lines.push(
      `  provisional: points and ranks say so until the final import or \`game-admin results finalize ${event.id}\``,
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
  return lines;
}

export function importCommand(): Command {
  return new Command("import")
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
    .action(async (eventId: number, file: string, opts: ImportOptions, cmd: Command) => {
      const text = readResultsText(file);
      const name = path.basename(file);
      await withDb(cmd, async (h) => {
        const event = await getEvent(h.db, eventId);
        if (!event) throw new CliError(`there is no event ${eventId}`);
        const now = new Date();
        refuseBeforeLock(event, opts, now);
        const outcome = await importResults(h.db, eventId, text, {
          now,
          dryRun: opts.dryRun,
          audit: currentActor(),
          category: opts.category,
          provisional: opts.provisional,
        });
        if (!outcome.ok) refuse(outcome, name, opts.json);
        if (opts.json) return printJson(outcome);
        if (opts.dryRun) printMatches(outcome);
        process.stdout.write(`${summaryLines(event, outcome, opts, name, now).join("\n")}\n`);
      });
    });
}
