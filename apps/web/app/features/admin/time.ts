/**
 * Event start times are stored in UTC and edited as wall-clock time in the admin's own time zone
 * (a `datetime-local` input has no zone). These convert between the two with the platform's
 * time-zone data; they run in the browser and on the server alike.
 */
import { formatDateTime } from "@game/core/dates";

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(timeZone, f);
  }
  return f;
}

export function isTimeZone(value: unknown): value is string {
  if (typeof value !== "string" || value.length === 0 || value.length > 64) return false;
  try {
    formatter(value);
    return true;
  } catch {
    return false;
  }
}

/** The wall-clock fields of instant `ms` in `timeZone`, as if they were UTC (for arithmetic). */
function wallAsUtc(ms: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(new Date(ms))) {
    if (p.type !== "literal") parts[p.type] = Number(p.value);
  }
  return Date.UTC(
    parts.year!,
    parts.month! - 1,
    parts.day!,
    parts.hour!,
    parts.minute!,
    parts.second!,
  );
}

/** `date` as a `datetime-local` value ("2027-04-18T09:00") in `timeZone`. */
export function toLocalInput(date: Date | string, timeZone: string): string {
  const ms = new Date(date).getTime();
  return new Date(wallAsUtc(ms - (ms % 1000), timeZone)).toISOString().slice(0, 16);
}

const LOCAL = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d)(?::(\d\d))?$/;

/**
 * The instant at which clocks in `timeZone` show `local` ("2027-04-18T09:00"); null when the text
 * is not such a time or the zone is unknown. A time skipped by a daylight-saving jump resolves to
 * the same offset as just before the jump, as most calendars do.
 */
export function fromLocalInput(local: string, timeZone: string): Date | null {
  const m = LOCAL.exec(local.trim());
  if (!m || !isTimeZone(timeZone)) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map((x) => Number(x ?? 0)) as number[];
  const wall = Date.UTC(y!, mo! - 1, d!, h!, mi!, s!);
  const check = new Date(wall);
  if (check.getUTCMonth() !== mo! - 1 || check.getUTCDate() !== d! || h! > 23 || mi! > 59) {
    return null;
  }
  // Offsets move by at most a few hours: two corrections land on the right instant.
  const first = wall - (wallAsUtc(wall, timeZone) - wall);
  const second = wall - (wallAsUtc(first, timeZone) - first);
  return new Date(second);
}

/** "Sunday 18 April 2027, 09:00 PDT": the game's one date format (@game/core), in `timeZone`. */
export function formatInZone(date: Date | string, timeZone: string): string {
  return formatDateTime(date, timeZone);
}
