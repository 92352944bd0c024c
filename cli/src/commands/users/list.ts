/** `game-admin users list`: users in sign-up order. */
import { listUsersForAdmin } from "@game/db";
import { Command } from "commander";
import { withDb } from "../../context.js";
import { printJson, printTable } from "../../output.js";

export function listCommand(): Command {
  return new Command("list")
    .description("list users in sign-up order")
    .option("--search <text>", "only users whose e-mail or username contains this")
    .option("--json", "print JSON")
    .addHelpText("after", "\nExample:\n  $ game-admin users list --search example.com")
    .action(async (opts: { search?: string; json?: boolean }, cmd: Command) => {
      const { rows } = await withDb(cmd, (h) =>
        listUsersForAdmin(h.db, { q: opts.search, limit: 10_000 }),
      );
      if (opts.json) return printJson(rows);
      printTable(
        rows,
        [
          { header: "ID", value: (u) => u.id, align: "right" },
          { header: "Email", value: (u) => u.email },
          { header: "Username", value: (u) => u.username, max: 24 },
          { header: "Role", value: (u) => u.role },
          { header: "Status", value: (u) => (u.accepted ? "accepted" : "blocked") },
          { header: "Points", value: (u) => u.points, align: "right" },
          { header: "Joined", value: (u) => u.createdAt.toISOString().slice(0, 10) },
        ],
        "No users.",
      );
    });
}
