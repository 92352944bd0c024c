/**
 * What the login and sign-up forms say, in the browser and on the server. The check itself
 * (`auth-validation.ts`) is apart: it carries zod, the name rules and the common-password list,
 * which the browser fetches only once a visitor starts on the form (docs/decisions/0164).
 */

/** The two faces of the login modal (and of the /login and /signup pages). */
export type AuthMode = "login" | "signup";
export type AuthField = "username" | "email" | "password";

/**
 * The page of each mode: where the form posts, and where it lives without JavaScript. Here, not
 * beside the form: the header links to it on every page, and the form is fetched apart.
 */
export function authPath(mode: AuthMode, redirectTo?: string | null): string {
  const path = mode === "login" ? "/login" : "/signup";
  return redirectTo ? `${path}?redirectTo=${encodeURIComponent(redirectTo)}` : path;
}

/** What a failed login or sign-up answers, shown by the form next to the fields. */
export interface AuthResult {
  mode: AuthMode;
  /** A message about the whole attempt (shown above the fields). */
  formError?: string;
  fieldErrors?: Partial<Record<AuthField, string>>;
  /** What the player typed (never the password), to fill the form again. */
  values?: { username?: string; email?: string };
}

/** Wrong password and unknown e-mail get this one answer: it reveals no account. */
export const WRONG_CREDENTIALS = "Wrong e-mail or password.";
export const NO_PROFILE = "No user profile found. Contact admin.";
export const NOT_ACCEPTED = "Account not accepted yet. Please contact admin.";
export const EMAIL_TAKEN = "An account with this e-mail already exists. Log in instead.";
export const USERNAME_TAKEN = "That username is taken. Try another one.";

/** The name of the honeypot field: people never see it, form-filling bots do. */
export const HONEYPOT_FIELD = "leave_blank";
