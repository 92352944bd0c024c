/** `game-admin events status <id> <status>`: open, close or archive a round. */
import { EVENT_STATUSES, type EventStatus } from "@game/core";
import { setEventStatus } from "@game/db";
import { Argument, Command } from "commander";
import { currentActor, withDb } from "../../context.js";
import { positiveInt } from "../../errors.js";
import { statusWord } from "./options.js";

export function statusCommand(): Command {
  return new Command("status")
    .description("open, close or archive an event (only open events can be entered)")
    .argument("<id>", "event id", positiveInt)
    .addArgument(
      new Argument(
        "<status>",
        `new status: open, close or archive (or ${EVENT_STATUSES.join(", ")})`,
      ).argParser(statusWord),
    )
    .addHelpText("after", "\nExample:\n  $ game-admin events status 5 close")
    .action(async (id: number, status: EventStatus, _opts: unknown, cmd: Command) => {
      const r = await withDb(cmd, (h) => setEventStatus(h.db, id, status, currentActor()));
      console.log(
        r.changed
          ? `Event ${id} (${r.event.name}) is now ${status}.`
          : `Event ${id} (${r.event.name}) was already ${status}.`,
      );
    });
}
