/** `game-admin events list`: the rounds with their status and times. */
import { lockTime } from "@game/core";
import { listEvents } from "@game/db";
import { Command } from "commander";
import { withDb } from "../../context.js";
import { CliError } from "../../errors.js";
import { inert, printJson, printTable } from "../../output.js";

export function listCommand(): Command {
  return new Command("list")
    .description("list the events with their status and start time (UTC)")
    .option("--competition <slug>", "only this competition's rounds")
    .option("--json", "print JSON")
    .addHelpText(
      "after",
      "\nExample:\n  $ game-admin events list --competition pro-downhill-series-2027",
    )
    .action(async (opts: { json?: boolean; competition?: string }, cmd: Command) => {
      const all = await withDb(cmd, (h) => listEvents(h.db));
      const rows = opts.competition
        ? all.filter((e) => e.competitionSlug === opts.competition)
        : all;
      if (
        opts.competition &&
        rows.length === 0 &&
        !all.some((e) => e.competitionSlug === opts.competition)
      ) {
        throw new CliError(
          `No competition has the slug "${inert(opts.competition)}" with rounds (see \`game-admin competitions list\`).`,
        );
      }
      if (opts.json) {
        return printJson(
          rows.map((e) => ({
            id: e.id,
            name: e.name,
            competition: e.competitionSlug,
            round: e.round,
            status: e.status,
            startsAt: e.startsAt.toISOString(),
            locksAt: lockTime(e).toISOString(),
          })),
        );
      }
      printTable(
        rows,
        [
          { header: "ID", value: (e) => e.id, align: "right" },
          { header: "Name", value: (e) => e.name, max: 50 },
          { header: "Competition", value: (e) => e.competitionSlug, max: 36 },
          // The order a season advances in (never the dates): docs/decisions/0140.
          { header: "Round", value: (e) => e.round ?? "", align: "right" },
          { header: "Status", value: (e) => e.status },
          {
            header: "Starts (UTC)",
            value: (e) => e.startsAt.toISOString().slice(0, 16).replace("T", " "),
          },
          {
            header: "Teams lock (UTC)",
            value: (e) => lockTime(e).toISOString().slice(0, 16).replace("T", " "),
          },
        ],
        "No events. Run `game-admin db seed`.",
      );
    });
}
