// Freezes teams at their lock moment (12 h before an event starts): every 30 s the server copies
// the teams of any event that has just locked, so scoring reads exactly what players had then.
// Several app processes (and machines) may run this: each 30 s tick is claimed by one of them
// (docs/decisions/0130), and each event is frozen once whoever does it (its `frozen_at` claim).
import { countOpenPicks, freezeDueEvents, runScheduledJob } from "@game/db";

/** How often an open round's "picked by" shares are counted again (docs/decisions/0160). */
export const PICKS_EVERY_MS = 10 * 60_000;

/** Runs `fn` as is; the server passes its metrics' `timeJob` instead (docs/decisions/0136). */
const untimed = (_job, fn) => fn();

/** Runs a freeze pass now and every `everyMs`; returns a function stopping it. */
export function startFreezing(
  db,
  { everyMs = 30_000, now = () => new Date(), log = console, time = untimed } = {},
) {
  let running = false;
  const pass = async () => {
    // A million teams take seconds to copy: never start a pass while one is still running.
    if (running) return;
    running = true;
    try {
      const at = now();
      const outcome = await runScheduledJob(db, { name: "freeze-teams", everyMs, now: at }, () =>
        time("freeze", () => freezeDueEvents(db, at)),
      );
      if ("error" in outcome) throw outcome.error;
      // A round frozen with no team in it (every past round of a fresh start) is not news.
      for (const f of outcome.ran ? outcome.result : []) {
        if (f.teams === 0) continue;
        log.log(
          `Froze the teams of event ${f.eventId} (${f.teams} ${f.teams === 1 ? "team" : "teams"}).`,
        );
      }
      // The open rounds' "picked by" shares, every 10 minutes (one process per tick).
      const picks = await runScheduledJob(
        db,
        { name: "count-picks", everyMs: PICKS_EVERY_MS, now: at },
        () => time("count-picks", () => countOpenPicks(db, at)),
      );
      if ("error" in picks) throw picks.error;
    } catch (error) {
      log.error(`Freezing teams failed: ${error.message}`);
    } finally {
      running = false;
    }
  };
  void pass();
  const timer = setInterval(pass, Math.min(everyMs, 60_000));
  timer.unref();
  return () => clearInterval(timer);
}
