import { z } from "zod";
import { LEAGUE_NAME_MAX, PASSWORD_MAX, USERNAME_MAX, USERNAME_MIN } from "./constants.js";
import { NAME_MESSAGES, type NameKind } from "./name-messages.js";
import { nameProblem } from "./names.js";
import { checkNewPassword, PASSWORD_MESSAGES, passwordLength } from "./password-policy.js";

// The name rules (usernames, league names) travel with the schemas that apply them.
export * from "./names.js";

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

// Counted in code points (as the policy counts), so a long passphrase of emoji still logs in.
const requiredPassword = z
  .string({ error: CREDENTIALS_REQUIRED })
  .min(1, { error: CREDENTIALS_REQUIRED, abort: true })
  .refine((p) => passwordLength(p) <= PASSWORD_MAX, {
    error: PASSWORD_MESSAGES["too-long"],
    abort: true,
  });

/** A password being chosen (sign-up, reset, change): the policy in password-policy.ts. */
export const newPasswordSchema = requiredPassword.superRefine((p, ctx) => {
  const problem = checkNewPassword(p);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});

export const logInSchema = z.object({
  email: requiredEmail,
  password: requiredPassword,
});
export type LogInInput = z.infer<typeof logInSchema>;

/** The rules every name other players read follows (names.ts, decision 0152), as a refinement. */
function nameRule(kind: NameKind) {
  return (name: string, ctx: z.RefinementCtx) => {
    const problem = nameProblem(name, kind);
    if (problem) ctx.addIssue({ code: "custom", message: NAME_MESSAGES[kind][problem] });
  };
}

export const usernameSchema = z
  .string({ error: "Choose a username." })
  .trim()
  .min(1, { error: "Choose a username.", abort: true })
  .min(USERNAME_MIN, `Usernames have at least ${USERNAME_MIN} characters.`)
  .max(USERNAME_MAX, `Usernames have at most ${USERNAME_MAX} characters.`)
  .regex(/^[A-Za-z0-9_.-]+$/, {
    error: "Use letters, digits, dots, dashes and underscores only.",
    abort: true,
  })
  .superRefine(nameRule("username"));

export const signUpSchema = z.object({
  username: usernameSchema,
  email: requiredEmail,
  password: newPasswordSchema,
});
export type SignUpInput = z.infer<typeof signUpSchema>;

export const leagueNameSchema = z
  .string({ error: "Give your league a name." })
  .trim()
  .min(1, { error: "Give your league a name.", abort: true })
  .max(LEAGUE_NAME_MAX, `League names have at most ${LEAGUE_NAME_MAX} characters.`)
  .superRefine(nameRule("league"));

/** PostgreSQL's `integer`, the type of every id: a larger number names no row. */
export const DB_INT_MAX = 2_147_483_647;

/**
 * A row id as it arrives in a path, a query or a form field: digits only (no sign, exponent,
 * fraction or spaces), 1 to DB_INT_MAX. Numbers are accepted too, with the same range.
 */
export const recordIdSchema = z
  .union([z.string().regex(/^[0-9]{1,10}$/, "Not an id."), z.int()])
  .transform(Number)
  .pipe(z.int().min(1, "Not an id.").max(DB_INT_MAX, "Not an id."));

/** The id, or null when the value cannot name a row. */
export function parseRecordId(value: unknown): number | null {
  const parsed = recordIdSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

export const inviteEmailSchema = z
  .string({ error: "Enter your guest's e-mail address." })
  .trim()
  .min(1, { error: "Enter your guest's e-mail address.", abort: true })
  .max(254, "That e-mail address is too long.")
  .pipe(z.email({ error: "Enter a valid e-mail address." }))
  .transform(normalizeEmail);

/** A list of racer ids as sent by the team form (strings or numbers). */
export const teamSelectionSchema = z
  .array(z.coerce.number().int().positive().max(DB_INT_MAX))
  .max(32, "Too many riders.");

/** First message of a zod error, for one-line answers. */
export function firstIssue(error: z.ZodError): string {
  return error.issues[0]?.message ?? "Invalid input.";
}
