import { type AdvanceSummary, advanceSeason, type PriceChange } from "@game/db";
import { Command } from "commander";
import { currentActor, withDb } from "../../context.js";
import { formatTable, printJson } from "../../output.js";

const n = (v: number) => v.toLocaleString("en-US");
const signed = (v: number) => (v > 0 ? `+${n(v)}` : v < 0 ? `-${n(-v)}` : "0");

/** What an advance did (or, in a dry run, would do), then each price, biggest rise first. */
export function advanceReport(s: AdvanceSummary): string {
  const head = `${s.dryRun ? "Dry run (nothing written): would advance" : "Advanced"} ${s.series} from ${s.from.name} (event ${s.from.id}) to ${s.to.name} (event ${s.to.id})${s.forced ? ", forced before settlement" : ""}.`;
  const moved = s.prices.filter((p) => p.change !== 0).length;
  const counts = `${n(s.entries)} racers entered at new prices (${n(moved)} changed), ${n(s.carried)} teams carried over (${n(s.drafts)} kept as drafts to fix).`;
  const table = formatTable<PriceChange>(s.prices, [
    { header: "Racer", value: (p) => `${p.firstName} ${p.lastName}` },
    { header: "Category", value: (p) => p.category },
    { header: "Result", value: (p) => p.result },
    { header: "Old", value: (p) => n(p.oldPrice), align: "right" },
    { header: "New", value: (p) => n(p.newPrice), align: "right" },
    { header: "Change", value: (p) => signed(p.change), align: "right" },
    { header: "", value: (p) => (p.alreadyEntered ? "already entered" : "") },
  ]);
  return `${head}\n${counts}\n\n${table}`;
}

export function advanceCommand(): Command {
  return new Command("advance")
    .description(
      "close the settled round, open the next with new prices and every team carried over",
    )
    .option("--dry-run", "show exactly what would change and write nothing")
    .option("--json", "print the summary as JSON")
    .option("--force", "advance a round whose lock has passed even though it is not settled")
    .option(
      "--competition <slug>",
      "the competition to roll (needed when several have an open round)",
    )
    .addHelpText(
      "after",
      "\nRefuses (exit 1) unless the open round of the competition has been settled, or its lock has\npassed and --force is given. Running it again after a success refuses: the new round is\nnot settled yet.\n\nExample:\n  $ game-admin season advance --dry-run",
    )
    .action(
      async (
        opts: { dryRun?: boolean; json?: boolean; force?: boolean; competition?: string },
        cmd: Command,
      ) => {
        const summary = await withDb(cmd, (h) =>
          advanceSeason(h.db, {
            now: new Date(),
            actor: currentActor(),
            dryRun: opts.dryRun,
            force: opts.force,
            competition: opts.competition,
          }),
        );
        if (opts.json) return printJson(summary);
        process.stdout.write(`${advanceReport(summary)}\n`);
      },
    );
}
