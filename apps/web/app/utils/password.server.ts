import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from "node:crypto";

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

function derive(password: string, salt: Buffer, params: Params): Promise<Buffer> {
  const options: ScryptOptions = {
    ...params,
    // Node refuses anything above 32 MiB by default; scrypt needs 128 * N * r * p bytes.
    maxmem: 256 * params.N * params.r * params.p,
  };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize("NFKC"), salt, KEY_BYTES, options, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

export async function hashPassword(password: string, params: Params = SCRYPT_PARAMS) {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, params);
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

/** Constant-time check of `password` against a stored hash; false for anything unreadable. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed) return false;
  const key = await derive(password, parsed.salt, parsed.params);
  return key.length === parsed.key.length && timingSafeEqual(key, parsed.key);
}

/** True when the hash was made at a lower cost than today's (re-hash it at the next login). */
export function needsRehash(stored: string): boolean {
  const parsed = parse(stored);
  if (!parsed) return true;
  const { N, r, p } = parsed.params;
  return N < SCRYPT_PARAMS.N || r < SCRYPT_PARAMS.r || p < SCRYPT_PARAMS.p;
}

let dummy: Promise<string> | undefined;

/**
 * Checks the password against a throw-away hash of the same cost, so a login with an unknown
 * e-mail takes as long as one with a wrong password and does not reveal which accounts exist.
 */
export async function burnPasswordCheck(password: string): Promise<false> {
  dummy ??= hashPassword(randomBytes(16).toString("hex"));
  await verifyPassword(password, await dummy);
  return false;
}
