// Housekeeping: expired or idle sessions, finished rate-limit windows, expired embed tokens and
// used or expired password-reset links are deleted now and then.
import {
  purgeExpiredEmbedTokens,
  purgeExpiredPasswordResets,
  purgeExpiredRateLimits,
  purgeExpiredSessions,
} from "@game/db";

const HOUR = 60 * 60 * 1000;

/** Runs `purge` once now and then every `everyMs`; returns a function stopping it. */
export function startMaintenance(db, { everyMs = HOUR, log = console } = {}) {
  const purge = async () => {
    try {
      const now = new Date();
      await purgeExpiredSessions(db, now);
      await purgeExpiredRateLimits(db, now);
      await purgeExpiredEmbedTokens(db, now);
      await purgeExpiredPasswordResets(db, now);
    } catch (error) {
      log.error(`Maintenance failed: ${error.message}`);
    }
  };
  void purge();
  const timer = setInterval(purge, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
