/**
 * Recovering and managing an account: forgotten password (a one-hour, single-use link by e-mail),
 * setting a new one with that link, changing the password while signed in, and signing out
 * everywhere. Policy: decisions 0075 (password), 0076 (reset and sessions), 0077 (lock-out).
 */
import { newPasswordSchema } from "@game/core";
import {
  changePassword,
  countAccountSessions,
  endAccountSessions,
  findAccountByEmail,
  findPasswordReset,
  resetPassword,
} from "@game/db";
import { type AppLoadContext, data, redirect } from "@remix-run/node";
import { z } from "zod";
import { HONEYPOT_FIELD } from "~/features/auth/auth-result";
import { publicOrigin } from "~/features/leagues/paths.server";
import { requireUser } from "~/utils/auth.server";
import {
  BusyError,
  hashPassword,
  passwordsBusyMessage,
  verifyPassword,
} from "~/utils/password.server";
import {
  checkAuthLimit,
  clearAuthLimit,
  clientIp,
  tooManyAttemptsMessage,
} from "~/utils/rate-limit.server";
import { readForm } from "~/utils/request.server";
import { clearSessionCookie, readSessionToken } from "~/utils/session.server";
import {
  type AccountFormResult,
  PASSWORD_CHANGED,
  PASSWORD_RESET_LOGIN,
  RESET_LINK_INVALID,
  RESET_LINK_SENT,
  SAME_PASSWORD,
  WRONG_CURRENT_PASSWORD,
} from "./messages";
import { mailResetLinkLater } from "./reset-link.server";

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

/**
 * Every place in the queue of password hashes is taken: the form says when to try again (429
 * with Retry-After, docs/decisions/0150). Anything else is thrown on.
 */
function busy(error: unknown) {
  if (!(error instanceof BusyError)) throw error;
  const wait = error.retryAfterSeconds;
  return refused({ formError: passwordsBusyMessage(wait) }, 429, { "Retry-After": String(wait) });
}

/**
 * POST /forgot-password. The answer is the same whether or not an account uses the e-mail, and
 * so is the work done before it: the account is looked up and mailed after the response
 * (reset-link.server.ts). The mail goes only to an existing account, at most
 * RESET_MAILS_PER_EMAIL an hour (past that the links already sent still work). Limited per
 * client with a 429.
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
  mailResetLinkLater(context, email, publicOrigin(request, context));
  return { ok: true, message: RESET_LINK_SENT, values } satisfies AccountFormResult;
}

/** GET /reset-password?token=...: whether the link is still good (nothing is used up here). */
export async function resetPasswordLoader(request: Request, context: AppLoadContext) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const found = await findPasswordReset(context.db, token, context.now());
  if (!found) return data({ valid: false as const, token: null }, { status: 400 });
  return { valid: true as const, token };
}

/** POST /reset-password: the new password, with the token from the link; then on to log in. */
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
  const passwordHash = await hashPassword(checked.data, undefined, {
    client: clientIp(context),
  }).catch(busy);
  if (typeof passwordHash !== "string") return passwordHash;
  const done = await resetPassword(context.db, token, passwordHash, { now: context.now() });
  if (!done) return refused({ formError: RESET_LINK_INVALID }, 400);
  // The owner proved control of the mailbox: their own mistakes from here are forgiven.
  await clearAuthLimit(context, "login", found.email);
  // On to log in, where the page says the password changed: this page's link is used up now,
  // so staying here would answer its reload (and Remix's revalidation) with a dead link's 400.
  return redirect(PASSWORD_RESET_LOGIN, 303);
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
  const client = { client: clientIp(context) };
  const matches = account
    ? await verifyPassword(current, account.passwordHash, client).catch(busy)
    : false;
  if (typeof matches !== "boolean") return matches;
  if (!account || !matches) {
    return refused({ fieldErrors: { current: WRONG_CURRENT_PASSWORD } }, 400);
  }
  if (current.normalize("NFKC") === next.normalize("NFKC")) {
    return refused({ fieldErrors: { password: SAME_PASSWORD } }, 400);
  }
  const passwordHash = await hashPassword(next, undefined, client).catch(busy);
  if (typeof passwordHash !== "string") return passwordHash;
  await changePassword(context.db, account.id, passwordHash, {
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
