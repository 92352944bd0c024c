import { hit, resetLimit } from "@game/db";
import type { AppLoadContext } from "@remix-run/node";

const MINUTE = 60_000;

/**
 * Attempts allowed per window. Per e-mail it is tight (guessing one player's password); per IP it
 * is looser, because a school or an office shares one address.
 */
export const AUTH_LIMITS = {
  login: {
    email: { limit: 10, windowMs: 15 * MINUTE },
    ip: { limit: 30, windowMs: 15 * MINUTE },
  },
  signup: {
    email: { limit: 10, windowMs: 60 * MINUTE },
    ip: { limit: 20, windowMs: 60 * MINUTE },
  },
} as const;

export type AuthAction = keyof typeof AUTH_LIMITS;

export function clientIp(context: AppLoadContext): string {
  return context.clientIp || "unknown";
}

export function limitKey(action: AuthAction, kind: "email" | "ip", value: string): string {
  return `${action}:${kind}:${value}`;
}

/**
 * Counts one attempt against the caller's IP and the e-mail. Returns null when allowed, else the
 * number of seconds to wait. Both counters are always hit, so an attacker spreading e-mails over
 * one IP (or IPs over one e-mail) is still counted on the other side.
 */
export async function checkAuthLimit(
  context: AppLoadContext,
  action: AuthAction,
  email: string,
): Promise<number | null> {
  const now = context.now();
  const rules = AUTH_LIMITS[action];
  const [byIp, byEmail] = await Promise.all([
    hit(context.db, limitKey(action, "ip", clientIp(context)), { ...rules.ip, now }),
    hit(context.db, limitKey(action, "email", email), { ...rules.email, now }),
  ]);
  if (byIp.allowed && byEmail.allowed) return null;
  return Math.max(byIp.retryAfterSeconds, byEmail.retryAfterSeconds);
}

/** After a successful login the e-mail's earlier mistakes no longer count against it. */
export function clearEmailLimit(context: AppLoadContext, action: AuthAction, email: string) {
  return resetLimit(context.db, limitKey(action, "email", email));
}

/** "Too many attempts" in words a player can act on. */
export function tooManyAttemptsMessage(retryAfterSeconds: number): string {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  const wait = minutes <= 1 ? "a minute" : `${minutes} minutes`;
  return `Too many attempts. Please wait ${wait} and try again.`;
}
