/** `game-admin competitions archive <slug>`: off the calendar, its tables and history kept. */
import { archiveCompetition } from "@game/db";
import { Command } from "commander";
import { currentActor, withDb } from "../../context.js";
import { inert } from "../../output.js";

export function archiveCommand(): Command {
  return new Command("archive")
    .description("archive a competition: off the calendar, its tables and history kept")
    .argument("<slug>", "the competition's slug")
    .addHelpText("after", "\nExample:\n  $ game-admin competitions archive freeride-2024")
    .action(async (slug: string, _opts: unknown, cmd: Command) => {
      const r = await withDb(cmd, (h) =>
        archiveCompetition(h.db, slug, currentActor(), new Date()),
      );
      console.log(
        r.changed
          ? `${inert(r.competition.name)} is archived (${r.competition.rounds.length} rounds).`
          : `${inert(r.competition.name)} was already archived.`,
      );
    });
}
