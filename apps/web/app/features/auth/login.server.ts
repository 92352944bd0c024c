/**
 * Logging in, signing up and logging out: remix-auth's FormStrategy checks the form, the session
 * lives in the database behind an HttpOnly cookie (see session.server.ts).
 */
import {
  createAccount,
  DuplicateError,
  deleteSession,
  findAccountByEmail,
  getUserById,
  getUserByUsername,
  rotateSession,
  type UserRow,
  updatePasswordHash,
} from "@game/db";
import { type AppLoadContext, data, redirect } from "@remix-run/node";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { sendConfirmationMail } from "~/features/account/email-confirmation.server";
import { logError } from "~/utils/log.server";
import {
  BusyError,
  burnPasswordCheck,
  hashPassword,
  needsRehash,
  passwordsBusyMessage,
  passwordWork,
  verifyPassword,
} from "~/utils/password.server";
import {
  checkAuthLimit,
  clearAuthLimit,
  clientIp,
  tooManyAttemptsMessage,
} from "~/utils/rate-limit.server";
import { readForm } from "~/utils/request.server";
import { safeRedirect } from "~/utils/safe-redirect";
import {
  clearSessionCookie,
  readSessionToken,
  serializeSessionToken,
} from "~/utils/session.server";
import {
  type AuthMode,
  type AuthResult,
  EMAIL_TAKEN,
  HONEYPOT_FIELD,
  NO_PROFILE,
  NOT_ACCEPTED,
  USERNAME_TAKEN,
  WRONG_CREDENTIALS,
} from "./auth-result";
import { validateAuthForm } from "./auth-validation";

/** Where a player lands after logging in when the form did not say (spec: /homepage). */
export const AFTER_LOGIN = "/homepage";

/** A refused attempt: the answer to show and its HTTP status. */
class AuthRefusal extends Error {
  constructor(
    readonly result: AuthResult,
    readonly status: number,
    readonly headers: HeadersInit = {},
  ) {
    super(result.formError ?? "refused");
  }
}

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
};

/** Bots fill every field; people never see this one. Refused without a word (nothing happens). */
function refuseBots(form: FormData) {
  if (text(form, HONEYPOT_FIELD) !== "") throw redirect("/");
}

function readFields(mode: AuthMode, form: FormData) {
  const fields = {
    email: text(form, "email"),
    password: text(form, "password"),
    ...(mode === "signup" ? { username: text(form, "username") } : {}),
  };
  const values = { email: fields.email.trim(), username: fields.username?.trim() };
  const checked = validateAuthForm(mode, fields);
  if (!checked.ok) throw new AuthRefusal({ ...checked.result, values }, 400);
  return { ...checked.data, values };
}

/**
 * Refuses at once, before any database work, an attempt the queue of hashes would refuse anyway:
 * a burst is answered as fast as it comes (nothing was checked, so nothing is counted).
 */
function refuseWhenBusy(context: AppLoadContext, mode: AuthMode, values: object) {
  if (!passwordWork.refuses(clientIp(context))) return;
  const wait = passwordWork.retryAfterSeconds();
  throw new AuthRefusal({ mode, formError: passwordsBusyMessage(wait), values }, 429, {
    "Retry-After": String(wait),
  });
}

async function limit(context: AppLoadContext, mode: AuthMode, email: string, values: object) {
  const wait = await checkAuthLimit(context, mode, email);
  if (wait !== null) {
    throw new AuthRefusal({ mode, formError: tooManyAttemptsMessage(wait), values }, 429, {
      "Retry-After": String(wait),
    });
  }
}

/**
 * Runs a password hash; when every place in the queue of hashes is taken, the form says when to
 * try again (429 with Retry-After) instead of making everyone wait (docs/decisions/0150).
 */
async function hashing<T>(mode: AuthMode, values: object, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof BusyError)) throw error;
    const wait = error.retryAfterSeconds;
    throw new AuthRefusal({ mode, formError: passwordsBusyMessage(wait), values }, 429, {
      "Retry-After": String(wait),
    });
  }
}

async function verifyLogin(context: AppLoadContext, form: FormData): Promise<UserRow> {
  refuseBots(form);
  const { email, password, values } = readFields("login", form);
  refuseWhenBusy(context, "login", values);
  await limit(context, "login", email, values);
  const refuse = (formError: string, status: number): never => {
    throw new AuthRefusal({ mode: "login", formError, values }, status);
  };

  const account = await findAccountByEmail(context.db, email);
  // Unknown e-mail: spend the same time as a real check, answer exactly like a wrong password.
  const client = { client: clientIp(context) };
  const ok = await hashing("login", values, () =>
    account
      ? verifyPassword(password, account.passwordHash, client)
      : burnPasswordCheck(password, client),
  );
  if (!account || !ok) return refuse(WRONG_CREDENTIALS, 401);

  // Only someone who knows the password learns about the profile's state.
  const user = await getUserById(context.db, account.id);
  if (!user) return refuse(NO_PROFILE, 403);
  if (!user.accepted) return refuse(NOT_ACCEPTED, 403);

  if (needsRehash(account.passwordHash)) {
    // A busy moment only postpones the upgrade to the next login.
    const upgraded = await hashPassword(password, undefined, client).catch((error: unknown) => {
      if (error instanceof BusyError) return null;
      throw error;
    });
    if (upgraded) await updatePasswordHash(context.db, account.id, upgraded);
  }
  await clearAuthLimit(context, "login", email);
  return user;
}

async function verifySignUp(context: AppLoadContext, form: FormData): Promise<UserRow> {
  refuseBots(form);
  const { email, password, username, values } = readFields("signup", form);
  refuseWhenBusy(context, "signup", values);
  await limit(context, "signup", email, values);

  const taken = (fieldErrors: AuthResult["fieldErrors"]) =>
    new AuthRefusal({ mode: "signup", fieldErrors, values }, 409);
  const [emailTaken, nameTaken] = await Promise.all([
    findAccountByEmail(context.db, email),
    getUserByUsername(context.db, username!),
  ]);
  if (emailTaken || nameTaken) {
    throw taken({
      ...(emailTaken ? { email: EMAIL_TAKEN } : {}),
      ...(nameTaken ? { username: USERNAME_TAKEN } : {}),
    });
  }
  try {
    const passwordHash = await hashing("signup", values, () =>
      hashPassword(password, undefined, { client: clientIp(context) }),
    );
    return await createAccount(context.db, { email, username: username!, passwordHash });
  } catch (error) {
    // Someone took the e-mail or name between the check above and the insert.
    if (error instanceof DuplicateError) {
      throw taken({ [error.field]: error.field === "email" ? EMAIL_TAKEN : USERNAME_TAKEN });
    }
    throw error;
  }
}

/**
 * One authenticator per request: its strategies close over the request's context (database,
 * clock, client IP). remix-auth v4 keeps no session of its own; ours is started below.
 */
function authenticator(context: AppLoadContext) {
  return new Authenticator<UserRow>()
    .use(new FormStrategy(({ form }) => verifyLogin(context, form)), "login")
    .use(new FormStrategy(({ form }) => verifySignUp(context, form)), "signup");
}

/**
 * Signs the player in with a brand-new session (the one the browser had before, if any, is
 * deleted) and sends them on.
 */
async function startSession(
  request: Request,
  context: AppLoadContext,
  user: UserRow,
  to: string,
): Promise<Response> {
  const { token } = await rotateSession(context.db, user.id, {
    previousToken: await readSessionToken(request, context),
    now: context.now(),
    userAgent: request.headers.get("User-Agent"),
  });
  return redirect(to, {
    headers: { "Set-Cookie": await serializeSessionToken(request, context, token) },
  });
}

/**
 * A new account's address is confirmed by the link this mails (decision 0151). A failed send
 * never fails the sign-up: the pages that wait for the confirmation offer to send it again.
 */
async function mailConfirmationLink(
  request: Request,
  context: AppLoadContext,
  user: UserRow,
  next: string,
) {
  try {
    await sendConfirmationMail(request, context, user, next === AFTER_LOGIN ? "" : next);
  } catch (error) {
    logError(`sign-up ${user.id}: the confirmation e-mail could not be sent`, error);
  }
}

/**
 * The action behind the login and sign-up forms (modal or page, with or without JavaScript):
 * a redirect on success, the form's errors with a 4xx status otherwise.
 */
export async function authAction(mode: AuthMode, request: Request, context: AppLoadContext) {
  const form = await readForm(request.clone());
  const to = safeRedirect(form.get("redirectTo"), AFTER_LOGIN);
  try {
    const user = await authenticator(context).authenticate(mode, request);
    if (mode === "signup") await mailConfirmationLink(request, context, user, to);
    return await startSession(request, context, user, to);
  } catch (error) {
    if (error instanceof AuthRefusal) {
      return data(error.result, { status: error.status, headers: error.headers });
    }
    throw error;
  }
}

/** Ends the session in the database (the cookie alone is worthless afterwards) and goes home. */
export async function logout(request: Request, context: AppLoadContext): Promise<Response> {
  const token = await readSessionToken(request, context);
  if (token) await deleteSession(context.db, token);
  return redirect("/", {
    headers: { "Set-Cookie": await clearSessionCookie(request, context) },
  });
}
