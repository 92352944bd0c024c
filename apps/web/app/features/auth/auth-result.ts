import { CREDENTIALS_REQUIRED, logInSchema, signUpSchema } from "@game/core";
import { fieldErrors } from "~/utils/field-errors";

/** The two faces of the login modal (and of the /login and /signup pages). */
export type AuthMode = "login" | "signup";
export type AuthField = "username" | "email" | "password";

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

export const schemaFor = (mode: AuthMode) => (mode === "login" ? logInSchema : signUpSchema);

/**
 * Checks the fields with the one shared schema (the browser runs this before posting, the server
 * again on every post). The spec's "Email and password are required" is one message for the
 * form, whichever of the two is missing; other problems go next to their field.
 */
export function validateAuthForm(
  mode: AuthMode,
  fields: Record<string, unknown>,
):
  | { ok: true; data: { email: string; password: string; username?: string } }
  | {
      ok: false;
      result: AuthResult;
    } {
  const parsed = schemaFor(mode).safeParse(fields);
  if (parsed.success) return { ok: true, data: parsed.data };
  const { form, ...byField } = fieldErrors(parsed.error, { formMessages: [CREDENTIALS_REQUIRED] });
  const result: AuthResult = { mode, fieldErrors: byField };
  if (form) result.formError = form;
  return { ok: false, result };
}
