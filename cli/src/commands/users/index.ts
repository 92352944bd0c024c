/** `game-admin users`: one file per command in this folder. */
import { Command } from "commander";
import { changeCommands } from "./change.js";
import { listCommand } from "./list.js";

export function usersCommand(): Command {
  const users = new Command("users")
    .description("users: list, grant or revoke admin, block, accept")
    .addCommand(listCommand());
  for (const change of changeCommands()) users.addCommand(change);
  return users;
}
