/** `game-admin events schedule <id> <time>`: when a round starts. */
import { lockTime } from "@game/core";
import { scheduleEvent } from "@game/db";
import { Command } from "commander";
import { currentActor, withDb } from "../../context.js";
import { CliError, positiveInt } from "../../errors.js";
import { isoTime } from "./options.js";

export function scheduleCommand(): Command {
  return new Command("schedule")
    .description("set when an event starts (teams lock as its competition's rules say)")
    .argument("<id>", "event id", positiveInt)
    .argument("<time>", "ISO 8601 time with zone", isoTime)
    .option("--yes", "set a time in the past (teams lock at once)")
    .addHelpText("after", "\nExample:\n  $ game-admin events schedule 5 2027-04-18T16:00:00Z")
    .action(async (id: number, at: Date, opts: { yes?: boolean }, cmd: Command) => {
      // A past start locks every team of the event at once: a typo in the year is likelier.
      if (at.getTime() <= Date.now() && !opts.yes) {
        throw new CliError(
          `${at.toISOString()} is in the past: teams of event ${id} would lock at once. Add --yes if that is what you want.`,
        );
      }
      const r = await withDb(cmd, (h) => scheduleEvent(h.db, id, at, currentActor()));
      const when = r.event.startsAt.toISOString();
      const lock = lockTime(r.event).toISOString();
      console.log(
        r.changed
          ? `Event ${id} (${r.event.name}) now starts ${when}; teams lock ${lock}.`
          : `Event ${id} (${r.event.name}) already starts ${when}.`,
      );
      // Out of date order is allowed (a postponed round), but the admin is told.
      if (r.warning) console.error(`Warning: ${r.warning}`);
    });
}
