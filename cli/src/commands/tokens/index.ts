/** `game-admin tokens`: the admin API tokens a timing system pushes results with. */
import { Command } from "commander";
import { createCommand } from "./create.js";
import { listCommand } from "./list.js";
import { revokeCommand } from "./revoke.js";

export function tokensCommand(): Command {
  return new Command("tokens")
    .description("admin API tokens (a timing system's results push): create, revoke, list")
    .addCommand(createCommand())
    .addCommand(revokeCommand())
    .addCommand(listCommand());
}
