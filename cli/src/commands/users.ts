import {
  type AdminUserRow,
  acceptUser,
  blockUser,
  grantAdmin,
  listUsersForAdmin,
  revokeAdmin,
  type UserChange,
} from "@game/db";
import { Command } from "commander";
import { type CliDb, currentActor, withDb } from "../context.js";
import { inert, printJson, printTable } from "../output.js";

function userAction(
  name: string,
  description: string,
  run: (h: CliDb, email: string) => Promise<UserChange>,
  done: (u: AdminUserRow) => string,
  already: (u: AdminUserRow) => string,
): Command {
  return new Command(name)
    .description(description)
    .argument("<email>", "the user's e-mail address")
    .addHelpText("after", `\nExample:\n  $ game-admin users ${name} rider@example.com`)
    .action(async (email: string, _opts: unknown, cmd: Command) => {
      const r = await withDb(cmd, (h) => run(h, email));
      console.log(inert(r.changed ? done(r.user) : already(r.user)));
    });
}

export function usersCommand(): Command {
  const users = new Command("users").description(
    "users: list, grant or revoke admin, block, accept",
  );

  users
    .command("list")
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

  users.addCommand(
    userAction(
      "grant-admin",
      "make a user an admin (how the first admin is made)",
      (h, email) => grantAdmin(h.db, { email }, currentActor()),
      (u) => `${u.email} is now an admin.`,
      (u) => `${u.email} already was an admin.`,
    ),
  );
  users.addCommand(
    userAction(
      "revoke-admin",
      "make an admin a player again (the last admin cannot be removed)",
      (h, email) => revokeAdmin(h.db, { email }, currentActor()),
      (u) => `${u.email} is no longer an admin.`,
      (u) => `${u.email} was not an admin.`,
    ),
  );
  users.addCommand(
    userAction(
      "block",
      "stop a user from logging in and end their sessions",
      (h, email) => blockUser(h.db, { email }, currentActor()),
      (u) => `${u.email} is blocked; their sessions have ended.`,
      (u) => `${u.email} already was blocked; any session has ended.`,
    ),
  );
  users.addCommand(
    userAction(
      "accept",
      "let a user log in (again)",
      (h, email) => acceptUser(h.db, { email }, currentActor()),
      (u) => `${u.email} is accepted and can log in.`,
      (u) => `${u.email} already was accepted.`,
    ),
  );

  return users;
}
