/** `game-admin tokens revoke <name>`: end a token at once. */
import { revokeAdminToken } from "@game/db";
import { Command } from "commander";
import { currentActor, withDb } from "../../context.js";
import { CliError } from "../../errors.js";
import { inert } from "../../output.js";
import { example } from "./example.js";

export function revokeCommand(): Command {
  return new Command("revoke")
    .description("end a token at once (it keeps its name in the list and the audit log)")
    .argument("<name>", "the token's name (see tokens list)")
    .addHelpText("after", example("revoke timing"))
    .action(async (name: string, _opts: unknown, cmd: Command) => {
      const revoked = await withDb(cmd, (h) =>
        revokeAdminToken(h.db, { name, audit: currentActor() }),
      );
      if (!revoked) {
        throw new CliError(
          inert(`there is no live token named ${name} (see: game-admin tokens list)`),
        );
      }
      console.log(inert(`Token ${name.trim().toLowerCase()} is revoked: it no longer works.`));
    });
}
