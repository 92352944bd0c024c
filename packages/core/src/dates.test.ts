import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  DEFAULT_TIME_ZONE,
  formatDate,
  formatDateTime,
  isTimeZone,
  localTimeZone,
} from "./dates.js";

const WEEKDAY = "(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)";
const MONTH =
  "(January|February|March|April|May|June|July|August|September|October|November|December)";
const SHAPE = new RegExp(
  `^${WEEKDAY} ([1-9]|[12]\\d|3[01]) ${MONTH} \\d{4}, (?:[01]\\d|2[0-3]):[0-5]\\d (?<zone>\\S+)$`,
);

const ZONES = Intl.supportedValuesOf("timeZone");
const dates = fc.date({
  min: new Date("1990-01-01T00:00:00Z"),
  max: new Date("2100-12-31T23:59:59Z"),
  noInvalidDate: true,
});

/** A browser set to French: every Intl formatter made without a locale speaks French. */
function frenchBrowser() {
  const Original = Intl.DateTimeFormat;
  // A function, not an arrow: the spy is called with `new`, and an arrow cannot construct.
  const French = function French(
    locales?: string | string[],
    options?: Intl.DateTimeFormatOptions,
  ) {
    return new Original(locales ?? "fr-FR", options);
  } as unknown as typeof Intl.DateTimeFormat;
  Object.assign(French, { supportedLocalesOf: Original.supportedLocalesOf });
  vi.spyOn(Intl, "DateTimeFormat").mockImplementation(French);
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("formatDateTime", () => {
  it("writes the moment in English, on the zone's clock, naming the zone", () => {
    const at = "2027-06-20T05:00:00Z";
    expect(formatDateTime(at, "Europe/Paris")).toBe("Sunday 20 June 2027, 07:00 CEST");
    expect(formatDateTime(at, "America/Los_Angeles")).toBe("Saturday 19 June 2027, 22:00 PDT");
    expect(formatDateTime(at, "Europe/London")).toBe("Sunday 20 June 2027, 06:00 BST");
    expect(formatDateTime(at, "UTC")).toBe("Sunday 20 June 2027, 05:00 UTC");
    // No English abbreviation: the offset from UTC names the zone.
    expect(formatDateTime(at, "Asia/Tokyo")).toBe("Sunday 20 June 2027, 14:00 UTC+9");
    expect(formatDateTime(at, "Asia/Kolkata")).toBe("Sunday 20 June 2027, 10:30 UTC+5:30");
    expect(formatDateTime(new Date(at), "UTC")).toBe(formatDateTime(Date.parse(at), "UTC"));
  });

  it("follows daylight saving time", () => {
    expect(formatDateTime("2027-01-17T05:00:00Z", "Europe/Paris")).toBe(
      "Sunday 17 January 2027, 06:00 CET",
    );
    expect(formatDateTime("2027-01-17T05:00:00Z", "Europe/London")).toBe(
      "Sunday 17 January 2027, 05:00 GMT",
    );
    expect(formatDateTime("2027-01-17T20:00:00Z", "America/Los_Angeles")).toBe(
      "Sunday 17 January 2027, 12:00 PST",
    );
    // Paris springs forward at 01:00 UTC on 28 March 2027: 01:59 CET, then 03:00 CEST.
    expect(formatDateTime("2027-03-28T00:59:00Z", "Europe/Paris")).toBe(
      "Sunday 28 March 2027, 01:59 CET",
    );
    expect(formatDateTime("2027-03-28T01:00:00Z", "Europe/Paris")).toBe(
      "Sunday 28 March 2027, 03:00 CEST",
    );
    // Southern hemisphere: Sydney's summer is in January.
    expect(formatDateTime("2027-01-17T05:00:00Z", "Australia/Sydney")).toBe(
      "Sunday 17 January 2027, 16:00 UTC+11",
    );
    expect(formatDateTime("2027-06-20T05:00:00Z", "Australia/Sydney")).toBe(
      "Sunday 20 June 2027, 15:00 UTC+10",
    );
  });

  it("stays English in a browser set to another language", () => {
    frenchBrowser();
    expect(new Intl.DateTimeFormat(undefined, { month: "long" }).format(new Date(0))).toBe(
      "janvier",
    );
    expect(formatDateTime("2027-06-20T05:00:00Z", "Europe/Paris")).toBe(
      "Sunday 20 June 2027, 07:00 CEST",
    );
    expect(formatDate("2027-06-20T05:00:00Z", "Europe/Paris")).toBe("Sunday 20 June 2027");
  });

  it("writes UTC, and says so, for an unknown zone", () => {
    expect(formatDateTime("2027-06-20T05:00:00Z", "Mars/Olympus")).toBe(
      "Sunday 20 June 2027, 05:00 UTC",
    );
    expect(formatDateTime("2027-06-20T05:00:00Z", "")).toBe("Sunday 20 June 2027, 05:00 UTC");
    expect(formatDateTime("not a date", "UTC")).toBe("not a date");
  });

  it("has one shape in every zone, at every moment, in any default language", () => {
    frenchBrowser();
    fc.assert(
      fc.property(dates, fc.constantFrom(...ZONES), (date, zone) => {
        const text = formatDateTime(date, zone);
        const m = SHAPE.exec(text);
        expect(m, text).not.toBeNull();
        const name = m!.groups!.zone!;
        expect(name).not.toMatch(/^GMT[+-]/);
        // The clock is the zone's wall clock.
        const wall = new Intl.DateTimeFormat("en-US", {
          timeZone: zone,
          hour: "2-digit",
          minute: "2-digit",
          hourCycle: "h23",
        }).format(date);
        expect(text).toContain(`, ${wall} ${name}`);
        // A zone named by its offset has that offset.
        const offset = /^UTC([+-])(\d+)(?::(\d\d))?$/.exec(name);
        if (offset) {
          const minutes =
            (offset[1] === "-" ? -1 : 1) * (Number(offset[2]) * 60 + Number(offset[3] ?? 0));
          const shifted = new Date(date.getTime() + minutes * 60_000);
          const hh = String(shifted.getUTCHours()).padStart(2, "0");
          const mm = String(shifted.getUTCMinutes()).padStart(2, "0");
          expect(text).toContain(`, ${hh}:${mm} ${name}`);
        }
      }),
      { numRuns: 400 },
    );
  });

  it("in UTC is the UTC clock", () => {
    fc.assert(
      fc.property(dates, (date) => {
        const hh = String(date.getUTCHours()).padStart(2, "0");
        const mm = String(date.getUTCMinutes()).padStart(2, "0");
        expect(formatDateTime(date, DEFAULT_TIME_ZONE)).toMatch(
          new RegExp(` ${date.getUTCDate()} \\S+ ${date.getUTCFullYear()}, ${hh}:${mm} UTC$`),
        );
      }),
      { numRuns: 200 },
    );
  });
});

describe("time zones", () => {
  it("knows IANA zones and refuses anything else", () => {
    expect(isTimeZone("Europe/Paris")).toBe(true);
    expect(isTimeZone("UTC")).toBe(true);
    for (const bad of ["", "Europe/Nowhere", "x".repeat(65), 42, null, undefined]) {
      expect(isTimeZone(bad), String(bad)).toBe(false);
    }
    expect(isTimeZone(localTimeZone())).toBe(true);
  });
});
