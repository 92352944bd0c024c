/**
 * Reading the game's mail in browser tests as the player would: the SMTP sink is their mailbox.
 * Confirming a new account's address opens the mailed link and presses its button (0151).
 */
import type { Page } from "playwright-core";
import type { ReceivedMail, SmtpSink } from "./smtp-sink";

export const CONFIRMATION_SUBJECT = "Confirm your e-mail address for Gravity Fantasy";

/** The first mail to `to` whose subject is `subject` (waits up to `timeoutMs`). */
export async function mailWithSubject(
  sink: SmtpSink,
  to: string,
  subject: string,
  timeoutMs = 15_000,
): Promise<ReceivedMail> {
  const wanted = to.toLowerCase();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = sink.messages.find((m) => m.to.includes(wanted) && m.subject === subject);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no "${subject}" to ${to} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Opens the confirmation link mailed to `email` on `page` and confirms; resolves with the link.
 * The link is on the site's public address (PUBLIC_URL, else localhost:PORT), which need not be
 * where the page signed up: like a mail opened on another device, it works signed out too.
 */
export async function confirmEmailFromMail(page: Page, sink: SmtpSink, email: string) {
  const mail = await mailWithSubject(sink, email, CONFIRMATION_SUBJECT);
  const link = /(https?:\/\/\S+\/confirm-email\?\S+)/.exec(mail.text)?.[1];
  if (!link) throw new Error(`no confirmation link in the mail to ${email}`);
  await page.goto(link);
  await page.getByRole("button", { name: "Confirm my e-mail address" }).click();
  await page.getByText("Your e-mail address is confirmed.").waitFor();
  return link;
}
