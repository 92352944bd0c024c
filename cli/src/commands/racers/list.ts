/** `game-admin racers list`: racers by event, category and rank, a page at a time. */
import { type Category, formatPrice } from "@game/core";
import { listRacersForAdmin } from "@game/db";
import { Command } from "commander";
import { withDb } from "../../context.js";
import { positiveInt } from "../../errors.js";
import { printJson, printTable } from "../../output.js";
import { category, count } from "./options.js";

export function listCommand(): Command {
  return new Command("list")
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
}
