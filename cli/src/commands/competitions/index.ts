/** `game-admin competitions`: one file per command in this folder. */
import { Command } from "commander";
import { archiveCommand } from "./archive.js";
import { createCommand } from "./create.js";
import { listCommand } from "./list.js";
import { rulesCommand } from "./rules.js";
import { showCommand } from "./show.js";

export function competitionsCommand(): Command {
  return new Command("competitions")
    .description("competitions: create, list, show, rules, archive")
    .addCommand(createCommand())
    .addCommand(listCommand())
    .addCommand(showCommand())
    .addCommand(rulesCommand())
    .addCommand(archiveCommand());
}
