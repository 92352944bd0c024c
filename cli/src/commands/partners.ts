import { addPartner, CLI_ACTOR, listPartners } from "@game/db";
import { Command } from "commander";
import { withDb } from "../context.js";
import { inert, printJson, printTable } from "../output.js";

export function partnersCommand(): Command {
  const partners = new Command("partners").description("partner sites that embed the widgets");

  partners
    .command("add")
    .description("add a partner and print its publishable key")
    .argument("<name>", "the partner's name")
    .argument("<origin...>", "web origins allowed to embed, like https://news.example")
    .addHelpText(
      "after",
      '\nExample:\n  $ game-admin partners add "MTB News" https://mtbnews.example https://www.mtbnews.example',
    )
    .action(async (name: string, origins: string[], _opts: unknown, cmd: Command) => {
      const p = await withDb(cmd, (h) => addPartner(h.db, { name, origins }, CLI_ACTOR));
      console.log(inert(`Partner ${p.id} (${p.name}) added for ${p.origins.join(", ")}.`));
      console.log(`Publishable key: ${p.publishableKey}`);
    });

  partners
    .command("list")
    .description("list partners with their keys and origins")
    .option("--json", "print JSON")
    .addHelpText("after", "\nExample:\n  $ game-admin partners list")
    .action(async (opts: { json?: boolean }, cmd: Command) => {
      const rows = await withDb(cmd, (h) => listPartners(h.db));
      if (opts.json) return printJson(rows);
      printTable(
        rows,
        [
          { header: "ID", value: (p) => p.id, align: "right" },
          { header: "Name", value: (p) => p.name },
          { header: "Publishable key", value: (p) => p.publishableKey, max: 60 },
          { header: "Origins", value: (p) => p.origins.join(" "), max: 80 },
        ],
        "No partners.",
      );
    });

  return partners;
}
