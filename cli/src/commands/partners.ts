import {
  addPartner,
  changePartnerOrigins,
  deletePartner,
  disablePartner,
  enablePartner,
  listPartners,
  type OriginChange,
  type PartnerListRow,
  renamePartner,
} from "@game/db";
import { Command } from "commander";
import { currentActor, withDb } from "../context.js";
import { positiveInt, UsageError } from "../errors.js";
import { inert, printJson, printTable } from "../output.js";
import { addPartnerStatsCommand } from "./partners-stats.js";

/** `Partner 3 (MTB News)`, safe to print. */
const label = (p: PartnerListRow) => inert(`Partner ${p.id} (${p.name})`);

const example = (...lines: string[]) =>
  `\nExample:\n${lines.map((l) => `  $ game-admin partners ${l}`).join("\n")}`;

export function partnersCommand(): Command {
  const partners = new Command("partners").description(
    "partner sites that embed the widgets: add, list, rename, origins, disable/enable, delete, stats",
  );

  partners
    .command("add")
    .description("add a partner and print its publishable key")
    .argument("<name>", "the partner's name")
    .argument("<origin...>", "web origins allowed to embed, like https://news.example")
    .option("--json", "print the new partner as JSON")
    .addHelpText(
      "after",
      example('add "MTB News" https://mtbnews.example https://www.mtbnews.example'),
    )
    .action(async (name: string, origins: string[], opts: { json?: boolean }, cmd: Command) => {
      const p = await withDb(cmd, (h) => addPartner(h.db, { name, origins }, currentActor()));
      if (opts.json) return printJson(p);
      console.log(inert(`Partner ${p.id} (${p.name}) added for ${p.origins.join(", ")}.`));
      console.log(`Publishable key: ${p.publishableKey}`);
    });

  partners
    .command("list")
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

  partners
    .command("rename")
    .description("rename a partner (its key and origins stay)")
    .argument("<id>", "partner id (see partners list)", positiveInt)
    .argument("<name>", "the new name")
    .option("--json", "print the partner as JSON")
    .addHelpText("after", example('rename 3 "MTB News Daily"'))
    .action(async (id: number, name: string, opts: { json?: boolean }, cmd: Command) => {
      const r = await withDb(cmd, (h) => renamePartner(h.db, id, name, currentActor()));
      if (opts.json) return printJson(r.partner);
      console.log(
        inert(
          r.changed
            ? `Partner ${id} is now named ${r.partner.name}.`
            : `Partner ${id} already was named ${r.partner.name}.`,
        ),
      );
    });

  partners
    .command("origins")
    .description("change the origins allowed to embed: add, remove, or replace them all")
    .argument("<id>", "partner id (see partners list)", positiveInt)
    .option("--add <origin...>", "origins to allow")
    .option("--remove <origin...>", "origins to stop allowing (at once, for CORS and the iframe)")
    .option("--set <origin...>", "the complete new list (instead of --add/--remove)")
    .option("--json", "print the partner as JSON")
    .addHelpText(
      "after",
      example(
        "origins 3 --add https://m.mtbnews.example --remove https://old.mtbnews.example",
        "origins 3 --set https://mtbnews.example https://www.mtbnews.example",
      ),
    )
    .action(
      async (
        id: number,
        opts: { add?: string[]; remove?: string[]; set?: string[]; json?: boolean },
        cmd: Command,
      ) => {
        if (opts.set && (opts.add || opts.remove)) {
          throw new UsageError("give either --set, or --add and/or --remove.");
        }
        if (!opts.set && !opts.add && !opts.remove) {
          throw new UsageError("give --add, --remove or --set with at least one origin.");
        }
        const change: OriginChange = opts.set
          ? { set: opts.set }
          : { add: opts.add ?? [], remove: opts.remove ?? [] };
        const r = await withDb(cmd, (h) => changePartnerOrigins(h.db, id, change, currentActor()));
        if (opts.json) return printJson(r.partner);
        const list = r.partner.origins.join(", ");
        if (!r.changed) {
          console.log(inert(`${label(r.partner)} is unchanged: ${list}.`));
          return;
        }
        const what = [
          r.added.length > 0 ? `added ${r.added.join(", ")}` : "",
          r.removed.length > 0 ? `removed ${r.removed.join(", ")}` : "",
        ].filter(Boolean);
        console.log(inert(`${label(r.partner)} now allows ${list} (${what.join("; ")}).`));
      },
    );

  partners
    .command("disable")
    .description("stop a partner's embeds at once; its key and origins are kept for enable")
    .argument("<id>", "partner id (see partners list)", positiveInt)
    .option("--json", "print the partner as JSON")
    .addHelpText("after", example("disable 3"))
    .action(async (id: number, opts: { json?: boolean }, cmd: Command) => {
      const r = await withDb(cmd, (h) => disablePartner(h.db, id, currentActor()));
      if (opts.json) return printJson(r.partner);
      console.log(
        r.changed
          ? `${label(r.partner)} is disabled: its origins get no CORS and its iframe is refused.`
          : `${label(r.partner)} already was disabled.`,
      );
    });

  partners
    .command("enable")
    .description("let a disabled partner embed again, with the same key")
    .argument("<id>", "partner id (see partners list)", positiveInt)
    .option("--json", "print the partner as JSON")
    .addHelpText("after", example("enable 3"))
    .action(async (id: number, opts: { json?: boolean }, cmd: Command) => {
      const r = await withDb(cmd, (h) => enablePartner(h.db, id, currentActor()));
      if (opts.json) return printJson(r.partner);
      console.log(
        r.changed
          ? `${label(r.partner)} is enabled again.`
          : `${label(r.partner)} already was enabled.`,
      );
    });

  partners
    .command("delete")
    .description("delete a disabled partner for good (its key can never work again)")
    .argument("<id>", "partner id (see partners list)", positiveInt)
    .option("--yes", "confirm: deleting cannot be undone")
    .option("--json", "print the deleted partner as JSON")
    .addHelpText("after", example("disable 3", "delete 3 --yes"))
    .action(async (id: number, opts: { yes?: boolean; json?: boolean }, cmd: Command) => {
      if (!opts.yes) {
        throw new UsageError(
          `deleting partner ${id} cannot be undone: add --yes (or use disable, which can).`,
        );
      }
      const p = await withDb(cmd, (h) => deletePartner(h.db, id, currentActor()));
      if (opts.json) return printJson(p);
      console.log(`${label(p)} deleted.`);
    });

  addPartnerStatsCommand(partners);

  return partners;
}
