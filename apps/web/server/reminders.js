// Deadline reminders: every few minutes the server sends the reminders that have come due (rounds
// locking within 24 hours). One process runs each 5-minute tick (docs/decisions/0130) and each
// player is claimed once per round in the database, so restarts, several app processes and
// several machines never send twice; a pass never overlaps the previous one.
import { runScheduledJob, sendDueReminders } from "@game/db";
import nodemailer from "nodemailer";

/** SMTP delivery when SMTP_URL is set; otherwise the outbox is where reminders go. */
export function smtpDelivery(env) {
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

/** Runs `fn` as is; the server passes its metrics' `timeJob` instead (docs/decisions/0136). */
const untimed = (_job, fn) => fn();

/** Runs a reminder pass now and every `everyMs`; returns a function stopping it. */
export function startReminders(
  db,
  env,
  {
    everyMs = 5 * 60_000,
    now = () => new Date(),
    log = console,
    deliver = smtpDelivery(env),
    time = untimed,
  } = {},
) {
  let running = false;
  const pass = async () => {
    if (running) return;
    running = true;
    try {
      const at = now();
      const outcome = await runScheduledJob(
        db,
        { name: "deadline-reminders", everyMs, now: at },
        () =>
          time("reminders", () =>
            sendDueReminders(db, {
              now: at,
              baseUrl: env.publicUrl || `http://localhost:${env.port}`,
              deliver,
            }),
          ),
      );
      if ("error" in outcome) throw outcome.error;
      if (!outcome.ran) return;
      const summary = outcome.result;
      for (const r of summary.rounds) {
        if (r.players > 0) log.log(`Sent ${r.players} deadline reminders for event ${r.eventId}.`);
      }
      if (summary.failed > 0) log.error(`${summary.failed} reminders could not be delivered.`);
    } catch (error) {
      log.error(`Sending reminders failed: ${error.message}`);
    } finally {
      running = false;
    }
  };
  void pass();
  const timer = setInterval(pass, Math.min(everyMs, 60_000));
  timer.unref();
  return () => clearInterval(timer);
}
