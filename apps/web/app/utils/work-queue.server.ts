/**
 * A small queue for expensive work (password hashes, CSV imports): at most `concurrency` pieces
 * run at once, at most `maxWaiting` wait, and one client holds at most `perKey` places. Past
 * that the work is refused at once with BusyError, whose Retry-After is this queue's own
 * estimate, so a burst is answered 429/503 in milliseconds instead of everyone waiting behind it
 * (docs/decisions/0150-abuse-proof-load.md).
 */

/** The queue is full (or the client already holds its share): try again in a few seconds. */
export class BusyError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super(`Busy: try again in ${retryAfterSeconds} s`);
    this.name = "BusyError";
  }
}

export interface WorkQueueOptions {
  /** Pieces of work running at once (1 or more). */
  concurrency: number;
  /** Pieces waiting for a turn (0: refuse whenever all are running). */
  maxWaiting: number;
  /** Places (running or waiting) one key (a client address) may hold. Unlimited if absent. */
  perKey?: number;
  /** What one piece usually takes, until the queue has timed some itself. */
  typicalMs: number;
  /** The clock (tests). */
  now?: () => number;
}

export interface WorkQueue {
  /** Runs `work` when its turn comes; throws BusyError at once when there is no place. */
  run<T>(work: () => Promise<T>, opts?: { key?: string }): Promise<T>;
  readonly running: number;
  readonly waiting: number;
  /** True when the next piece of work would be refused. */
  readonly full: boolean;
  /** True when work for `key` would be refused now (full, or the key holds its share). */
  refuses(key?: string): boolean;
  /** Seconds until a place is likely free (1 at least). */
  retryAfterSeconds(): number;
}

export function createWorkQueue(options: WorkQueueOptions): WorkQueue {
  const concurrency = Math.max(1, Math.floor(options.concurrency));
  const maxWaiting = Math.max(0, Math.floor(options.maxWaiting));
  const perKey = options.perKey ?? Number.POSITIVE_INFINITY;
  const now = options.now ?? (() => performance.now());
  /** Moving mean of how long a piece takes, so Retry-After follows this machine. */
  let meanMs = options.typicalMs;
  let running = 0;
  const queue: Array<() => void> = [];
  const held = new Map<string, number>();

  const retryAfterSeconds = () => {
    const rounds = (running + queue.length) / concurrency;
    return Math.max(1, Math.ceil((rounds * meanMs) / 1000));
  };

  const release = (key: string | undefined) => {
    if (key === undefined) return;
    const n = (held.get(key) ?? 1) - 1;
    if (n > 0) held.set(key, n);
    else held.delete(key);
  };

  /** A finished piece hands its place straight to the first waiting one. */
  const finish = () => {
    const waiter = queue.shift();
    if (waiter) waiter();
    else running--;
  };

  return {
    async run<T>(work: () => Promise<T>, opts: { key?: string } = {}): Promise<T> {
      const key = opts.key;
      if (key !== undefined && (held.get(key) ?? 0) >= perKey) {
        throw new BusyError(retryAfterSeconds());
      }
      const wait = running >= concurrency;
      if (wait && queue.length >= maxWaiting) throw new BusyError(retryAfterSeconds());
      if (key !== undefined) held.set(key, (held.get(key) ?? 0) + 1);
      if (wait) await new Promise<void>((resolve) => queue.push(resolve));
      else running++;
      const started = now();
      try {
        return await work();
      } finally {
        meanMs = meanMs * 0.8 + (now() - started) * 0.2;
        release(key);
        finish();
      }
    },
    get running() {
      return running;
    },
    get waiting() {
      return queue.length;
    },
    get full() {
      return running >= concurrency && queue.length >= maxWaiting;
    },
    refuses(key?: string) {
      if (key !== undefined && (held.get(key) ?? 0) >= perKey) return true;
      return running >= concurrency && queue.length >= maxWaiting;
    },
    retryAfterSeconds,
  };
}
