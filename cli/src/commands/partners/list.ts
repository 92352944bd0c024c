/** `game-admin partners list`: partners with their keys, origins and status. */
import { listPartners } from "@game/db";
import { Command } from "commander";
import { withDb } from "../../context.js";
import { printJson, printTable } from "../../output.js";
import { example } from "./options.js";

export function listCommand(): Command {
  return new Command("list")
    .description("list partners with their keys, origins and status")
    .option("--json", "print JSON")
    .addHelpText("after", example("list"))
    .action(async (opts: { json?: boolean }, cmd: Command) => {
      const rows = await withDb(cmd, (h) => listPartners(h.db));
      if (opts.json) return printJson(rows);
      printTable(
        rows,
        [
          { header: "ID", value: (p) => p.id, align: "right" },
          { header: "Name", value: (p) => p.name },
          { header: "Status", value: (p) => (p.disabledAt ? "disabled" : "active") },
          { header: "Publishable key", value: (p) => p.publishableKey, max: 60 },
          { header: "Origins", value: (p) => p.origins.join(" "), max: 80 },
        ],
        "No partners.",
      );
    });
}
