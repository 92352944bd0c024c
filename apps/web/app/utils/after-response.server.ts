/**
 * Work a request starts but its answer must not wait for, nor reveal: the reset mail, whose
 * lookups and SMTP delivery would tell whether an account exists (decision 0152). The server
 * starts it once the response is sent (`context.afterResponse`); a hand-built context (tests)
 * starts it on the next turn of the event loop, after the action has answered.
 *
 * A few run at once and a bounded number wait: past that the work is dropped and logged, so a
 * flood of requests costs no more memory than the bound. Shutdown waits for what is queued
 * (`context.onClose`, before the database closes).
 */
import type { Db } from "@game/db";
import type { AppLoadContext } from "@remix-run/node";
import { logError } from "./log.server";

/** Pieces of work running at once (each mostly waits on the database or a mail server). */
export const AFTER_RESPONSE_CONCURRENCY = 4;
/** Pieces queued or running; more are dropped (the mail is lost, the answer was the same). */
export const AFTER_RESPONSE_MAX_QUEUED = 1000;

const pending = new Set<Promise<void>>();
const waiting: Array<() => void> = [];
let running = 0;
/** Databases whose shutdown already waits for this queue. */
const drainedAtClose = new WeakSet<Db>();

async function inTurn(work: () => Promise<void>): Promise<void> {
  if (running >= AFTER_RESPONSE_CONCURRENCY) await new Promise<void>((r) => waiting.push(r));
  else running++;
  try {
    await work();
  } finally {
    // A finished piece hands its place straight to the next one.
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

/**
 * Runs `work` after the response to this request is sent. Never throws, and the request never
 * learns how the work went: failures are logged under `label`.
 */
export function afterResponse(
  context: AppLoadContext,
  label: string,
  work: () => Promise<void>,
): void {
  if (pending.size >= AFTER_RESPONSE_MAX_QUEUED) {
    logError(`${label}: dropped`, new Error(`${pending.size} pieces of work already queued`), {
      expected: true,
    });
    return;
  }
  if (context.onClose && !drainedAtClose.has(context.db)) {
    drainedAtClose.add(context.db);
    context.onClose(afterResponseSettled);
  }
  let start!: () => void;
  const started = new Promise<void>((resolve) => {
    start = resolve;
  });
  const done: Promise<void> = started
    .then(() => inTurn(work))
    .catch((error) => logError(label, error))
    .finally(() => pending.delete(done));
  pending.add(done);
  if (context.afterResponse) context.afterResponse(start);
  else setImmediate(start);
}

/** Resolves once every piece of work queued so far (and any it queued) has finished. */
export async function afterResponseSettled(): Promise<void> {
  while (pending.size > 0) await Promise.allSettled([...pending]);
}

/** Pieces queued or running now (tests). */
export function afterResponseQueued(): number {
  return pending.size;
}
