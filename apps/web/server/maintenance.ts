// Housekeeping: expired or idle sessions, finished rate-limit windows, expired embed tokens,
// used or expired password-reset links, expired e-mail confirmation links and week-old job
// records are deleted once an hour, by one process across all of them (docs/decisions/0130).
import {
  type Db,
  purgeExpiredEmailConfirmations,
  purgeExpiredEmbedTokens,
  purgeExpiredPasswordResets,
  purgeExpiredRateLimits,
  purgeExpiredSessions,
  purgeOldJobRuns,
} from "@game/db";
import { type JobOptions, startJob } from "./scheduler.js";

const HOUR = 60 * 60 * 1000;

/** Runs maintenance once per `everyMs` tick; returns a function stopping it. */
export function startMaintenance(
  db: Db,
  { everyMs = HOUR, ...opts }: JobOptions & { everyMs?: number } = {},
): () => void {
  return startJob(
    db,
    {
      name: "maintenance",
      everyMs,
      async run(at) {
        await purgeExpiredSessions(db, at);
        await purgeExpiredRateLimits(db, at);
        await purgeExpiredEmbedTokens(db, at);
        await purgeExpiredPasswordResets(db, at);
        await purgeExpiredEmailConfirmations(db, at);
        await purgeOldJobRuns(db, at);
      },
      failed: "Maintenance failed",
    },
    opts,
  );
}
