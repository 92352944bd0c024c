import { LOCK_HOURS } from "@game/core/constants";
import { useEffect, useRef, useState } from "react";
import { DateTime } from "~/components/date-time";

/** `3d 04h 12m 09s`, dropping the days when there are none. */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const d = Math.floor(total / 86_400);
  const pad = (n: number) => String(n).padStart(2, "0");
  const hms = `${pad(Math.floor((total % 86_400) / 3600))}h ${pad(Math.floor((total % 3600) / 60))}m ${pad(total % 60)}s`;
  return d > 0 ? `${d}d ${hms}` : hms;
}

/**
 * "Teams lock 12 hours before the event": the exact moment (in the player's time zone, see
 * DateTime) and a countdown ticking every second. The first frame uses the server's clock
 * (`now`) so the server and browser renders agree.
 */
export function LockNotice(props: {
  lockAt: string;
  now: string;
  /** The zone the server wrote the page in (utils/time-zone.server.ts `readTimeZone`). */
  timeZone: string;
  className?: string;
  /** Called once when the lock moment passes while the page is open. */
  onLock?: () => void;
  /** The competition's lock hours (its rules); the spec's 12 by default. */
  lockHours?: number;
}) {
  const { lockAt, onLock } = props;
  const [now, setNow] = useState(() => new Date(props.now).getTime());
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const left = new Date(lockAt).getTime() - now;
  const locked = left <= 0;
  const wasOpen = useRef(!locked);
  useEffect(() => {
    if (locked && wasOpen.current) {
      wasOpen.current = false;
      onLock?.();
    }
  }, [locked, onLock]);

  return (
    <section className={`lock-notice ${props.className ?? ""}`} aria-labelledby="lock-heading">
      <h2 id="lock-heading" className="lock-notice__title">
        {locked
          ? "Teams are locked"
          : `Teams lock ${props.lockHours ?? LOCK_HOURS} hours before the event`}
      </h2>
      <p>
        {locked ? "Teams locked at " : "Last changes by "}
        <DateTime value={lockAt} timeZone={props.timeZone} />.
      </p>
      {locked ? null : (
        // role="timer" is not announced on every tick; the text is there when read.
        <p className="lock-notice__countdown" role="timer">
          {formatCountdown(left)} left to change your team
        </p>
      )}
    </section>
  );
}
