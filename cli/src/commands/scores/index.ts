/** `game-admin scores`: one file per command in this folder. */
import { Command } from "commander";
import { freezeCommand } from "./freeze.js";
import { settleCommand } from "./settle.js";

export function scoresCommand(): Command {
  return new Command("scores")
    .description("scoring: settle events, freeze teams")
    .addCommand(settleCommand())
    .addCommand(freezeCommand());
}
