/**
 * The login and sign-up check, one schema for the browser and the server. The server runs it on
 * every post; the browser loads it when a visitor first touches the form (`auth-form.tsx`), not
 * with every page, since every page has the login dialog (docs/decisions/0164).
 */
import { CREDENTIALS_REQUIRED, logInSchema, signUpSchema } from "@game/core/schemas";
import { fieldErrors } from "~/utils/field-errors";
import type { AuthMode, AuthResult } from "./auth-result";

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
