/** `game-admin partners disable <id>` and `partners enable <id>`. */
import { disablePartner, enablePartner } from "@game/db";
import { Command } from "commander";
import { currentActor, withDb } from "../../context.js";
import { positiveInt } from "../../errors.js";
import { printJson } from "../../output.js";
import { example, label } from "./options.js";

/** `enabled` false: the disable command; true: enable. */
export function enableCommand(enabled: boolean): Command {
  const name = enabled ? "enable" : "disable";
  return new Command(name)
    .description(
      enabled
        ? "let a disabled partner embed again, with the same key"
        : "stop a partner's embeds at once; its key and origins are kept for enable",
    )
    .argument("<id>", "partner id (see partners list)", positiveInt)
    .option("--json", "print the partner as JSON")
    .addHelpText("after", example(`${name} 3`))
    .action(async (id: number, opts: { json?: boolean }, cmd: Command) => {
      const change = enabled ? enablePartner : disablePartner;
      const r = await withDb(cmd, (h) => change(h.db, id, currentActor()));
      if (opts.json) return printJson(r.partner);
      const now = enabled
        ? "is enabled again."
        : "is disabled: its origins get no CORS and its iframe is refused.";
      console.log(`${label(r.partner)} ${r.changed ? now : `already was ${name}d.`}`);
    });
}
