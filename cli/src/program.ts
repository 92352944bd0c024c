import { AdminActionError, RacerImportError } from "@game/db";
import { Command, CommanderError } from "commander";
import { dbCommand } from "./commands/db.js";
import { eventsCommand } from "./commands/events.js";
import { partnersCommand } from "./commands/partners.js";
import { racersCommand } from "./commands/racers.js";
import { resultsCommand } from "./commands/results.js";
import { scoresCommand } from "./commands/scores.js";
import { usersCommand } from "./commands/users.js";
import { CliError } from "./errors.js";

/**
 * The top-level commands, one factory per file in ./commands, each with the examples its group
 * help (`game-admin racers --help`) ends with: add a command with one line.
 */
const COMMANDS: Array<[make: () => Command, examples: string[]]> = [
  [racersCommand, ["racers import racers.csv --dry-run", "racers list --game 5 --json"]],
  [resultsCommand, ["results import 5 round-1.csv --dry-run", "results list 5"]],
  [scoresCommand, ["scores settle 5", "scores freeze"]],
  [eventsCommand, ["events list", "events status 6 open"]],
  [usersCommand, ["users list --search example.com", "users grant-admin you@example.com"]],
  [partnersCommand, ['partners add "MTB News" https://mtbnews.example', "partners list"]],
  [dbCommand, ["db migrate", "db seed"]],
];

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
    .option("--database-url <url>", "PostgreSQL URL (default: DATABASE_URL, else embedded)")
    .option("--data-dir <dir>", "embedded database folder (default: DATA_DIR, else ./data)")
    .option("--verbose", "print stack traces on failure")
    .addHelpText(
      "after",
      "\nExit codes: 0 ok, 1 failure (bad file, unknown event, database down), 2 wrong usage.\n\nExample:\n  $ game-admin racers import racers.csv --dry-run",
    );
  for (const [make, examples] of COMMANDS) {
    program.addCommand(make().addHelpText("after", exampleHelp(examples)));
  }
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
