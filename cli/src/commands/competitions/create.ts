/** `game-admin competitions create <name>`: a series or a one-off race, with its rules. */
import { createCompetition } from "@game/db";
import { Command } from "commander";
import { currentActor, withDb } from "../../context.js";
import { inert, printJson } from "../../output.js";
import { discipline, type RuleOptions, ruleChanges, withRuleOptions } from "./options.js";
import { competitionJson, rulesText } from "./print.js";

interface CreateOptions extends RuleOptions {
  discipline: string;
  year?: string;
  description?: string;
  json?: boolean;
}

export function createCommand(): Command {
  return withRuleOptions(
    new Command("create")
      .description("create a competition (a series or a one-off race) with its rules")
      .argument("<name>", 'its name, e.g. "Pro Downhill Series 2028"')
      .requiredOption("--discipline <d>", "dh, xc, enduro, freeride or other", discipline)
      .option("--year <label>", "the year or season label, e.g. 2028")
      .option("--description <text>", "a line for the competition page"),
  )
    .option("--json", "print JSON")
    .addHelpText(
      "after",
      '\nExample:\n  $ game-admin competitions create "Pro Downhill Series 2028" --discipline dh --year 2028\n  $ game-admin competitions create "XC Cup 2028" --discipline xc --min-women 3 --max-women 3 \\\n      --min-juniors 0 --budget 1500000\n  $ game-admin competitions create "Enduro Cup 2028" --discipline enduro --captain\n  $ game-admin competitions create "Marathon Cup 2028" --discipline xc --bench\n  $ game-admin competitions create "Stage Race 2028" --discipline xc --transfers 1:5:4 --wildcard',
    )
    .action(async (name: string, opts: CreateOptions, cmd: Command) => {
      const c = await withDb(cmd, (h) =>
        createCompetition(
          h.db,
          {
            name,
            discipline: opts.discipline,
            season: opts.year,
            description: opts.description,
            rules: ruleChanges(opts),
          },
          currentActor(),
          new Date(),
        ),
      );
      if (opts.json) return printJson(competitionJson(c));
      console.log(`Created ${inert(c.name)}: slug ${c.slug}.`);
      console.log(`Rules:\n${rulesText(c.rules)}`);
      console.log(
        `Next: game-admin events create --competition ${c.slug} --name "Round 1" --starts <ISO time>`,
      );
    });
}
