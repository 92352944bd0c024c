/** `game-admin reminders`: one file per command in this folder. */
import { Command } from "commander";
import { sendCommand } from "./send.js";

export function remindersCommand(): Command {
  return new Command("reminders")
    .description("deadline reminders by e-mail")
    .addCommand(sendCommand());
}
