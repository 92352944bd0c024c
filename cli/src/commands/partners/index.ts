/** `game-admin partners`: one file per command in this folder. */
import { Command } from "commander";
import { addCommand } from "./add.js";
import { deleteCommand } from "./delete.js";
import { enableCommand } from "./enable.js";
import { listCommand } from "./list.js";
import { originsCommand } from "./origins.js";
import { renameCommand } from "./rename.js";
import { statsCommand } from "./stats.js";

export function partnersCommand(): Command {
  return new Command("partners")
    .description(
      "partner sites that embed the widgets: add, list, rename, origins, disable/enable, delete, stats",
    )
    .addCommand(addCommand())
    .addCommand(listCommand())
    .addCommand(renameCommand())
    .addCommand(originsCommand())
    .addCommand(enableCommand(false))
    .addCommand(enableCommand(true))
    .addCommand(deleteCommand())
    .addCommand(statsCommand());
}
