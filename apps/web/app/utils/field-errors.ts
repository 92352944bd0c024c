/**
 * Every form parses through one zod schema; this turns its errors into what the form shows: the
 * first message per field (keyed by the field's name), and `form` for a message about the whole
 * form. One helper for the admin, league and sign-in forms, in the browser and on the server
 * (docs/decisions/0121).
 */
import type { z } from "zod";

/**
 * The first message per field. Issues without a field, and those whose message is one of
 * `formMessages` (a rule about several fields together), go under `form`.
 */
export function fieldErrors(
  error: z.ZodError,
  options: { formMessages?: readonly string[] } = {},
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = issue.path[0];
    const key =
      field === undefined || options.formMessages?.includes(issue.message) ? "form" : String(field);
    out[key] ??= issue.message;
  }
  return out;
}
