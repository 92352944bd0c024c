/**
 * How a moment is written for people, on every page, widget and e-mail
 * (docs/decisions/0144-dates-and-time-zones.md): in English, whatever the reader's locale (the
 * site is English), in the reader's time zone, with the zone named:
 * "Sunday 20 June 2027, 07:00 CEST". Plain Intl, so it runs in browsers and on servers alike.
 */

/** The zone used when the reader's is unknown (named "UTC" in the text). */
export const DEFAULT_TIME_ZONE = "UTC";

interface ZoneFormats {
  /** en-GB: "Sunday 20 June 2027, 07:00" in parts, and the zone's British short name. */
  gb: Intl.DateTimeFormat;
  /** en-US's short name of the zone ("PDT" where en-GB only has "GMT-7"). */
  us: Intl.DateTimeFormat;
}

const formats = new Map<string, ZoneFormats>();

function zoneFormats(timeZone: string): ZoneFormats {
  let found = formats.get(timeZone);
  if (!found) {
    // Throws a RangeError for a zone this platform does not know.
    found = {
      gb: new Intl.DateTimeFormat("en-GB", {
        timeZone,
        weekday: "long",
        day: "numeric",
        month: "long",
        year: "numeric",
        hour: "2-digit",
        minute: "2-digit",
        // h23, not hour12: false, which some engines print as "24:05" after midnight.
        hourCycle: "h23",
        timeZoneName: "short",
      }),
      us: new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "short" }),
    };
    formats.set(timeZone, found);
  }
  return found;
}

/** Whether `value` is an IANA time zone this platform knows ("Europe/Paris", "UTC"). */
export function isTimeZone(value: unknown): value is string {
  if (typeof value !== "string" || value.length === 0 || value.length > 64) return false;
  try {
    zoneFormats(value);
    return true;
  } catch {
    return false;
  }
}

/** The time zone of the device running this code (a browser's is its reader's); else UTC. */
export function localTimeZone(): string {
  try {
    const zone = new Intl.DateTimeFormat("en-US").resolvedOptions().timeZone;
    return isTimeZone(zone) ? zone : DEFAULT_TIME_ZONE;
  } catch {
    return DEFAULT_TIME_ZONE;
  }
}

const OFFSET_ONLY = /^GMT[+-]/;

/**
 * The zone's common English abbreviation when English has one (en-US knows "PDT", en-GB "CEST"
 * and "BST"), else its offset from UTC ("UTC+9", "UTC+5:30").
 */
function zoneName(date: Date, f: ZoneFormats): string {
  const part = (format: Intl.DateTimeFormat) =>
    format.formatToParts(date).find((p) => p.type === "timeZoneName")?.value ?? "";
  const us = part(f.us);
  if (us && !OFFSET_ONLY.test(us)) return us;
  const gb = part(f.gb);
  if (gb && !OFFSET_ONLY.test(gb)) return gb;
  return `UTC${(us || gb).slice(3)}`;
}

function toDate(value: Date | string | number): Date {
  return value instanceof Date ? value : new Date(value);
}

function parts(date: Date, timeZone: string) {
  const zone = isTimeZone(timeZone) ? timeZone : DEFAULT_TIME_ZONE;
  const f = zoneFormats(zone);
  const p: Record<string, string> = {};
  for (const { type, value } of f.gb.formatToParts(date)) p[type] = value;
  return {
    day: `${p.weekday} ${p.day} ${p.month} ${p.year}`,
    clock: `${p.hour}:${p.minute}`,
    zone: zoneName(date, f),
  };
}

/**
 * "Sunday 20 June 2027, 07:00 CEST": `value` on the clocks of `timeZone` (an unknown zone is
 * UTC, and then says so). An invalid date is returned as it came.
 */
export function formatDateTime(value: Date | string | number, timeZone: string): string {
  const date = toDate(value);
  if (Number.isNaN(date.getTime())) return String(value);
  const p = parts(date, timeZone);
  return `${p.day}, ${p.clock} ${p.zone}`;
}

/**
 * "Sunday 20 June 2027": the day part of `formatDateTime`, for a calendar day (a count per UTC
 * day, say) where a clock time would mean nothing; the text around it names the zone.
 */
export function formatDate(value: Date | string | number, timeZone: string): string {
  const date = toDate(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return parts(date, timeZone).day;
}
