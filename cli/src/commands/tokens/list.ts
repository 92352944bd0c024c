/** `game-admin tokens list`: tokens, live and revoked (never the tokens themselves). */
import { listAdminTokens } from "@game/db";
import { Command } from "commander";
import { withDb } from "../../context.js";
import { printJson, printTable } from "../../output.js";
import { example } from "./example.js";

/** "2026-11-27 07:48" (UTC), or `none` when there is no time. */
const minute = (at: Date | null, none = "") =>
  at ? at.toISOString().slice(0, 16).replace("T", " ") : none;

export function listCommand(): Command {
  return new Command("list")
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
}
