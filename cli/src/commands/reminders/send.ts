import { type ReminderMail, type ReminderSummary, sendDueReminders } from "@game/db";
import { Command } from "commander";
import { currentActor, publicUrl, withDb } from "../../context.js";
import { CliError } from "../../errors.js";
import { printJson } from "../../output.js";

const n = (v: number) => v.toLocaleString("en-US");

/** SMTP delivery when SMTP_URL is set; without it the outbox is where reminders go. */
async function smtpDelivery(
  baseUrl: string,
): Promise<((mail: ReminderMail) => Promise<void>) | undefined> {
  const smtpUrl = process.env.SMTP_URL;
  if (!smtpUrl) return undefined;
  if (!/^smtps?:\/\//i.test(smtpUrl)) {
    throw new CliError("SMTP_URL must start with smtp:// or smtps://");
  }
  // Loaded only when mail goes out: every other command would pay for its module loading.
  const { default: nodemailer } = await import("nodemailer");
  const transport = nodemailer.createTransport(smtpUrl);
  const from = `Gravity Fantasy <no-reply@${new URL(baseUrl).hostname}>`;
  return async (mail) => {
    await transport.sendMail({
      from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      headers: mail.headers,
    });
  };
}

export function remindersReport(s: ReminderSummary): string {
  if (s.rounds.length === 0) return "No round locks within the next 24 hours: no reminder is due.";
  const lines = s.rounds.map(
    (r) =>
      `${r.name} (event ${r.eventId}), locks ${r.lockAt.toISOString()}: ${n(r.players)} ${s.dryRun ? "players due a reminder" : "reminders sent"}.`,
  );
  if (s.dryRun) lines.push("Dry run: nothing sent.");
  if (s.failed > 0) lines.push(`${n(s.failed)} could not be delivered (see the outbox).`);
  if (s.busy) lines.push("Another process is sending reminders right now: it sends the rest.");
  return lines.join("\n");
}

export function sendCommand(): Command {
  return new Command("send")
    .description("send the reminders due now (rounds locking within 24 hours), once per player")
    .option("--dry-run", "count the players due a reminder and send nothing")
    .option("--json", "print the summary as JSON")
    .addHelpText(
      "after",
      "\nThe app sends them on its own; this is for admins and tests. Each player gets one\nreminder per round, whoever sends it. Mail goes through SMTP_URL when set, to the outbox\notherwise. Links use PUBLIC_URL, else the address of the app running on DATA_DIR; without\neither nothing is sent.\n\nExample:\n  $ game-admin reminders send --dry-run",
    )
    .action(async (opts: { dryRun?: boolean; json?: boolean }, cmd: Command) => {
      // A dry run mails nothing, so it needs no address for the links.
      const url = opts.dryRun ? "" : publicUrl(cmd);
      const deliver = opts.dryRun ? undefined : await smtpDelivery(url);
      const summary = await withDb(cmd, (h) =>
        sendDueReminders(h.db, {
          now: new Date(),
          baseUrl: url,
          dryRun: opts.dryRun,
          deliver,
          actor: currentActor(),
        }),
      );
      if (opts.json) return printJson(summary);
      process.stdout.write(`${remindersReport(summary)}\n`);
    });
}
