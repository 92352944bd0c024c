import { readFileSync } from "node:fs";
import { AdminActionError, RacerImportError } from "@game/db";
import { Command, CommanderError } from "commander";
import { competitionsCommand } from "./commands/competitions/index.js";
import { dbCommand } from "./commands/db/index.js";
import { eventsCommand } from "./commands/events/index.js";
import { outboxCommand } from "./commands/outbox/index.js";
import { partnersCommand } from "./commands/partners/index.js";
import { racersCommand } from "./commands/racers/index.js";
import { remindersCommand } from "./commands/reminders/index.js";
import { resultsCommand } from "./commands/results/index.js";
import { scoresCommand } from "./commands/scores/index.js";
import { seasonCommand } from "./commands/season/index.js";
import { tokensCommand } from "./commands/tokens/index.js";
import { usersCommand } from "./commands/users/index.js";
import { CliError } from "./errors.js";

/**
 * The command groups, one folder each in ./commands (one file per command in it), each with the
 * examples its group help (`game-admin racers --help`) ends with: add a group with one line.
 */
const COMMANDS: Array<[make: () => Command, examples: string[]]> = [
  [
    racersCommand,
    [
      "racers import racers.csv --dry-run",
      "racers list --game 5 --json",
      "racers portraits ./portraits --dry-run",
    ],
  ],
  [
    resultsCommand,
    [
      "results import 5 round-1.csv --dry-run",
      "results import 5 live.csv --provisional",
      "results finalize 5",
      "results list 5",
    ],
  ],
  [scoresCommand, ["scores settle 5", "scores freeze"]],
  [seasonCommand, ["season advance --dry-run", "season advance --json"]],
  [remindersCommand, ["reminders send --dry-run", "reminders send --json"]],
  [
    competitionsCommand,
    [
      'competitions create "Pro Downhill Series 2028" --discipline dh --year 2028',
      "competitions list",
    ],
  ],
  [eventsCommand, ["events list", "events status 6 open"]],
  [usersCommand, ["users list --search example.com", "users grant-admin you@example.com"]],
  [partnersCommand, ['partners add "MTB News" https://mtbnews.example', "partners list"]],
  [outboxCommand, ["outbox list", "outbox list --page 2 --json"]],
  [tokensCommand, ["tokens create --name timing", "tokens list", "tokens revoke timing"]],
  [
    dbCommand,
    [
      "db migrate",
      "db seed",
      "db backup gravity-fantasy-2026-05-01.tar.gz",
      "db restore gravity-fantasy-2026-05-01.tar.gz",
    ],
  ],
];

/**
 * Headings of the top-level help, by command group; a group not named here is listed under
 * "Other commands:", so a new group always shows.
 */
const HELP_GROUPS: Readonly<Record<string, string>> = {
  competitions: "Season data:",
  racers: "Season data:",
  results: "Season data:",
  scores: "Season data:",
  season: "Season data:",
  events: "Season data:",
  reminders: "Players and partners:",
  users: "Players and partners:",
  partners: "Players and partners:",
  outbox: "Players and partners:",
  tokens: "Players and partners:",
  db: "Database:",
};

/** `--version` prints the version of this package (read from its package.json at run time). */
function cliVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
    return typeof pkg.version === "string" ? pkg.version : "unknown";
  } catch {
    return "unknown";
  }
}

/** "  racers    import, list, export": every group's sub-commands, for the top-level help. */
export function commandIndex(program: Command): string {
  const groups = program.commands.filter((c) => c.name() !== "help");
  const width = Math.max(...groups.map((c) => c.name().length));
  const lines = groups.map((group) => {
    const subs = group.commands.map((c) => c.name()).filter((n) => n !== "help");
    return `  ${group.name().padEnd(width)}  ${subs.length ? subs.join(", ") : "(no sub-commands)"}`;
  });
  return `\nAll commands (game-admin <group> <command> --help for details):\n${lines.join("\n")}`;
}

function exampleHelp(examples: string[]): string {
  return `\nExamples:\n${examples.map((e) => `  $ game-admin ${e}`).join("\n")}`;
}

/** Commander throws instead of exiting (so `run` decides the exit code), at every level. */
function throwOnExit(cmd: Command): void {
  cmd.exitOverride();
  cmd.showHelpAfterError("(add --help for usage)");
  for (const sub of cmd.commands) throwOnExit(sub);
}

export function buildProgram(): Command {
  const program = new Command("game-admin")
    .description("Gravity Fantasy admin command line")
    .version(cliVersion(), "-V, --version", "print the version of game-admin")
    .option("--database-url <url>", "PostgreSQL URL (default: DATABASE_URL, else embedded)")
    .option("--data-dir <dir>", "embedded database folder (default: DATA_DIR, else ./data)")
    .option("--verbose", "print stack traces on failure")
    .addHelpText(
      "after",
      "\nExit codes: 0 ok, 1 failure (bad file, unknown event, database down), 2 wrong usage.\n\nExample:\n  $ game-admin racers import racers.csv --dry-run",
    );
  for (const [make, examples] of COMMANDS) {
    const group = make().addHelpText("after", exampleHelp(examples));
    group.helpGroup(HELP_GROUPS[group.name()] ?? "Other commands:");
    program.addCommand(group);
  }
  program.addHelpText("after", () => commandIndex(program));
  throwOnExit(program);
  return program;
}

/** Runs the CLI; resolves to the exit code (0 ok, 1 failure, 2 usage). */
export async function run(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv, { from: "user" });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Asked-for help and the version exit 0; help shown because a sub-command is missing, and
      // everything else commander rejects, is wrong usage.
      return error.exitCode === 0 ? 0 : 2;
    }
    if (
      error instanceof CliError ||
      error instanceof RacerImportError ||
      error instanceof AdminActionError
    ) {
      console.error(`error: ${error.message}`);
      return error instanceof CliError ? error.exitCode : 1;
    }
    const message = error instanceof Error ? error.message : String(error);
    console.error(`error: ${message.split("\n")[0]}`);
    if (argv.includes("--verbose") && error instanceof Error) console.error(error.stack);
    return 1;
  }
}
