import { z } from "zod";
import {
  LEAGUE_NAME_MAX,
  PASSWORD_MAX,
  PASSWORD_MIN,
  USERNAME_MAX,
  USERNAME_MIN,
} from "./constants.js";

/** The spec's message for a missing e-mail or password. */
export const CREDENTIALS_REQUIRED = "Email and password are required";

/** Lower-cased, trimmed e-mail: the one form stored and compared. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

// `abort: true` on the "required" checks: an empty field reports only the required message,
// not also the length or format rules that follow.
const requiredEmail = z
  .string({ error: CREDENTIALS_REQUIRED })
  .trim()
  .min(1, { error: CREDENTIALS_REQUIRED, abort: true })
  .max(254, "That e-mail address is too long.")
  .pipe(z.email({ error: "Enter a valid e-mail address." }))
  .transform(normalizeEmail);

const requiredPassword = z
  .string({ error: CREDENTIALS_REQUIRED })
  .min(1, { error: CREDENTIALS_REQUIRED, abort: true })
  .max(PASSWORD_MAX, `Use at most ${PASSWORD_MAX} characters.`);

export const logInSchema = z.object({
  email: requiredEmail,
  password: requiredPassword,
});
export type LogInInput = z.infer<typeof logInSchema>;

export const usernameSchema = z
  .string({ error: "Choose a username." })
  .trim()
  .min(1, { error: "Choose a username.", abort: true })
  .min(USERNAME_MIN, `Usernames have at least ${USERNAME_MIN} characters.`)
  .max(USERNAME_MAX, `Usernames have at most ${USERNAME_MAX} characters.`)
  .regex(/^[A-Za-z0-9_.-]+$/, "Use letters, digits, dots, dashes and underscores only.");

export const signUpSchema = z.object({
  username: usernameSchema,
  email: requiredEmail,
  password: requiredPassword.refine((p) => p.length >= PASSWORD_MIN, {
    message: `Use at least ${PASSWORD_MIN} characters for your password.`,
  }),
});
export type SignUpInput = z.infer<typeof signUpSchema>;

export const leagueNameSchema = z
  .string({ error: "Give your league a name." })
  .trim()
  .min(1, { error: "Give your league a name.", abort: true })
  .max(LEAGUE_NAME_MAX, `League names have at most ${LEAGUE_NAME_MAX} characters.`);

export const inviteEmailSchema = z
  .string({ error: "Enter your guest's e-mail address." })
  .trim()
  .min(1, { error: "Enter your guest's e-mail address.", abort: true })
  .max(254, "That e-mail address is too long.")
  .pipe(z.email({ error: "Enter a valid e-mail address." }))
  .transform(normalizeEmail);

/** A list of racer ids as sent by the team form (strings or numbers). */
export const teamSelectionSchema = z
  .array(z.coerce.number().int().positive())
  .max(32, "Too many riders.");

/** First message of a zod error, for one-line answers. */
export function firstIssue(error: z.ZodError): string {
  return error.issues[0]?.message ?? "Invalid input.";
}
