/**
 * A connection lost in the middle of a run (the server restarted, the network dropped, the app
 * serving the embedded database stopped): was anything written? PostgreSQL rolls back a
 * transaction whose connection goes before its COMMIT, so the answer depends on what was in
 * flight. `trackWrites` keeps that account for a postgres-js client; the CLI reports it
 * (docs/decisions/0154).
 */
import type { Sql } from "postgres";

/** What this client has written, as far as its answers tell. */
export interface WriteLog {
  /** Transactions committed, and single writing statements answered, so far. */
  committed: number;
  /** A transaction was open, its COMMIT not sent, when the connection went: rolled back. */
  rolledBack: boolean;
  /**
   * A COMMIT, or a writing statement outside a transaction, was sent and the connection went
   * before its answer: the server may or may not have applied it.
   */
  unsure: boolean;
}

export const emptyWriteLog = (): WriteLog => ({ committed: 0, rolledBack: false, unsure: false });

/** Driver codes of a connection that went away, or could not be made again mid-run. */
const LOST_CODES = new Set([
  "CONNECTION_CLOSED",
  "CONNECTION_DESTROYED",
  "CONNECTION_ENDED",
  "CONNECT_TIMEOUT",
  "ECONNRESET",
  "ECONNREFUSED",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
]);

/**
 * Whether `error` (or its cause: drizzle wraps the driver's error in its own) says the connection
 * to the database was lost: a driver or socket code above, or PostgreSQL ending the session
 * (57P01 admin shutdown or pg_terminate_backend, 57P02 crash shutdown, 57P03 cannot connect
 * now, class 08 connection exceptions).
 */
export function isConnectionLost(error: unknown): boolean {
  return connectionLossCode(error) !== undefined;
}

/** The code by which isConnectionLost knew it ("CONNECTION_CLOSED", "57P01"...), else undefined. */
export function connectionLossCode(error: unknown): string | undefined {
  for (let e = error, depth = 0; depth < 5; depth++) {
    if (typeof e !== "object" || e === null) return undefined;
    const code = (e as { code?: unknown }).code;
    if (
      typeof code === "string" &&
      (LOST_CODES.has(code) || /^57P0[123]$/.test(code) || /^08[0-9A-Z]{3}$/.test(code))
    ) {
      return code;
    }
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Codes of a connection that could not be made at all (as opposed to one that went away). */
export const UNREACHABLE_CODES: ReadonlySet<string> = new Set([
  "CONNECT_TIMEOUT",
  "ECONNREFUSED",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "57P03",
]);

/**
 * A statement that changes data or schema on its own (outside a transaction it commits by
 * itself). Reads, and transaction control (begin, commit: counted through `begin`), do not.
 */
export function writesData(statement: string): boolean {
  const text = statement.trimStart().toLowerCase();
  if (/^with\b/.test(text)) return /\b(insert|update|delete|merge)\b/.test(text);
  return /^(insert|update|delete|merge|truncate|create|alter|drop|copy|call|do|grant|revoke|comment|refresh|reindex|cluster|vacuum)\b/.test(
    text,
  );
}

type Settle = (value: unknown) => void;
interface SettledQuery {
  resolve: Settle;
  reject: Settle;
}

/**
 * Keeps `log` up to date for everything `client` runs (its own statements, and transactions
 * through `begin`; what runs inside a transaction belongs to the transaction). Changes only what
 * is observed, never what is sent.
 */
export function trackWrites(client: Sql, log: WriteLog): void {
  const unsafe = client.unsafe.bind(client);
  const begin = client.begin.bind(client) as (...args: unknown[]) => Promise<unknown>;

  // Statements outside a transaction commit on their own.
  (client as { unsafe: unknown }).unsafe = (statement: string, ...rest: unknown[]) => {
    const query = (unsafe as (...args: unknown[]) => unknown)(statement, ...rest);
    if (writesData(statement)) {
      const q = query as SettledQuery;
      const { resolve, reject } = q;
      q.resolve = (value) => {
        log.committed++;
        resolve(value);
      };
      q.reject = (error) => {
        if (isConnectionLost(error)) log.unsure = true;
        reject(error);
      };
    }
    return query;
  };

  // begin(fn) or begin(options, fn): the body resolving means its COMMIT is on its way.
  (client as { begin: unknown }).begin = (...args: unknown[]) => {
    const fn = args.pop() as (tx: unknown) => unknown;
    let committing = false;
    const body = async (tx: unknown) => {
      const run = fn(tx);
      const result = await (Array.isArray(run) ? Promise.all(run) : run);
      committing = true;
      return result;
    };
    return begin(...args, body).then(
      (result) => {
        log.committed++;
        return result;
      },
      (error: unknown) => {
        if (isConnectionLost(error)) {
          if (committing) log.unsure = true;
          else log.rolledBack = true;
        }
        throw error;
      },
    );
  };
}
