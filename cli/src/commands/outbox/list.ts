import { listOutbox, outboxStatus } from "@game/db";
import { Command, InvalidArgumentError } from "commander";
import { withDb } from "../../context.js";
import { positiveInt } from "../../errors.js";
import { printJson, printTable } from "../../output.js";

/** The most mails one page shows (the service's cap). */
const MAX_LIMIT = 200;

function limitArg(value: string): number {
  const n = positiveInt(value);
  if (n > MAX_LIMIT) throw new InvalidArgumentError(`must be at most ${MAX_LIMIT}.`);
  return n;
}

export function listCommand(): Command {
  return new Command("list")
    .description("list e-mails, newest first, with their delivery status")
    .option("--page <n>", "page to show, from 1", positiveInt, 1)
    .option("--limit <n>", `e-mails per page (at most ${MAX_LIMIT})`, limitArg, 50)
    .option("--json", "print JSON (with the message text)")
    .addHelpText(
      "after",
      "\nStatus: sent (delivered by SMTP), failed (see the error), stored (no SMTP: kept here only).\n\nExample:\n  $ game-admin outbox list --page 2 --limit 20",
    )
    .action(async (opts: { page: number; limit: number; json?: boolean }, cmd: Command) => {
      const offset = (opts.page - 1) * opts.limit;
      const { rows, total } = await withDb(cmd, (h) =>
        listOutbox(h.db, { limit: opts.limit, offset }),
      );
      const mails = rows.map((m) => ({
        id: m.id,
        createdAt: m.createdAt.toISOString(),
        to: m.to,
        subject: m.subject,
        status: outboxStatus(m),
        sentAt: m.sentAt?.toISOString() ?? null,
        error: m.error,
        text: m.text,
      }));
      if (opts.json) printJson(mails);
      else {
        printTable(
          mails,
          [
            { header: "ID", value: (m) => m.id, align: "right" },
            { header: "Created (UTC)", value: (m) => m.createdAt.slice(0, 16).replace("T", " ") },
            { header: "To", value: (m) => m.to },
            { header: "Subject", value: (m) => m.subject, max: 50 },
            { header: "Status", value: (m) => m.status },
            { header: "Error", value: (m) => m.error ?? "", max: 60 },
          ],
          total > 0 ? `No e-mails on page ${opts.page} (${total} in all).` : "No e-mails.",
        );
      }
      // Where the page sits, on stderr so stdout stays the data.
      if (mails.length > 0 && (opts.page > 1 || offset + mails.length < total)) {
        const more = offset + mails.length < total ? ` Next: --page ${opts.page + 1}` : "";
        process.stderr.write(
          `E-mails ${offset + 1}-${offset + mails.length} of ${total}.${more}\n`,
        );
      }
    });
}
