/** `game-admin season`: one file per command in this folder. */
import { Command } from "commander";
import { advanceCommand } from "./advance.js";

export function seasonCommand(): Command {
  return new Command("season")
    .description("run the season: roll a competition forward")
    .addCommand(advanceCommand());
}
