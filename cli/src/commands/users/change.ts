/**
 * `game-admin users grant-admin|revoke-admin|block|accept <email>`: one change to one user, each
 * saying whether it changed anything.
 */
import {
  type AdminUserRow,
  acceptUser,
  blockUser,
  grantAdmin,
  revokeAdmin,
  type UserChange,
} from "@game/db";
import { Command } from "commander";
import { type CliDb, currentActor, withDb } from "../../context.js";
import { inert } from "../../output.js";

interface UserAction {
  name: string;
  description: string;
  run: (h: CliDb, email: string) => Promise<UserChange>;
  done: (u: AdminUserRow) => string;
  already: (u: AdminUserRow) => string;
}

const ACTIONS: readonly UserAction[] = [
  {
    name: "grant-admin",
    description: "make a user an admin (how the first admin is made)",
    run: (h, email) => grantAdmin(h.db, { email }, currentActor()),
    done: (u) => `${u.email} is now an admin.`,
    already: (u) => `${u.email} already was an admin.`,
  },
  {
    name: "revoke-admin",
    description: "make an admin a player again (the last admin cannot be removed)",
    run: (h, email) => revokeAdmin(h.db, { email }, currentActor()),
    done: (u) => `${u.email} is no longer an admin.`,
    already: (u) => `${u.email} was not an admin.`,
  },
  {
    name: "block",
    description: "stop a user from logging in and end their sessions",
    run: (h, email) => blockUser(h.db, { email }, currentActor()),
    done: (u) => `${u.email} is blocked; their sessions have ended.`,
    already: (u) => `${u.email} already was blocked; any session has ended.`,
  },
  {
    name: "accept",
    description: "let a user log in (again)",
    run: (h, email) => acceptUser(h.db, { email }, currentActor()),
    done: (u) => `${u.email} is accepted and can log in.`,
    already: (u) => `${u.email} already was accepted.`,
  },
];

function changeCommand({ name, description, run, done, already }: UserAction): Command {
  return new Command(name)
    .description(description)
    .argument("<email>", "the user's e-mail address")
    .addHelpText("after", `\nExample:\n  $ game-admin users ${name} rider@example.com`)
    .action(async (email: string, _opts: unknown, cmd: Command) => {
      const r = await withDb(cmd, (h) => run(h, email));
      console.log(inert(r.changed ? done(r.user) : already(r.user)));
    });
}

export const changeCommands = (): Command[] => ACTIONS.map(changeCommand);
