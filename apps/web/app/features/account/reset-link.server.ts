/**
 * The reset link by e-mail (decisions 0076, 0152). Whether an address has an account is looked
 * up only after the answer to /forgot-password is sent: the request does the same work for
 * every address, so its timing cannot tell who plays.
 */
import { createPasswordReset, findAccountByEmail, redactOutboxMail } from "@game/db";
import type { AppLoadContext } from "@remix-run/node";
import { afterResponse } from "~/utils/after-response.server";
import { sendMail } from "~/utils/mailer.server";
import { takeResetMail } from "~/utils/rate-limit.server";

/** Where the e-mailed link points; the token travels in the query string. */
export const RESET_PATH = "/reset-password";

/** The reset e-mail: plain text and a simple HTML version. */
export function resetMail(to: string, link: string) {
  const escaped = link.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;");
  return {
    to,
    subject: "Reset your Gravity Fantasy password",
    text: [
      "Someone (hopefully you) asked to reset the password of your Gravity Fantasy account.",
      "",
      "Open this link within one hour to choose a new password:",
      link,
      "",
      "The link works once. If you did not ask for it, ignore this e-mail: your password stays as it is.",
    ].join("\n"),
    html: `<p>Someone (hopefully you) asked to reset the password of your Gravity Fantasy account.</p>
<p><a href="${escaped}">Choose a new password</a> (the link works once, within one hour).</p>
<p>If you did not ask for it, ignore this e-mail: your password stays as it is.</p>`,
  };
}

/**
 * Mails a one-hour link to the account using `email`, if there is one and its hourly budget of
 * reset mails is not spent; `origin` is the site's public origin.
 */
export async function mailResetLink(
  context: AppLoadContext,
  email: string,
  origin: string,
): Promise<void> {
  const account = await findAccountByEmail(context.db, email);
  if (!account || !(await takeResetMail(context, account.email))) return;
  const { token } = await createPasswordReset(context.db, account.id, { now: context.now() });
  const link = `${origin}${RESET_PATH}?token=${token}`;
  const sent = await sendMail(context, resetMail(account.email, link));
  // Delivered: the stored copy no longer needs a live link (the outbox keeps only the hash's
  // worth of secrecy). Without SMTP the outbox is the delivery, so the link stays there.
  if (sent.status === "sent") await redactOutboxMail(context.db, sent.id, token);
}

/** `mailResetLink`, once the response to this request is sent. */
export function mailResetLinkLater(context: AppLoadContext, email: string, origin: string): void {
  afterResponse(context, "reset mail", () => mailResetLink(context, email, origin));
}
