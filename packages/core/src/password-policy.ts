/**
 * The rules for a new password (sign-up, reset, change): length, not blank, not common. Length is
 * what makes a password strong, so there are no composition rules; instead the passwords attackers
 * try first are refused, with a message that says why.
 */
import { COMMON_PASSWORDS_TEXT } from "./common-passwords.js";
import { PASSWORD_MAX, PASSWORD_MIN } from "./constants.js";

export type PasswordProblem = "too-short" | "too-long" | "blank" | "pattern" | "common";

export const PASSWORD_MESSAGES: Record<PasswordProblem, string> = {
  "too-short": `Use at least ${PASSWORD_MIN} characters for your password.`,
  "too-long": `Use at most ${PASSWORD_MAX} characters for your password.`,
  blank: "A password cannot be only spaces.",
  pattern: "One character repeated or a simple run like 0123456789 is too easy to guess.",
  common:
    "That password is on the list of common passwords attackers try first. Choose another one.",
};

let common: ReadonlySet<string> | undefined;

/** The shipped list of common passwords (lower-cased, NFC), read on first use. */
export function commonPasswords(): ReadonlySet<string> {
  common ??= new Set(COMMON_PASSWORDS_TEXT.split("\n"));
  return common;
}

/**
 * The length the rules count: Unicode code points of the NFC form, so "é" typed as one or as two
 * code points counts once, and an emoji counts as one character, not two UTF-16 units.
 */
export function passwordLength(password: string): number {
  let n = 0;
  for (const _ of password.normalize("NFC")) n += 1;
  return n;
}

/** One character repeated, or each code point one above (or below) the one before it. */
function isSimplePattern(chars: string[]): boolean {
  if (chars.length < 2) return false;
  const codes = chars.map((c) => c.codePointAt(0)!);
  const step = codes[1]! - codes[0]!;
  if (step !== 0 && step !== 1 && step !== -1) return false;
  return codes.every((c, i) => i === 0 || c - codes[i - 1]! === step);
}

/** What is wrong with a new password, or null when the rules accept it. */
export function passwordProblem(password: string): PasswordProblem | null {
  const normalized = password.normalize("NFC");
  const chars = [...normalized];
  if (chars.length > PASSWORD_MAX) return "too-long";
  if (normalized.trim() === "" && chars.length > 0) return "blank";
  if (chars.length < PASSWORD_MIN) return "too-short";
  if (isSimplePattern(chars)) return "pattern";
  if (commonPasswords().has(normalized.toLowerCase())) return "common";
  return null;
}

/** The message for what is wrong with a new password, or null when it is accepted. */
export function checkNewPassword(password: string): string | null {
  const problem = passwordProblem(password);
  return problem ? PASSWORD_MESSAGES[problem] : null;
}
