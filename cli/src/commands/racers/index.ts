/** `game-admin racers`: one file per command in this folder. */
import { Command } from "commander";
import { copyCommand } from "./copy.js";
import { exportCommand } from "./export.js";
import { importCommand } from "./import.js";
import { listCommand } from "./list.js";
import { portraitsCommand } from "./portraits.js";
import { setCommand } from "./set.js";
import { withdrawCommand } from "./withdraw.js";

export function racersCommand(): Command {
  return new Command("racers")
    .description("racers: import, list, export, edit, withdraw and reinstate; portraits")
    .addCommand(importCommand())
    .addCommand(listCommand())
    .addCommand(copyCommand())
    .addCommand(exportCommand())
    .addCommand(setCommand())
    .addCommand(withdrawCommand(true))
    .addCommand(withdrawCommand(false))
    .addCommand(portraitsCommand());
}
