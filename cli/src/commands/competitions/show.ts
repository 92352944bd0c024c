/** `game-admin competitions show <slug>`: a competition's rules and rounds. */
import { getCompetition } from "@game/db";
import { Command } from "commander";
import { withDb } from "../../context.js";
import { printJson } from "../../output.js";
import { competitionJson, noSuchCompetition, printCompetition } from "./print.js";

export function showCommand(): Command {
  return new Command("show")
    .description("a competition's rules and rounds")
    .argument("<slug>", "the competition's slug (see `competitions list`)")
    .option("--json", "print JSON")
    .addHelpText("after", "\nExample:\n  $ game-admin competitions show pro-downhill-series-2027")
    .action(async (slug: string, opts: { json?: boolean }, cmd: Command) => {
      const c = await withDb(cmd, (h) => getCompetition(h.db, slug, new Date()));
      if (!c) throw noSuchCompetition(slug);
      if (opts.json) return printJson(competitionJson(c));
      printCompetition(c);
    });
}
