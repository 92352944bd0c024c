/**
 * Outgoing e-mail. Every mail is recorded in the outbox first (admins see what was sent); with
 * SMTP_URL it is then delivered through nodemailer and marked sent or failed. Without SMTP the
 * outbox is where mail goes: the admin dashboard lists it.
 */
import { markMailFailed, markMailSent, type OutgoingMail, recordMail } from "@game/db";
import type { AppLoadContext } from "@remix-run/node";
import nodemailer, { type Transporter } from "nodemailer";
import { logError } from "./log.server";

export type MailStatus = "sent" | "failed" | "stored";

export interface MailResult {
  /** The outbox row. */
  id: number;
  status: MailStatus;
  error?: string;
}

const transports = new Map<string, Transporter>();

function transportFor(smtpUrl: string): Transporter {
  let t = transports.get(smtpUrl);
  if (!t) {
    // Short timeouts: a player is waiting on the invite action; the defaults wait minutes.
    t = nodemailer.createTransport(smtpUrl, {
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    } as object);
    transports.set(smtpUrl, t);
  }
  return t;
}

/** The sender address: no-reply at the public host (or localhost in the embedded default). */
export function senderAddress(context: AppLoadContext): string {
  let host = "localhost";
  if (context.env.publicUrl) {
    try {
      host = new URL(context.env.publicUrl).hostname;
    } catch {
      // readEnv does not check PUBLIC_URL's shape; fall back rather than fail a send.
    }
  }
  return `Gravity Fantasy <no-reply@${host}>`;
}

/**
 * Records the mail and delivers it when SMTP is configured. Never throws for a delivery problem:
 * the result says what happened, and the outbox row keeps the error for the admin.
 */
export async function sendMail(context: AppLoadContext, mail: OutgoingMail): Promise<MailResult> {
  const row = await recordMail(context.db, mail, context.now());
  const smtpUrl = context.env.smtpUrl;
  if (!smtpUrl) return { id: row.id, status: "stored" };
  try {
    await transportFor(smtpUrl).sendMail({
      from: senderAddress(context),
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html ?? undefined,
    });
    await markMailSent(context.db, row.id, context.now());
    return { id: row.id, status: "sent" };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // The outbox row has the address; the log gets the mail's id only.
    logError(`mail ${row.id} failed`, error, { expected: true });
    await markMailFailed(context.db, row.id, message).catch((e) =>
      logError(`mail ${row.id}: could not record the failure`, e),
    );
    return { id: row.id, status: "failed", error: message };
  }
}

/** Closes pooled SMTP connections (tests, shutdown). */
export function closeMailTransports(): void {
  for (const t of transports.values()) t.close();
  transports.clear();
}
