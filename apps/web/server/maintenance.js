// Housekeeping: expired or idle sessions, finished rate-limit windows, expired embed tokens,
// used or expired password-reset links, expired e-mail confirmation links and week-old job
// records are deleted once an hour, by one process across all of them (docs/decisions/0130).
import {
  purgeExpiredEmailConfirmations,
  purgeExpiredEmbedTokens,
  purgeExpiredPasswordResets,
  purgeExpiredRateLimits,
  purgeExpiredSessions,
  purgeOldJobRuns,
  runScheduledJob,
} from "@game/db";

const HOUR = 60 * 60 * 1000;

/** Runs `fn` as is; the server passes its metrics' `timeJob` instead (docs/decisions/0136). */
const untimed = (_job, fn) => fn();

/**
 * Runs maintenance once per `everyMs` tick (whichever process claims the tick first), checking
 * every minute at most; returns a function stopping it.
 */
export function startMaintenance(
  db,
  { everyMs = HOUR, now = () => new Date(), log = console, time = untimed } = {},
) {
  let running = false;
  const pass = async () => {
    if (running) return;
    running = true;
    try {
      const at = now();
      const outcome = await runScheduledJob(db, { name: "maintenance", everyMs, now: at }, () =>
        time("maintenance", async () => {
          await purgeExpiredSessions(db, at);
          await purgeExpiredRateLimits(db, at);
          await purgeExpiredEmbedTokens(db, at);
          await purgeExpiredPasswordResets(db, at);
          await purgeExpiredEmailConfirmations(db, at);
          await purgeOldJobRuns(db, at);
        }),
      );
      if ("error" in outcome) log.error(`Maintenance failed: ${outcome.error?.message}`);
    } catch (error) {
      log.error(`Maintenance failed: ${error.message}`);
    } finally {
      running = false;
    }
  };
  void pass();
  const timer = setInterval(pass, Math.min(everyMs, 60_000));
  timer.unref();
  return () => clearInterval(timer);
}
