/** `game-admin racers import <file.csv>`: create or update racers from a CSV file. */
import path from "node:path";
import { defaultUsedText } from "@game/core";
import { importRacers, type RacerImportSummary } from "@game/db";
import { Command } from "commander";
import { currentActor, withDb } from "../../context.js";
import { CliError, positiveInt } from "../../errors.js";
import { inert, printJson, progress } from "../../output.js";
import { changeText, readCsvBytes } from "./options.js";

function printSummary(s: RacerImportSummary, file: string): void {
  const verb = s.dryRun ? "would be" : "";
  const lines = [
    `${s.dryRun ? "Dry run (nothing written): " : ""}${file}: ${s.rows} rows read${s.encoding && !s.encoding.startsWith("UTF-8") ? ` (${s.encoding})` : ""}`,
    `  created:   ${s.created}`,
    `  updated:   ${s.updated}`,
    `  unchanged: ${s.unchanged}`,
    `  skipped:   ${s.skipped.length}`,
    ...s.skipped.map((k) => `    line ${k.line}: ${inert(k.reason)}`),
  ];
  if (s.kept.length > 0) {
    lines.push(`  not in the file, kept as they are: ${s.kept.join(", ")}`);
  }
  if (s.teamsTouched > 0) {
    // Saved teams keep the prices they paid (decision 0101): none becomes invalid.
    lines.push(
      `  saved teams holding a racer whose price changes: ${s.teamsTouched} (they keep the prices they paid)`,
    );
  }
  if (s.ignoredColumns.length > 0) {
    lines.push(`  columns ignored: ${inert(s.ignoredColumns.join(", "))}`);
  }
  if (s.defaults.length > 0) {
    lines.push(`  defaults used for cells that are not numbers: ${s.defaults.length}`);
    for (const d of s.defaults) lines.push(`    line ${d.line}: ${inert(defaultUsedText(d))}`);
  }
  if (s.changes.length > 0) {
    lines.push(`  changes${verb ? ` that ${verb} made` : ""}:`);
    for (const c of s.changes) {
      const what = c.action === "create" ? "new racer" : "update";
      lines.push(
        `    line ${c.line}: ${what} ${inert(c.name)} (event ${c.gameId}): ${inert(changeText(c.changes))}`,
      );
    }
  }
  process.stdout.write(`${lines.join("\n")}\n`);
}

export function importCommand(): Command {
  return new Command("import")
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
    .option("--dry-run", "check the file and list every field that would change, writing nothing")
    .option("--json", "print the summary as JSON")
    .addHelpText(
      "after",
      "\nRe-importing a file updates the racers it created (matched by event and name, or ID).\nOnly the columns the file has change a racer; an empty cell keeps the racer's value.\n\nExample:\n  $ game-admin racers import racers-2027.csv --game 5 --dry-run",
    )
    .action(
      async (
        file: string,
        opts: { game?: number; dryRun?: boolean; json?: boolean },
        cmd: Command,
      ) => {
        const bytes = readCsvBytes(file);
        const bar = progress(opts.dryRun ? "Checking" : "Importing");
        const summary = await withDb(cmd, (h) =>
          importRacers(h.db, {
            csv: bytes,
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
}
