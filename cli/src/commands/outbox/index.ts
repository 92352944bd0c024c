/** `game-admin outbox`: what the game e-mailed (or, without SMTP, kept for the admin). */
import { Command } from "commander";
import { listCommand } from "./list.js";

export function outboxCommand(): Command {
  return new Command("outbox")
    .description("outbox: the e-mails the game sent or kept")
    .addCommand(listCommand());
}
