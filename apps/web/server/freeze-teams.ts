// Freezes teams at their lock moment: every 30 s the server freezes the teams of any round that
// has just locked, so scoring reads exactly what players had then, and every 10 minutes it
// counts the open rounds' "picked by" shares. Each round is frozen once whoever does it (its
// `frozen_at` claim); the loop and its tick claim are the scheduler's (server/scheduler.ts).
import { countOpenPicks, type Db, freezeDueEvents } from "@game/db";
import { type Job, type JobOptions, startJobs } from "./scheduler.js";

/** How often an open round's "picked by" shares are counted again (docs/decisions/0160). */
export const PICKS_EVERY_MS = 10 * 60_000;

/** The freeze (every `everyMs`) and the picks count; returns a function stopping both. */
export function startFreezing(
  db: Db,
  { everyMs = 30_000, ...opts }: JobOptions & { everyMs?: number } = {},
): () => void {
  const freeze: Job<Awaited<ReturnType<typeof freezeDueEvents>>> = {
    name: "freeze-teams",
    metric: "freeze",
    everyMs,
    run: (at) => freezeDueEvents(db, at),
    failed: "Freezing teams failed",
    report(frozen, log) {
      // A round frozen with no team in it (every past round of a fresh start) is not news.
      for (const f of frozen) {
        if (f.teams === 0) continue;
        const teams = `${f.teams} ${f.teams === 1 ? "team" : "teams"}`;
        log.log(`Froze the teams of event ${f.eventId} (${teams}).`);
      }
    },
  };
  const countPicks: Job<unknown> = {
    name: "count-picks",
    everyMs: PICKS_EVERY_MS,
    run: (at) => countOpenPicks(db, at),
    failed: "Counting picks failed",
  };
  return startJobs(db, [freeze, countPicks], opts);
}
