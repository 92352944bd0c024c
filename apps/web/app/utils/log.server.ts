/**
 * Server log lines for errors. One line per error, and never a player's data: database errors
 * carry the query's parameters (session-id hashes, e-mails) in their message, detail and
 * properties, so they are logged by their SQLSTATE code only; other messages have e-mail
 * addresses masked. A stack is added only for errors that look like bugs in our own code.
 */

const EMAIL = /[^\s@"'<>()]+@[^\s@"'<>()]+\.[^\s@"'<>()]+/g;
const MAX_MESSAGE = 300;

interface DbErrorLike {
  code: string;
  constraint?: string;
}

/** PostgreSQL (postgres-js) and PGlite errors carry a five-character SQLSTATE and a severity. */
function asDbError(error: unknown): DbErrorLike | null {
  if (!error || typeof error !== "object") return null;
  const e = error as { code?: unknown; severity?: unknown; constraint?: unknown };
  if (typeof e.code === "string" && /^[0-9A-Z]{5}$/.test(e.code) && "severity" in e) {
    return {
      code: e.code,
      constraint: typeof e.constraint === "string" ? e.constraint : undefined,
    };
  }
  return null;
}

/** Drizzle's wrapper: its message is the SQL text and the parameters. */
function isQueryError(error: unknown): boolean {
  return (
    error instanceof Error &&
    "query" in error &&
    ("params" in error || "parameters" in error || error.message.startsWith("Failed query:"))
  );
}

/** The error and its causes, outermost first (bounded, in case of a cycle). */
function chain(error: unknown): unknown[] {
  const out: unknown[] = [];
  let current: unknown = error;
  while (current && out.length < 5) {
    out.push(current);
    current = current instanceof Error ? current.cause : undefined;
  }
  return out;
}

/** Masks e-mail addresses and folds the text onto one short line. */
export function scrub(text: string): string {
  const line = text.replace(EMAIL, "<email>").replace(/\s+/g, " ").trim();
  return line.length > MAX_MESSAGE ? `${line.slice(0, MAX_MESSAGE)}…` : line;
}

/** Whether the error came from the database (then nothing but its code may be logged). */
export function isDatabaseError(error: unknown): boolean {
  return chain(error).some((e) => asDbError(e) !== null || isQueryError(e));
}

/** One line naming the error, safe to log. */
export function describeError(error: unknown): string {
  const links = chain(error);
  for (const e of links) {
    const db = asDbError(e);
    if (db) return `database error ${db.code}${db.constraint ? ` (${db.constraint})` : ""}`;
  }
  if (links.some(isQueryError)) {
    // Failed in the driver, not the server (a closed connection, a timeout): its code names it.
    const code = links
      .map((e) => (e as { code?: unknown } | null)?.code)
      .find((c): c is string => typeof c === "string" && /^[A-Z][A-Z0-9_]{1,40}$/.test(c));
    return `database error (query failed${code ? `: ${code}` : ""})`;
  }
  if (error instanceof Error) return scrub(`${error.name}: ${error.message}`);
  if (error && typeof error === "object") {
    // Not an Error: its kind and keys say what it is; its values may be a player's data.
    const o = error as { type?: unknown; status?: unknown; init?: { status?: unknown } | null };
    const kind = typeof o.type === "string" ? o.type : (error.constructor?.name ?? "Object");
    const status = o.status ?? o.init?.status;
    return scrub(`${kind}${status ? ` ${String(status)}` : ""} {${Object.keys(error).join(", ")}}`);
  }
  return scrub(String(error));
}

/** An error that names a 4xx status (a refused request, such as an over-long body) is expected. */
function isClientError(error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === "number" && status >= 400 && status < 500;
}

/** The stack's frames only (its first line repeats the message, which is logged scrubbed). */
function frames(error: unknown): string {
  if (!(error instanceof Error) || !error.stack) return "";
  const lines = error.stack.split("\n").filter((l) => /^\s+at /.test(l));
  return lines.length ? `\n${lines.slice(0, 8).join("\n")}` : "";
}

/** One error as the server's structured log takes it (every field already safe to log). */
export interface ErrorLogEntry {
  where: string;
  error: string;
  /** Stack frames, for errors that look like bugs in our own code. */
  stack?: string;
  /** The request's id (`X-Request-Id`), when it happened in a request. */
  requestId?: string;
}

let sink: ((entry: ErrorLogEntry) => void) | null = null;

/**
 * Sends error logs to the server's JSON logger (production) instead of the console; null goes
 * back to the console. Set by server.js through the build's entry module.
 */
export function setErrorSink(next: ((entry: ErrorLogEntry) => void) | null): void {
  sink = next;
}

/**
 * Logs `where: <error>` on one line. Unexpected errors outside the database also get their stack
 * frames (without the message), which is what a bug report needs.
 */
export function logError(
  where: string,
  error: unknown,
  opts: { expected?: boolean; requestId?: string } = {},
) {
  const stack =
    opts.expected || isClientError(error) || isDatabaseError(error) ? "" : frames(error);
  if (sink) {
    const entry: ErrorLogEntry = { where: scrub(where), error: describeError(error) };
    if (stack) entry.stack = stack.trim();
    if (opts.requestId) entry.requestId = scrub(opts.requestId);
    sink(entry);
    return;
  }
  console.error(`${scrub(where)}: ${describeError(error)}${stack}`);
}

/**
 * One line for an admin that is not a bug of ours (the database out of disk space): `where:
 * message`, through the same sink as errors. The message must already be safe to log.
 */
export function logNotice(where: string, message: string) {
  if (sink) {
    sink({ where: scrub(where), error: scrub(message) });
    return;
  }
  console.error(`${scrub(where)}: ${scrub(message)}`);
}
