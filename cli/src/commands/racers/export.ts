/** `game-admin racers export <file.csv>`: racers as a file `racers import` reads back. */
import { writeFileSync } from "node:fs";
import { type Category, RACER_CSV_COLUMNS, writeCsv } from "@game/core";
import { type AdminRacerRow, listRacersForAdmin } from "@game/db";
import { Command } from "commander";
import { inputPath, withDb } from "../../context.js";
import { positiveInt } from "../../errors.js";
import { category } from "./options.js";

/** The export's columns: the import's, with ID first so a re-import matches by id. */
const EXPORT_COLUMNS = ["ID", ...RACER_CSV_COLUMNS] as const;

/**
 * Racers as a CSV that `racers import` reads back to the same racers (UTF-8 with BOM, CRLF;
 * core's writeCsv: a name a spreadsheet would run as a formula is written as text).
 */
function racersCsv(rows: readonly AdminRacerRow[]): string {
  return writeCsv(
    EXPORT_COLUMNS,
    rows.map((r) => [
      r.id,
      r.category,
      r.firstName,
      r.lastName,
      r.picture,
      r.origin,
      r.gameId,
      r.rank2024,
      r.totalPoint2024,
      r.price,
    ]),
  );
}

export function exportCommand(): Command {
  return new Command("export")
    .description("write racers to a CSV file that `racers import` reads back unchanged")
    .argument("<file.csv>", "where to write (an existing file is replaced)")
    .option("--game <id>", "only this event", positiveInt)
    .option("--category <c>", "only this category", category)
    .addHelpText("after", "\nExample:\n  $ game-admin racers export round-1.csv --game 5")
    .action(async (file: string, opts: { game?: number; category?: Category }, cmd: Command) => {
      const { rows } = await withDb(cmd, (h) =>
        listRacersForAdmin(h.db, { gameId: opts.game, category: opts.category, limit: 100_000 }),
      );
      writeFileSync(inputPath(file), racersCsv(rows));
      console.log(`Wrote ${rows.length} ${rows.length === 1 ? "racer" : "racers"} to ${file}.`);
    });
}
