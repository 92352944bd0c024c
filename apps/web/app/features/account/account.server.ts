/**
 * Recovering and managing an account: forgotten password (a one-hour, single-use link by e-mail),
 * setting a new one with that link, changing the password while signed in, and signing out
 * everywhere. Policy: decisions 0075 (password), 0076 (reset and sessions), 0077 (lock-out).
 */
import { newPasswordSchema } from "@game/core";
import {
  changePassword,
  countAccountSessions,
  createPasswordReset,
  endAccountSessions,
  findAccountByEmail,
  findPasswordReset,
  redactOutboxMail,
  resetPassword,
} from "@game/db";
import { type AppLoadContext, data, redirect } from "@remix-run/node";
import { z } from "zod";
import { HONEYPOT_FIELD } from "~/features/auth/auth-result";
import { publicOrigin } from "~/features/leagues/paths.server";
import { requireUser } from "~/utils/auth.server";
import { sendMail } from "~/utils/mailer.server";
import { hashPassword, verifyPassword } from "~/utils/password.server";
import {
  checkAuthLimit,
  clearAuthLimit,
  takeResetMail,
  tooManyAttemptsMessage,
} from "~/utils/rate-limit.server";
import { readForm } from "~/utils/request.server";
import { clearSessionCookie, readSessionToken } from "~/utils/session.server";
import {
  type AccountFormResult,
  PASSWORD_CHANGED,
  PASSWORD_RESET_DONE,
  RESET_LINK_INVALID,
  RESET_LINK_SENT,
  SAME_PASSWORD,
  WRONG_CURRENT_PASSWORD,
} from "./messages";

/** Where the e-mailed link points; the token travels in the query string. */
export const RESET_PATH = "/reset-password";

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
};

const emailSchema = z
  .string()
  .trim()
  .min(1, { error: "Enter the e-mail address of your account.", abort: true })
  .max(254, "That e-mail address is too long.")
  .pipe(z.email({ error: "Enter a valid e-mail address." }))
  .transform((e) => e.toLowerCase());

function refused(result: AccountFormResult, status: number, headers: HeadersInit = {}) {
  return data(result, { status, headers });
}

async function limited(
  context: AppLoadContext,
  action: "forgot" | "reset" | "change",
  subject: string,
) {
  const wait = await checkAuthLimit(context, action, subject);
  if (wait === null) return null;
  return refused({ formError: tooManyAttemptsMessage(wait) }, 429, { "Retry-After": String(wait) });
}

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
 * POST /forgot-password. The answer is the same whether or not an account uses the e-mail; the
 * mail goes only to an existing account, at most RESET_MAILS_PER_EMAIL an hour (past that the
 * answer is the same and the links already sent still work). Limited per client with a 429.
 */
export async function forgotPasswordAction(request: Request, context: AppLoadContext) {
  const form = await readForm(request);
  if (text(form, HONEYPOT_FIELD) !== "") throw redirect("/");
  const parsed = emailSchema.safeParse(text(form, "email"));
  const values = { email: text(form, "email").trim() };
  if (!parsed.success) {
    return refused({ fieldErrors: { email: parsed.error.issues[0]!.message }, values }, 400);
  }
  const email = parsed.data;
  const tooMany = await limited(context, "forgot", email);
  if (tooMany) return tooMany;

  const account = await findAccountByEmail(context.db, email);
  if (account && (await takeResetMail(context, account.email))) {
    const { token } = await createPasswordReset(context.db, account.id, { now: context.now() });
    const link = `${publicOrigin(request, context)}${RESET_PATH}?token=${token}`;
    const sent = await sendMail(context, resetMail(account.email, link));
    // Delivered: the stored copy no longer needs a live link (the outbox keeps only the hash's
    // worth of secrecy). Without SMTP the outbox is the delivery, so the link stays there.
    if (sent.status === "sent") await redactOutboxMail(context.db, sent.id, token);
  }
  return { ok: true, message: RESET_LINK_SENT, values } satisfies AccountFormResult;
}

/** GET /reset-password?token=...: whether the link is still good (nothing is used up here). */
export async function resetPasswordLoader(request: Request, context: AppLoadContext) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const found = await findPasswordReset(context.db, token, context.now());
  if (!found) return data({ valid: false as const, token: null }, { status: 400 });
  return { valid: true as const, token };
}

/** POST /reset-password: the new password, with the token from the link. */
export async function resetPasswordAction(request: Request, context: AppLoadContext) {
  const form = await readForm(request);
  const token = text(form, "token");
  const tooMany = await limited(context, "reset", "");
  if (tooMany) return tooMany;
  const found = await findPasswordReset(context.db, token, context.now());
  if (!found) return refused({ formError: RESET_LINK_INVALID }, 400);
  const checked = newPasswordSchema.safeParse(text(form, "password"));
  if (!checked.success) {
    return refused({ fieldErrors: { password: checked.error.issues[0]!.message } }, 400);
  }
  const done = await resetPassword(context.db, token, await hashPassword(checked.data), {
    now: context.now(),
  });
  if (!done) return refused({ formError: RESET_LINK_INVALID }, 400);
  // The owner proved control of the mailbox: their own mistakes from here are forgiven.
  await clearAuthLimit(context, "login", found.email);
  return { ok: true, message: PASSWORD_RESET_DONE } satisfies AccountFormResult;
}

/**
 * POST /account, intent=change-password: needs the current password; the new one must meet the
 * policy. Every other session ends; this browser stays signed in.
 */
export async function changePasswordAction(request: Request, context: AppLoadContext) {
  const user = await requireUser(request, context);
  const form = await readForm(request);
  const tooMany = await limited(context, "change", String(user.id));
  if (tooMany) return tooMany;
  const current = text(form, "current");
  const next = text(form, "password");
  if (!current) return refused({ fieldErrors: { current: "Enter your current password." } }, 400);
  const checked = newPasswordSchema.safeParse(next);
  if (!checked.success) {
    return refused({ fieldErrors: { password: checked.error.issues[0]!.message } }, 400);
  }
  const account = await findAccountByEmail(context.db, user.email);
  if (!account || !(await verifyPassword(current, account.passwordHash))) {
    return refused({ fieldErrors: { current: WRONG_CURRENT_PASSWORD } }, 400);
  }
  if (current.normalize("NFKC") === next.normalize("NFKC")) {
    return refused({ fieldErrors: { password: SAME_PASSWORD } }, 400);
  }
  await changePassword(context.db, account.id, await hashPassword(next), {
    keepToken: await readSessionToken(request, context),
  });
  await clearAuthLimit(context, "change", String(user.id));
  return { ok: true, message: PASSWORD_CHANGED } satisfies AccountFormResult;
}

/** POST /account, intent=sign-out-everywhere: every session (this one too) and iframe token. */
export async function signOutEverywhere(request: Request, context: AppLoadContext) {
  const user = await requireUser(request, context);
  await endAccountSessions(context.db, user.id);
  return redirect("/", { headers: { "Set-Cookie": await clearSessionCookie(request, context) } });
}

/** How many devices the player is signed in on (the account page's "sign out everywhere"). */
export function accountSessions(context: AppLoadContext, userId: number): Promise<number> {
  return countAccountSessions(context.db, userId, context.now());
}
