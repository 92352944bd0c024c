/** Confirming the e-mail address: paths, messages and shapes shared by server and pages (0151). */

/** Where the mailed link points; the token travels in the query string. */
export const CONFIRM_PATH = "/confirm-email";

export const EMAIL_CONFIRMED =
  "Your e-mail address is confirmed. You can now accept invitations, join leagues and get deadline reminders.";
export const EMAIL_ALREADY_CONFIRMED = "Your e-mail address is already confirmed.";
export const CONFIRMATION_LINK_INVALID =
  "This confirmation link is invalid, already used or expired. Log in and ask for a new one.";
export const CONFIRMATION_SENT = (email: string) =>
  `We have sent a new link to ${email}. It works for two days, once.`;
/** Why a gated action waits: said wherever it is refused. */
export const CONFIRM_FIRST =
  "Confirm your e-mail address first: open the link we e-mailed you when you signed up.";

export type ConfirmEmailPage =
  | { state: "ready"; token: string; email: string; username: string; next: string }
  | { state: "invalid"; canResend: boolean; confirmed: boolean; next: string };

export interface ConfirmEmailResult {
  ok: boolean;
  message: string;
  /** Where to go on from the page (a same-site path), "" for the default. */
  next: string;
}
