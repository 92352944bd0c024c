/** `game-admin results`: one file per command in this folder. */
import { Command } from "commander";
import { finalizeCommand } from "./finalize.js";
import { importCommand } from "./import.js";
import { listCommand } from "./list.js";

export function resultsCommand(): Command {
  return new Command("results")
    .description("race results: import from CSV (provisional while the race runs), finalize, list")
    .addCommand(importCommand())
    .addCommand(finalizeCommand())
    .addCommand(listCommand());
}
