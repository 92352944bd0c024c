import { readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import {
  type Category,
  defaultUsedText,
  formatPrice,
  normalizeCategory,
  RACER_CSV_COLUMNS,
  writeCsv,
} from "@game/core";
import {
  type AdminRacerRow,
  checkCsvSize,
  copyRacers,
  importRacers,
  listRacersForAdmin,
  type RacerEdit,
  type RacerFieldChange,
  type RacerImportSummary,
  setRacer,
  setRacerWithdrawn,
} from "@game/db";
import { Command, InvalidArgumentError } from "commander";
import { currentActor, inputPath, withDb } from "../context.js";
import { CliError, positiveInt, UsageError } from "../errors.js";
import { inert, printJson, printTable, progress } from "../output.js";
import { addPortraitsCommand } from "./racers-portraits.js";

function category(value: string): Category {
  const c = normalizeCategory(value);
  if (!c)
    throw new InvalidArgumentError('use "Pro Men", "Pro Women", "17-18 Men" or "17-18 Women".');
  return c;
}

/** A whole number from 0 (prices, ranks, points). */
function count(value: string): number {
  const n = Number(value.replace(/[,_$]/g, ""));
  if (!/^\s*\$?[\d,_]+\s*$/.test(value) || !Number.isSafeInteger(n)) {
    throw new InvalidArgumentError("must be a whole number from 0.");
  }
  return n;
}

/** The file's bytes, size-checked before reading: the service detects the encoding. */
function readCsvBytes(file: string): Uint8Array {
  const at = inputPath(file);
  try {
    const stat = statSync(at);
    if (!stat.isFile()) throw new CliError(`${file} is not a file`);
    checkCsvSize(stat.size);
    return readFileSync(at);
  } catch (error) {
    if (error instanceof Error && "code" in error) {
      throw new CliError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code}`);
    }
    throw error;
  }
}

const shown = (v: string | number | null) =>
  v === null ? "(none)" : typeof v === "number" ? String(v) : JSON.stringify(v);

/** `Price 99000 -> 120000, Origin "" -> "FRA"` */
export function changeText(changes: readonly RacerFieldChange[]): string {
  return changes.map((c) => `${c.field} ${shown(c.from)} -> ${shown(c.to)}`).join(", ");
}

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

/** The export's columns: the import's, with ID first so a re-import matches by id. */
const EXPORT_COLUMNS = ["ID", ...RACER_CSV_COLUMNS] as const;

/**
 * Racers as a CSV that `racers import` reads back to the same racers (UTF-8 with BOM, CRLF;
 * core's writeCsv: a name a spreadsheet would run as a formula is written as text).
 */
export function racersCsv(rows: readonly AdminRacerRow[]): string {
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

export function racersCommand(): Command {
  const racers = new Command("racers").description(
    "racers: import, list, export, edit, withdraw and reinstate; portraits",
  );

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

  racers
    .command("list")
    .description("list racers by event, category and rank, a page at a time")
    .option("--game <id>", "only this event", positiveInt)
    .option("--category <c>", 'only this category (e.g. "Pro Women" or pro-women)', category)
    .option("--limit <n>", "at most this many racers (default 100)", positiveInt, 100)
    .option("--offset <n>", "skip this many racers first", count, 0)
    .option("--json", "print JSON")
    .addHelpText(
      "after",
      "\nExample:\n  $ game-admin racers list --game 5 --category pro-women --limit 50 --offset 50",
    )
    .action(
      async (
        opts: { game?: number; category?: Category; limit: number; offset: number; json?: boolean },
        cmd: Command,
      ) => {
        const { rows, total } = await withDb(cmd, (h) =>
          listRacersForAdmin(h.db, {
            gameId: opts.game,
            category: opts.category,
            limit: opts.limit,
            offset: opts.offset,
          }),
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
            { header: "Status", value: (r) => (r.withdrawnAt ? "withdrawn" : "") },
          ],
          "No racers.",
        );
        if (rows.length > 0 && rows.length < total) {
          const last = opts.offset + rows.length;
          const more = last < total ? ` (next page: --offset ${last})` : "";
          console.log(`Racers ${opts.offset + 1}-${last} of ${total}${more}.`);
        }
      },
    );

  racers
    .command("copy")
    .description("enter every starting racer of one round in another, at their last prices")
    .argument("<fromEventId>", "the round to copy from", positiveInt)
    .argument("<toEventId>", "the round to enter them in", positiveInt)
    .option("--dry-run", "say what would be copied and write nothing")
    .option("--json", "print JSON")
    .addHelpText(
      "after",
      "\nRacers the target round already has keep their entry; withdrawn racers are not copied.\n\nExample:\n  $ game-admin racers copy 9 13 --dry-run",
    )
    .action(
      async (
        from: number,
        to: number,
        opts: { dryRun?: boolean; json?: boolean },
        cmd: Command,
      ) => {
        const s = await withDb(cmd, (h) =>
          copyRacers(h.db, from, to, {
            actor: currentActor(),
            dryRun: opts.dryRun,
            now: new Date(),
          }),
        );
        if (opts.json) return printJson(s);
        const plural = (n: number) => `${n} ${n === 1 ? "racer" : "racers"}`;
        console.log(
          `${s.dryRun ? "Dry run (nothing written): would copy" : "Copied"} ${plural(s.copied)} from ${inert(s.from.name)} (event ${s.from.id}) to ${inert(s.to.name)} (event ${s.to.id}); ${plural(s.alreadyEntered)} already entered, ${plural(s.withdrawn)} withdrawn left out.`,
        );
      },
    );

  racers
    .command("export")
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

  racers
    .command("set")
    .description("change one racer's fields (what is left out stays as it is)")
    .argument("<id>", "racer id (see racers list)", positiveInt)
    .option("--price <n>", "price", count)
    .option("--rank <n>", "Rank2024 (0 = unranked)", count)
    .option("--points <n>", "TotalPoint2024", count)
    .option("--origin <text>", 'origin (country or team); "" clears it')
    .option("--category <c>", "category", category)
    .option("--first-name <text>", "first name")
    .option("--last-name <text>", "last name")
    .option("--picture <file>", 'picture file name; "" clears it')
    .addHelpText("after", "\nExample:\n  $ game-admin racers set 12 --price 120000 --rank 3")
    .action(
      async (
        id: number,
        opts: {
          price?: number;
          rank?: number;
          points?: number;
          origin?: string;
          category?: Category;
          firstName?: string;
          lastName?: string;
          picture?: string;
        },
        cmd: Command,
      ) => {
        const edit: RacerEdit = {
          price: opts.price,
          rank2024: opts.rank,
          totalPoint2024: opts.points,
          origin: opts.origin,
          category: opts.category,
          firstName: opts.firstName,
          lastName: opts.lastName,
          picture: opts.picture,
        };
        if (Object.values(edit).every((v) => v === undefined)) {
          throw new UsageError("nothing to change: give at least one of --price, --rank, ...");
        }
        const r = await withDb(cmd, (h) => setRacer(h.db, id, edit, currentActor()));
        const name = `${r.racer.firstName} ${r.racer.lastName}`;
        console.log(
          inert(
            r.changes.length === 0
              ? `Racer ${id} (${name}) already was so; nothing changed.`
              : `Racer ${id} (${name}): ${changeText(r.changes)}.`,
          ),
        );
      },
    );

  for (const [name, withdrawn] of [
    ["withdraw", true],
    ["reinstate", false],
  ] as const) {
    racers
      .command(name)
      .description(
        withdrawn
          ? "withdraw a racer from their round: kept for history, no longer pickable"
          : "let a withdrawn racer be picked again",
      )
      .argument("<id>", "racer id (see racers list)", positiveInt)
      .addHelpText("after", `\nExample:\n  $ game-admin racers ${name} 12`)
      .action(async (id: number, _opts: unknown, cmd: Command) => {
        const r = await withDb(cmd, (h) => setRacerWithdrawn(h.db, id, withdrawn, currentActor()));
        const who = `Racer ${id} (${r.racer.firstName} ${r.racer.lastName}, event ${r.racer.gameId})`;
        const teams = `${r.teamsHolding} ${r.teamsHolding === 1 ? "team holds" : "teams hold"} them`;
        const state = withdrawn ? "withdrawn" : "reinstated";
        console.log(
          inert(
            r.changed
              ? `${who} is ${state}; ${teams}${withdrawn && r.teamsHolding ? " and will see a notice" : ""}.`
              : `${who} already was ${withdrawn ? "withdrawn" : "starting"}.`,
          ),
        );
      });
  }

  addPortraitsCommand(racers);

  return racers;
}
