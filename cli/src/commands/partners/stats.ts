/**
 * `game-admin partners stats [<id>] [--days N] [--json]`: what partners' sites brought, per UTC
 * day (docs/decisions/0092-partner-stats.md).
 */

import { PARTNER_STATS_NOTE } from "@game/core";
import {
  getPartnerStats,
  PARTNER_STATS_MAX_DAYS,
  type PartnerStatCounts,
  type PartnerStatsReport,
} from "@game/db";
import { Command, InvalidArgumentError } from "commander";
import { withDb } from "../../context.js";
import { CliError, positiveInt } from "../../errors.js";
import { type Column, inert, printJson, printTable } from "../../output.js";

const DEFAULT_STATS_DAYS = 7;

function daysOption(value: string): number {
  const n = positiveInt(value);
  if (n > PARTNER_STATS_MAX_DAYS) {
    throw new InvalidArgumentError(`must be at most ${PARTNER_STATS_MAX_DAYS}.`);
  }
  return n;
}

const counts = <T extends PartnerStatCounts>(): Column<T>[] => [
  { header: "Widget loads", value: (r) => r.widgetLoads, align: "right" },
  { header: "API calls", value: (r) => r.apiCalls, align: "right" },
  { header: "Sign-ins", value: (r) => r.signIns, align: "right" },
  { header: "Team saves", value: (r) => r.teamSaves, align: "right" },
];

function printOne(report: PartnerStatsReport, days: number): void {
  const status = report.disabled ? ", disabled" : "";
  console.log(
    inert(`Partner ${report.partnerId} (${report.name}${status}), last ${days} days (UTC):`),
  );
  printTable(
    [...report.days, { day: "Total", ...report.totals }],
    [{ header: "Day", value: (r) => r.day }, ...counts()],
    "",
  );
}

function printAll(reports: PartnerStatsReport[], days: number): void {
  if (reports.length > 0) console.log(`Last ${days} days (UTC), totals per partner:`);
  printTable(
    reports.map((r) => ({ ...r.totals, id: r.partnerId, name: r.name, disabled: r.disabled })),
    [
      { header: "ID", value: (r) => r.id, align: "right" },
      { header: "Name", value: (r) => r.name },
      { header: "Status", value: (r) => (r.disabled ? "disabled" : "active") },
      ...counts(),
    ],
    "No partners.",
  );
}

export function statsCommand(): Command {
  return new Command("stats")
    .description("widget loads, API calls, iframe sign-ins and team saves per partner and UTC day")
    .argument("[id]", "one partner (see partners list): its day-by-day counts", positiveInt)
    .option(
      "--days <n>",
      `days to show, today included (1-${PARTNER_STATS_MAX_DAYS})`,
      daysOption,
      DEFAULT_STATS_DAYS,
    )
    .option("--json", "print JSON")
    .addHelpText(
      "after",
      "\nExample:\n  $ game-admin partners stats\n  $ game-admin partners stats 3 --days 30 --json",
    )
    .action(
      async (id: number | undefined, opts: { days: number; json?: boolean }, cmd: Command) => {
        const reports = await withDb(cmd, (h) =>
          getPartnerStats(h.db, { partnerId: id, days: opts.days }),
        );
        if (id !== undefined) {
          const [one] = reports;
          if (!one) throw new CliError(`partner ${id} not found (see partners list).`);
          if (opts.json) return printJson(one);
          printOne(one, opts.days);
        } else {
          if (opts.json) return printJson(reports);
          printAll(reports, opts.days);
        }
        // What the figures are worth, as the dashboard says it.
        console.log(`\n${PARTNER_STATS_NOTE}`);
      },
    );
}
