import path from "node:path";
import { type Category, formatPrice, normalizeCategory } from "@game/core";
import {
  checkCsvSize,
  importRacers,
  listRacersForAdmin,
  type RacerImportSummary,
  readRacerCsv,
} from "@game/db";
import { Command, InvalidArgumentError } from "commander";
import { currentActor, readInputFile, withDb } from "../context.js";
import { CliError, positiveInt } from "../errors.js";
import { inert, printJson, printTable, progress } from "../output.js";

function category(value: string): Category {
  const c = normalizeCategory(value);
  if (!c)
    throw new InvalidArgumentError('use "Pro Men", "Pro Women", "17-18 Men" or "17-18 Women".');
  return c;
}

function printSummary(s: RacerImportSummary, file: string): void {
  const lines = [
    `${s.dryRun ? "Dry run (nothing written): " : ""}${file}: ${s.rows} rows read`,
    `  created:   ${s.created}`,
    `  updated:   ${s.updated}`,
    `  unchanged: ${s.unchanged}`,
    `  skipped:   ${s.skipped.length}`,
    ...s.skipped.map((k) => `    line ${k.line}: ${inert(k.reason)}`),
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
}

export function racersCommand(): Command {
  const racers = new Command("racers").description("racers: import from CSV, list");

  racers
    .command("import")
    .description("create or update racers from a CSV file, all or nothing")
    .argument(
      "<file.csv>",
      "columns: Category, First Name, Last Name, Picture, Origin, Game ID, Rank2024, TotalPoint2024, Price (ID optional)",
    )
    .option(
      "--game <id>",
      "put every row in this event, whatever its Game ID column says",
      positiveInt,
    )
    .option("--dry-run", "check the file and show what would change, writing nothing")
    .option("--json", "print the summary as JSON")
    .addHelpText(
      "after",
      "\nRe-importing a file updates the racers it created (matched by event and name, or ID).\n\nExample:\n  $ game-admin racers import racers-2027.csv --game 5 --dry-run",
    )
    .action(
      async (
        file: string,
        opts: { game?: number; dryRun?: boolean; json?: boolean },
        cmd: Command,
      ) => {
        const records = readRacerCsv(readInputFile(file, checkCsvSize));
        if (records.length === 0) throw new CliError(`no racer rows in ${file}`);
        const bar = progress(opts.dryRun ? "Checking" : "Importing");
        const summary = await withDb(cmd, (h) =>
          importRacers(h.db, {
            records,
            gameId: opts.game,
            dryRun: opts.dryRun,
            actor: currentActor(),
            source: path.basename(file),
            onProgress: (done, total) => bar.update(done, total),
          }),
        ).finally(() => bar.finish());
        if (opts.json) printJson(summary);
        else printSummary(summary, path.basename(file));
        if (summary.created + summary.updated + summary.unchanged === 0) {
          throw new CliError(`no row of ${file} could be imported`);
        }
      },
    );

  racers
    .command("list")
    .description("list racers by event, category and rank")
    .option("--game <id>", "only this event", positiveInt)
    .option("--category <c>", 'only this category (e.g. "Pro Women" or pro-women)', category)
    .option("--json", "print JSON")
    .addHelpText("after", '\nExample:\n  $ game-admin racers list --game 5 --category "Pro Women"')
    .action(async (opts: { game?: number; category?: Category; json?: boolean }, cmd: Command) => {
      const { rows } = await withDb(cmd, (h) =>
        listRacersForAdmin(h.db, { gameId: opts.game, category: opts.category }),
      );
      if (opts.json) return printJson(rows);
      printTable(
        rows,
        [
          { header: "ID", value: (r) => r.id, align: "right" },
          { header: "Event", value: (r) => r.gameId, align: "right" },
          { header: "Category", value: (r) => r.category },
          { header: "Name", value: (r) => `${r.firstName} ${r.lastName}` },
          { header: "Rank", value: (r) => r.rank2024 || "-", align: "right" },
          { header: "Points", value: (r) => r.totalPoint2024, align: "right" },
          { header: "Price", value: (r) => formatPrice(r.price), align: "right" },
          { header: "Origin", value: (r) => r.origin, max: 20 },
          { header: "Picture", value: (r) => r.picture ?? "", max: 30 },
        ],
        "No racers.",
      );
    });

  return racers;
}
