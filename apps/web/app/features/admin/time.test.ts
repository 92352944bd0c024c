import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatInZone, fromLocalInput, isTimeZone, toLocalInput } from "./time";

const ZONES = [
  "UTC",
  "Europe/London",
  "Europe/Paris",
  "America/Los_Angeles",
  "America/St_Johns",
  "Asia/Kolkata",
  "Australia/Lord_Howe",
  "Pacific/Chatham",
];

describe("admin time zones", () => {
  it("converts wall-clock time in a zone to UTC, across daylight saving", () => {
    expect(fromLocalInput("2027-04-18T09:00", "America/Los_Angeles")?.toISOString()).toBe(
      "2027-04-18T16:00:00.000Z",
    );
    expect(fromLocalInput("2027-01-18T09:00", "America/Los_Angeles")?.toISOString()).toBe(
      "2027-01-18T17:00:00.000Z",
    );
    expect(fromLocalInput("2027-07-01T12:30", "Europe/Paris")?.toISOString()).toBe(
      "2027-07-01T10:30:00.000Z",
    );
    expect(fromLocalInput("2027-07-01T12:30:15", "Asia/Kolkata")?.toISOString()).toBe(
      "2027-07-01T07:00:15.000Z",
    );
    // 02:30 does not exist on 28 March 2027 in Paris: the offset before the jump applies.
    expect(fromLocalInput("2027-03-28T02:30", "Europe/Paris")?.toISOString()).toBe(
      "2027-03-28T01:30:00.000Z",
    );
  });

  it("shows a UTC instant as wall-clock time in a zone", () => {
    expect(toLocalInput("2027-04-18T16:00:00Z", "America/Los_Angeles")).toBe("2027-04-18T09:00");
    expect(toLocalInput(new Date("2027-04-18T16:00:59Z"), "UTC")).toBe("2027-04-18T16:00");
    expect(formatInZone("2027-04-18T16:00:00Z", "Europe/London")).toBe(
      "Sunday 18 April 2027, 17:00 BST",
    );
  });

  it("refuses what is not a time or a zone", () => {
    for (const bad of ["", "2027-04-18", "2027-02-30T10:00", "2027-04-18T24:00", "tomorrow"]) {
      expect(fromLocalInput(bad, "UTC"), bad).toBeNull();
    }
    expect(fromLocalInput("2027-04-18T10:00", "Mars/Olympus")).toBeNull();
    expect(isTimeZone("Europe/Paris")).toBe(true);
    expect(isTimeZone("Europe/Nowhere")).toBe(false);
    expect(isTimeZone(42)).toBe(false);
  });

  it("round-trips: the wall time of an instant maps back to an instant with that wall time", () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date("2000-01-01Z"),
          max: new Date("2099-12-31Z"),
          noInvalidDate: true,
        }),
        fc.constantFrom(...ZONES),
        (date, zone) => {
          const wall = toLocalInput(date, zone);
          const back = fromLocalInput(wall, zone);
          expect(back).not.toBeNull();
          expect(toLocalInput(back!, zone)).toBe(wall);
          // Exact unless the wall time is in a repeated (fall-back) hour.
          expect(
            Math.abs(back!.getTime() - (date.getTime() - (date.getTime() % 60000))),
          ).toBeLessThanOrEqual(60 * 60 * 1000);
        },
      ),
      { numRuns: 500 },
    );
  });
});
