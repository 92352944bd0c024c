// Freezes teams at their lock moment (12 h before an event starts): every 30 s the server copies
// the teams of any event that has just locked, so scoring reads exactly what players had then.
// Several app processes may run this at once: each event is claimed by one of them.
import { freezeDueEvents } from "@game/db";

/** Runs a freeze pass now and every `everyMs`; returns a function stopping it. */
export function startFreezing(
  db,
  { everyMs = 30_000, now = () => new Date(), log = console } = {},
) {
  let running = false;
  const pass = async () => {
    // A million teams take seconds to copy: never start a pass while one is still running.
    if (running) return;
    running = true;
    try {
      for (const f of await freezeDueEvents(db, now())) {
        log.log(`Froze the teams of event ${f.eventId} (${f.teams} teams).`);
      }
    } catch (error) {
      log.error(`Freezing teams failed: ${error.message}`);
    } finally {
      running = false;
    }
  };
  void pass();
  const timer = setInterval(pass, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
