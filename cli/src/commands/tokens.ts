import { AdminTokenError, createAdminToken, listAdminTokens, revokeAdminToken } from "@game/db";
import { Command } from "commander";
import { currentActor, withDb } from "../context.js";
import { CliError } from "../errors.js";
import { inert, printJson, printTable } from "../output.js";

/** Where a timing system sends its results with a token (decision 0171). */
const PUSH_ENDPOINT = "POST /api/v1/admin/events/{id}/results";

/** "2026-11-27 07:48" (UTC), or `none` when there is no time. */
const minute = (at: Date | null, none = "") =>
  at ? at.toISOString().slice(0, 16).replace("T", " ") : none;

const example = (...lines: string[]) =>
  `\nExample:\n${lines.map((l) => `  $ game-admin tokens ${l}`).join("\n")}`;

/** `game-admin tokens`: the admin API tokens a timing system pushes results with. */
export function tokensCommand(): Command {
  const tokens = new Command("tokens").description(
    "admin API tokens (a timing system's results push): create, revoke, list",
  );

  tokens
    .command("create")
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

  tokens
    .command("revoke")
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

  tokens
    .command("list")
    .description("list tokens, live and revoked (never the tokens themselves)")
    .option("--json", "print JSON")
    .addHelpText("after", `\nTimes are UTC.\n${example("list")}`)
    .action(async (opts: { json?: boolean }, cmd: Command) => {
      const rows = await withDb(cmd, (h) => listAdminTokens(h.db));
      if (opts.json) return printJson(rows);
      printTable(
        rows,
        [
          { header: "Name", value: (t) => t.name, max: 64 },
          { header: "Created", value: (t) => minute(t.createdAt) },
          { header: "By", value: (t) => t.createdBy },
          { header: "Last used", value: (t) => minute(t.lastUsedAt, "never") },
          { header: "Revoked", value: (t) => minute(t.revokedAt) },
        ],
        "No tokens.",
      );
    });

  return tokens;
}
