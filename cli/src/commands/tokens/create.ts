/** `game-admin tokens create --name <name>`: a token, printed once. */
import { AdminTokenError, createAdminToken } from "@game/db";
import { Command } from "commander";
import { currentActor, withDb } from "../../context.js";
import { CliError } from "../../errors.js";
import { inert } from "../../output.js";
import { example } from "./example.js";

/** Where a timing system sends its results with a token (decision 0171). */
const PUSH_ENDPOINT = "POST /api/v1/admin/events/{id}/results";

export function createCommand(): Command {
  return new Command("create")
    .description("create a named token and print it, once")
    .requiredOption("--name <name>", "what the audit log and `tokens list` call it, e.g. timing")
    .addHelpText(
      "after",
      `\nThe token is printed alone on stdout's last line and never again (only its hash is kept).\nSend it as \`Authorization: Bearer <token>\` with ${PUSH_ENDPOINT}.\n${example("create --name timing")}`,
    )
    .action(async (opts: { name: string }, cmd: Command) => {
      const created = await withDb(cmd, async (h) => {
        try {
          return await createAdminToken(h.db, { name: opts.name, audit: currentActor() });
        } catch (error) {
          if (error instanceof AdminTokenError) throw new CliError(error.message);
          throw error;
        }
      });
      // The note on stderr, so `$(game-admin tokens create --name x)` is the token alone.
      console.error(
        inert(
          `Token ${created.name} created. It is shown once, now: send it as \`Authorization: Bearer <token>\` with ${PUSH_ENDPOINT}.`,
        ),
      );
      process.stdout.write(`${created.token}\n`);
    });
}
