/**
 * Reading what a request carries, safely: every action reads its form through `readForm`, and
 * every id from a path, query or form goes through `parseId`/`requireId`. Bad input becomes a
 * 4xx answer here, before any of it reaches the database (which would answer a 500: ids past
 * PostgreSQL's integer range, text with NUL bytes, bodies that are not forms).
 */
import { parseRecordId } from "@game/core";

/** The usual answer to a body that is not a readable form (JSON, text, broken multipart). */
export const BAD_FORM = "The form could not be read. Please reload the page and try again.";
export const NOT_FOUND = "Not Found";

export { DB_INT_MAX } from "@game/core";

const FORM_TYPES = /^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i;

/** A 400 answer for the route's error boundary (or the data request). */
export function badRequest(message = BAD_FORM): Response {
  return new Response(message, {
    status: 400,
    headers: { "Content-Type": "text/plain; charset=utf-8" },
  });
}

export function notFound(message = NOT_FOUND): Response {
  return new Response(message, {
    status: 404,
    headers: { "Content-Type": "text/plain; charset=utf-8" },
  });
}

export function isFormRequest(request: Request): boolean {
  return FORM_TYPES.test(request.headers.get("Content-Type") ?? "");
}

/**
 * The request's form. Anything else (another content type, a body that does not parse, text
 * fields with NUL bytes) is thrown as a 400 with the usual message.
 */
export async function readForm(request: Request): Promise<FormData> {
  if (!isFormRequest(request)) throw badRequest();
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw badRequest();
  }
  for (const value of form.values()) {
    // PostgreSQL text cannot hold NUL; no field of ours has a use for one.
    if (typeof value === "string" && value.includes("\u0000")) throw badRequest();
  }
  return form;
}

/** A form field as text ("" when missing or a file). */
export function field(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
}

/** A row id (1..2^31-1) from a path, query or form value; null when it cannot name a row. */
export function parseId(value: unknown): number | null {
  return parseRecordId(typeof value === "string" ? value.trim() : value);
}

/** A row id from a path or query, or the page's ordinary 404. */
export function requireId(value: unknown): number {
  const id = parseId(value);
  if (id === null) throw notFound();
  return id;
}
