/** `game-admin events create`: add a round to a competition. */
import { createRound } from "@game/db";
import { Command } from "commander";
import { currentActor, withDb } from "../../context.js";
import { inert, printJson } from "../../output.js";
import { isoTime } from "./options.js";

export function createCommand(): Command {
  return new Command("create")
    .description("add a round to a competition (closed, without racers, after its last round)")
    .requiredOption("--competition <slug>", "the competition (see `competitions list`)")
    .requiredOption("--name <name>", 'the round\'s name, e.g. "Round 1: Windrock"')
    .requiredOption("--starts <time>", "ISO 8601 start time with zone", isoTime)
    .option("--location <place>", "where it races")
    .option("--yes", "record a round whose start has passed")
    .option("--json", "print JSON")
    .addHelpText(
      "after",
      '\nThen enter its racers (`racers import` or `racers copy`) and open it (`events status <id> open`).\n\nExample:\n  $ game-admin events create --competition pro-downhill-series-2028 --name "Round 1: Windrock" \\\n      --starts 2028-04-23T16:00:00Z --location "Windrock, Tennessee"',
    )
    .action(
      async (
        opts: {
          competition: string;
          name: string;
          starts: Date;
          location?: string;
          yes?: boolean;
          json?: boolean;
        },
        cmd: Command,
      ) => {
        const r = await withDb(cmd, (h) =>
          createRound(
            h.db,
            {
              competition: opts.competition,
              name: opts.name,
              startsAt: opts.starts,
              location: opts.location,
            },
            currentActor(),
            { now: new Date(), allowPast: opts.yes },
          ),
        );
        if (opts.json) {
          return printJson({
            id: r.id,
            competition: r.competition,
            round: r.round,
            name: r.name,
            status: r.status,
            startsAt: r.startsAt.toISOString(),
            locksAt: r.lockAt.toISOString(),
          });
        }
        console.log(
          `Created event ${r.id}: ${inert(r.name)}, round ${r.round} of ${r.competition}, starts ${r.startsAt.toISOString()} (teams lock ${r.lockAt.toISOString()}).`,
        );
        console.log(
          `Next: game-admin racers copy <fromEventId> ${r.id}, or game-admin racers import <file> --game ${r.id}; then game-admin events status ${r.id} open`,
        );
      },
    );
}
