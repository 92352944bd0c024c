import { hit, resetLimit } from "@game/db";
import type { AppLoadContext } from "@remix-run/node";

const MINUTE = 60_000;

/**
 * Attempts allowed per window, by what they are counted against: `pair` is the e-mail (or account)
 * together with the client's IP, `ip` the client alone, `email` the e-mail alone.
 *
 * Login locks the e-mail only together with the client (0077): an attacker guessing a player's
 * password from their own address locks out only themselves, never the player. The per-IP limit is
 * looser, because a school or an office shares one address.
 */
export const AUTH_LIMITS = {
  login: {
    pair: { limit: 10, windowMs: 15 * MINUTE },
    ip: { limit: 30, windowMs: 15 * MINUTE },
  },
  signup: {
    email: { limit: 10, windowMs: 60 * MINUTE },
    ip: { limit: 20, windowMs: 60 * MINUTE },
  },
  /** Asking for reset e-mails, per client (the per-address budget is RESET_MAILS_PER_EMAIL). */
  forgot: {
    ip: { limit: 10, windowMs: 60 * MINUTE },
  },
  /** Setting a password with a reset link (each costs a password hash). */
  reset: {
    ip: { limit: 20, windowMs: 60 * MINUTE },
  },
  /** Changing the password checks the current one: guessing it is limited like a login. */
  change: {
    pair: { limit: 10, windowMs: 15 * MINUTE },
  },
} as const;

export type AuthAction = keyof typeof AUTH_LIMITS;

/**
 * Reset e-mails one address receives per hour (no mail-bombing a player). Past it the request is
 * answered as usual but no mail goes: the links already sent still work, so someone asking in the
 * owner's name cannot keep the owner from resetting (0077).
 */
export const RESET_MAILS_PER_EMAIL = { limit: 3, windowMs: 60 * MINUTE } as const;

/** Counts one reset e-mail to `email`; false when its hourly budget is spent. */
export async function takeResetMail(context: AppLoadContext, email: string): Promise<boolean> {
  const key = limitKey("forgot", "email", email);
  const r = await hit(context.db, key, { ...RESET_MAILS_PER_EMAIL, now: context.now() });
  return r.allowed;
}
export type LimitKind = "pair" | "ip" | "email";

export function clientIp(context: AppLoadContext): string {
  return context.clientIp || "unknown";
}

export function limitKey(action: AuthAction, kind: LimitKind, value: string): string {
  return `${action}:${kind}:${value}`;
}

/** The counter's key for one kind: the subject (e-mail or account), the IP, or both. */
function keyFor(context: AppLoadContext, action: AuthAction, kind: LimitKind, subject: string) {
  const ip = clientIp(context);
  const value = kind === "ip" ? ip : kind === "pair" ? `${subject}|${ip}` : subject;
  return limitKey(action, kind, value);
}

/**
 * Counts one attempt against every counter of the action (the client, the subject, or the pair).
 * Returns null when allowed, else the number of seconds to wait. All counters are always hit, so
 * spreading attempts over one side is still counted on the other.
 */
export async function checkAuthLimit(
  context: AppLoadContext,
  action: AuthAction,
  subject: string,
): Promise<number | null> {
  const now = context.now();
  const rules: Partial<Record<LimitKind, { limit: number; windowMs: number }>> =
    AUTH_LIMITS[action];
  const results = await Promise.all(
    (Object.keys(rules) as LimitKind[]).map((kind) =>
      hit(context.db, keyFor(context, action, kind, subject), { ...rules[kind]!, now }),
    ),
  );
  if (results.every((r) => r.allowed)) return null;
  return Math.max(...results.map((r) => r.retryAfterSeconds));
}

/** After a success, the subject's earlier mistakes from this client no longer count. */
export async function clearAuthLimit(context: AppLoadContext, action: AuthAction, subject: string) {
  const rules: Partial<Record<LimitKind, unknown>> = AUTH_LIMITS[action];
  for (const kind of ["pair", "email"] as const) {
    if (rules[kind]) await resetLimit(context.db, keyFor(context, action, kind, subject));
  }
}

/** "Too many attempts" in words a player can act on. */
export function tooManyAttemptsMessage(retryAfterSeconds: number): string {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  const wait = minutes <= 1 ? "a minute" : `${minutes} minutes`;
  return `Too many attempts. Please wait ${wait} and try again.`;
}
