/** `game-admin events`: one file per command in this folder. */
import { Command } from "commander";
import { createCommand } from "./create.js";
import { listCommand } from "./list.js";
import { scheduleCommand } from "./schedule.js";
import { statusCommand } from "./status.js";

export function eventsCommand(): Command {
  return new Command("events")
    .description("events (rounds): create, list, open/close/archive, schedule")
    .addCommand(createCommand())
    .addCommand(listCommand())
    .addCommand(statusCommand())
    .addCommand(scheduleCommand());
}
