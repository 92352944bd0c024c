// Deadline reminders: every few minutes the server sends the reminders that have come due (rounds
// locking within 24 hours). One process runs each 5-minute tick (docs/decisions/0130) and each
// player is claimed once per round in the database, so restarts, several app processes and
// several machines never send twice; the loop is the scheduler's (server/scheduler.ts).
import { type Db, type ReminderMail, sendDueReminders } from "@game/db";
import nodemailer from "nodemailer";
import type { Env } from "./env.js";
import { type JobOptions, startJob } from "./scheduler.js";

type Deliver = (mail: ReminderMail) => Promise<void>;

/** SMTP delivery when SMTP_URL is set; otherwise the outbox is where reminders go. */
export function smtpDelivery(env: Pick<Env, "smtpUrl" | "publicUrl">): Deliver | undefined {
  if (!env.smtpUrl) return undefined;
  const transport = nodemailer.createTransport(env.smtpUrl, {
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  return async (mail) => {
    const host = env.publicUrl ? new URL(env.publicUrl).hostname : "localhost";
    await transport.sendMail({
      from: `Gravity Fantasy <no-reply@${host}>`,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      headers: mail.headers,
    });
  };
}

/** Sends the reminders due, every `everyMs`; returns a function stopping it. */
export function startReminders(
  db: Db,
  env: Pick<Env, "smtpUrl" | "publicUrl" | "port">,
  {
    everyMs = 5 * 60_000,
    deliver = smtpDelivery(env),
    ...opts
  }: JobOptions & { everyMs?: number; deliver?: Deliver | undefined } = {},
): () => void {
  return startJob(
    db,
    {
      name: "deadline-reminders",
      metric: "reminders",
      everyMs,
      run: (at) =>
        sendDueReminders(db, {
          now: at,
          baseUrl: env.publicUrl || `http://localhost:${env.port}`,
          deliver,
        }),
      failed: "Sending reminders failed",
      report(summary, log) {
        for (const r of summary.rounds) {
          if (r.players > 0)
            log.log(`Sent ${r.players} deadline reminders for event ${r.eventId}.`);
        }
        if (summary.failed > 0) log.error(`${summary.failed} reminders could not be delivered.`);
      },
    },
    opts,
  );
}
