import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from "node:crypto";
import { availableParallelism } from "node:os";
import { BusyError, createWorkQueue } from "./work-queue.server";

/**
 * scrypt at the cost OWASP recommends for interactive logins: N=2^17, r=8, p=1 (128 MiB and a
 * few hundred milliseconds per hash). Stored self-describing, `scrypt$N$r$p$salt$hash` (salt and
 * hash in base64url), so the cost can be raised later without breaking stored hashes.
 */
export const SCRYPT_PARAMS = { N: 2 ** 17, r: 8, p: 1 } as const;
const SALT_BYTES = 16;
const KEY_BYTES = 64;

interface Params {
  N: number;
  r: number;
  p: number;
}

/**
 * Every hash of the process takes its turn here (docs/decisions/0150-abuse-proof-load.md). scrypt
 * runs on libuv's thread pool (4 threads), which file reads, compression and DNS need too: a
 * burst of failed logins once held all four and stalled every page, /healthz included. So at
 * most one hash runs at a time (two on machines with more than two cores), eight wait, and one
 * client holds at most two places; anything more is answered 429 at once with Retry-After.
 */
export const passwordWork = createWorkQueue({
  concurrency: Math.max(1, Math.min(2, availableParallelism() - 1)),
  maxWaiting: 8,
  perKey: 2,
  typicalMs: 1000,
});

export { BusyError };

/** What a player sees when every password check is taken: when to try again. */
export function passwordsBusyMessage(retryAfterSeconds: number): string {
  const wait = retryAfterSeconds <= 1 ? "a second" : `${retryAfterSeconds} seconds`;
  return `Too many sign-ins at this moment. Please wait ${wait} and try again.`;
}

/** Whose turn a hash takes: the client's address, so one client cannot take every place. */
export interface HashOptions {
  client?: string;
}

function derive(
  password: string,
  salt: Buffer,
  params: Params,
  opts: HashOptions = {},
): Promise<Buffer> {
  const options: ScryptOptions = {
    ...params,
    // Node refuses anything above 32 MiB by default; scrypt needs 128 * N * r * p bytes.
    maxmem: 256 * params.N * params.r * params.p,
  };
  return passwordWork.run(
    () =>
      new Promise<Buffer>((resolve, reject) => {
        scrypt(password.normalize("NFKC"), salt, KEY_BYTES, options, (error, key) =>
          error ? reject(error) : resolve(key),
        );
      }),
    { key: opts.client },
  );
}

/** Throws BusyError when every place in the queue of hashes is taken. */
export async function hashPassword(
  password: string,
  params: Params = SCRYPT_PARAMS,
  opts: HashOptions = {},
) {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, params, opts);
  return [
    "scrypt",
    params.N,
    params.r,
    params.p,
    salt.toString("base64url"),
    key.toString("base64url"),
  ].join("$");
}

function parse(stored: string): { params: Params; salt: Buffer; key: Buffer } | null {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return null;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  const valid = (n: number, max: number) => Number.isSafeInteger(n) && n > 0 && n <= max;
  // Bounds keep a tampered row from asking for gigabytes of memory.
  if (!valid(N, 2 ** 20) || (N & (N - 1)) !== 0 || !valid(r, 32) || !valid(p, 16)) return null;
  const salt = Buffer.from(parts[4]!, "base64url");
  const key = Buffer.from(parts[5]!, "base64url");
  if (salt.length < 8 || key.length < 16) return null;
  return { params: { N, r, p }, salt, key };
}

/**
 * Constant-time check of `password` against a stored hash; false for anything unreadable.
 * Throws BusyError when every place in the queue of hashes is taken.
 */
export async function verifyPassword(
  password: string,
  stored: string,
  opts: HashOptions = {},
): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed) return false;
  const key = await derive(password, parsed.salt, parsed.params, opts);
  return key.length === parsed.key.length && timingSafeEqual(key, parsed.key);
}

/** True when the hash was made at a lower cost than today's (re-hash it at the next login). */
export function needsRehash(stored: string): boolean {
  const parsed = parse(stored);
  if (!parsed) return true;
  const { N, r, p } = parsed.params;
  return N < SCRYPT_PARAMS.N || r < SCRYPT_PARAMS.r || p < SCRYPT_PARAMS.p;
}

/**
 * A stored hash of today's cost that no password matches: a random key under a random salt
 * (checking against it costs what a real check costs; making it costs nothing).
 */
const dummy = [
  "scrypt",
  SCRYPT_PARAMS.N,
  SCRYPT_PARAMS.r,
  SCRYPT_PARAMS.p,
  randomBytes(SALT_BYTES).toString("base64url"),
  randomBytes(KEY_BYTES).toString("base64url"),
].join("$");

/**
 * Checks the password against a throw-away hash of the same cost, so a login with an unknown
 * e-mail takes as long as one with a wrong password and does not reveal which accounts exist.
 * Throws BusyError like verifyPassword (a busy answer reveals nothing either).
 */
export async function burnPasswordCheck(password: string, opts: HashOptions = {}): Promise<false> {
  await verifyPassword(password, dummy, opts);
  return false;
}
