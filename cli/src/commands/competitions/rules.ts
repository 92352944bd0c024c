/** `game-admin competitions rules <slug>`: print or change a competition's rules. */
import { changeCompetitionRules, getCompetition } from "@game/db";
import { Command } from "commander";
import { currentActor, withDb } from "../../context.js";
import { inert, printJson } from "../../output.js";
import { type RuleOptions, ruleChanges, withRuleOptions } from "./options.js";
import { competitionJson, noSuchCompetition, rulesText } from "./print.js";

export function rulesCommand(): Command {
  return withRuleOptions(
    new Command("rules")
      .description("change a competition's rules (until its first lock)")
      .argument("<slug>", "the competition's slug"),
  )
    .option("--json", "print JSON")
    .addHelpText(
      "after",
      "\nWithout options, prints the rules. Refused (exit 1) once a round's teams have locked.\n\nExample:\n  $ game-admin competitions rules xc-cup-2028 --min-women 3 --max-women 3\n  $ game-admin competitions rules xc-cup-2028 --captain\n  $ game-admin competitions rules xc-cup-2028 --bench\n  $ game-admin competitions rules xc-cup-2028 --transfers 1:5:4 --wildcard\n  $ game-admin competitions rules xc-cup-2028 --transfers unlimited --no-wildcard",
    )
    .action(async (slug: string, opts: RuleOptions & { json?: boolean }, cmd: Command) => {
      const changes = ruleChanges(opts);
      const asking = Object.keys(changes).length === 0;
      const r = await withDb(cmd, async (h) => {
        if (asking) {
          const c = await getCompetition(h.db, slug, new Date());
          if (!c) throw noSuchCompetition(slug);
          return { competition: c, changed: false };
        }
        return changeCompetitionRules(h.db, slug, changes, currentActor(), new Date());
      });
      if (opts.json) return printJson({ ...competitionJson(r.competition), changed: r.changed });
      if (!asking) {
        console.log(
          r.changed
            ? `The rules of ${inert(r.competition.name)} are now:`
            : `The rules of ${inert(r.competition.name)} were already so:`,
        );
      }
      console.log(rulesText(r.competition.rules));
    });
}
