// Opening the database at start-up: PostgreSQL may still be starting (or briefly away), so
// connection failures are retried for a while with a clear line each, then the start fails with
// one line and no stack trace (docs/decisions/0071-outages-and-shutdown.md).

import { redactUrl } from "@game/db";

/** Errors that may go away by themselves: the server is down, starting, or unreachable. */
const TRANSIENT_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
  "ENOTFOUND",
  "CONNECT_TIMEOUT",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "57P03", // cannot_connect_now: the server is starting up
  "57P01", // admin_shutdown
  "53300", // too_many_connections
]);

/** What an error may carry: read without trusting its shape. */
interface ErrorLike {
  code?: unknown;
  cause?: unknown;
  errors?: unknown;
  message?: unknown;
}

/** A thrown value's `message` as text (`undefined` when it has none), for one-line reports. */
export function messageOf(error: unknown): string {
  return String((error as ErrorLike | null | undefined)?.message);
}

/** The error's code, looking through wrappers (drizzle's cause, Node's AggregateError). */
export function errorCode(error: unknown): string | undefined {
  let e = error as ErrorLike | null | undefined;
  for (let depth = 0; e && depth < 5; e = e.cause as ErrorLike | null | undefined, depth++) {
    if (typeof e.code === "string") return e.code;
    if (Array.isArray(e.errors) && e.errors[0]?.code) return e.errors[0].code;
  }
  return undefined;
}

export function isTransient(error: unknown): boolean {
  return TRANSIENT_CODES.has(errorCode(error) ?? "");
}

/** One line about an error: its code and first message line, never a stack or parameters. */
export function describeError(error: unknown): string {
  const code = errorCode(error);
  const message =
    String((error as ErrorLike | null | undefined)?.message || error || "unknown error").split(
      "\n",
    )[0] ?? "";
  if (!message || message === code) return code ?? "unknown error";
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}

/**
 * Calls `open` until it succeeds, a non-transient error occurs, or `timeoutMs` has passed
 * (waiting 1, 2, 4, 8, 8… s between attempts). Throws a StartError with a one-line message.
 */
export async function openWithRetry<T>(
  open: () => Promise<T>,
  opts: {
    url?: string;
    timeoutMs: number;
    log?: (line: string) => void;
    sleep?: (ms: number) => Promise<void>;
  },
): Promise<T> {
  const log = opts.log ?? ((line: string) => console.error(line));
  const sleep =
    opts.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const where = opts.url ? redactUrl(opts.url) : "the data folder";
  const started = Date.now();
  let delay = 1000;
  for (let attempt = 1; ; attempt++) {
    try {
      return await open();
    } catch (error) {
      if (!isTransient(error)) {
        throw new StartError(`Could not open the database (${where}): ${describeError(error)}`);
      }
      const left = opts.timeoutMs - (Date.now() - started);
      if (left <= 0) {
        const seconds = Math.round((Date.now() - started) / 1000);
        throw new StartError(
          `Database not reachable at ${where} after ${attempt} attempts in ${seconds} s (${describeError(error)}). Check DATABASE_URL and that PostgreSQL is running.`,
        );
      }
      const wait = Math.min(delay, left);
      log(
        `Database not reachable at ${where} (${describeError(error)}); retrying in ${Math.ceil(wait / 1000)} s (attempt ${attempt}).`,
      );
      await sleep(wait);
      delay = Math.min(delay * 2, 8000);
    }
  }
}

/** A start-up failure whose message is the whole story: printed as one line, no stack. */
export class StartError extends Error {
  override name = "StartError";
}
