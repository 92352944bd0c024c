/** `game-admin competitions list`: live and upcoming first. */
import { listCompetitions } from "@game/db";
import { Command } from "commander";
import { withDb } from "../../context.js";
import { inert, printJson, printTable } from "../../output.js";
import { competitionJson } from "./print.js";

export function listCommand(): Command {
  return new Command("list")
    .description("list the competitions: live and upcoming first")
    .option("--json", "print JSON")
    .addHelpText("after", "\nExample:\n  $ game-admin competitions list --json")
    .action(async (opts: { json?: boolean }, cmd: Command) => {
      const rows = await withDb(cmd, (h) => listCompetitions(h.db, new Date()));
      if (opts.json) return printJson(rows.map(competitionJson));
      printTable(
        rows,
        [
          { header: "Slug", value: (c) => c.slug },
          { header: "Name", value: (c) => inert(c.name), max: 44 },
          { header: "Discipline", value: (c) => c.discipline },
          { header: "Season", value: (c) => c.season },
          { header: "State", value: (c) => c.state },
          { header: "Rounds", value: (c) => c.rounds.length, align: "right" },
        ],
        'No competitions. Create one: game-admin competitions create "<name>" --discipline dh',
      );
    });
}
