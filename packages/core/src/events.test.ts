import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LOCK_MS } from "./constants.js";
import {
  canEditTeam,
  canEnterEvent,
  EVENT_STATUSES,
  isEventStatus,
  isLocked,
  lockTime,
} from "./events.js";

const START = Date.parse("2025-06-14T10:00:00.000Z");
const HOUR = 60 * 60 * 1000;

describe("lockTime", () => {
  it("is 12 hours before the start", () => {
    expect(LOCK_MS).toBe(12 * HOUR);
    expect(lockTime({ startsAt: START }).toISOString()).toBe("2025-06-13T22:00:00.000Z");
  });

  it("accepts a Date, an ISO string or milliseconds", () => {
    const expected = START - 12 * HOUR;
    expect(lockTime({ startsAt: new Date(START) }).getTime()).toBe(expected);
    expect(lockTime({ startsAt: "2025-06-14T10:00:00.000Z" }).getTime()).toBe(expected);
    expect(lockTime({ startsAt: START }).getTime()).toBe(expected);
  });
});

describe("isLocked", () => {
  const event = { startsAt: START };

  it("12 h + 1 ms before the start is not locked", () => {
    expect(isLocked(event, START - 12 * HOUR - 1)).toBe(false);
    expect(isLocked(event, new Date(START - 12 * HOUR - 1))).toBe(false);
  });

  it("exactly 12 h before the start is locked", () => {
    expect(isLocked(event, START - 12 * HOUR)).toBe(true);
    expect(isLocked(event, new Date(START - 12 * HOUR))).toBe(true);
  });

  it("stays locked during and after the event", () => {
    expect(isLocked(event, START - 1)).toBe(true);
    expect(isLocked(event, START)).toBe(true);
    expect(isLocked(event, START + 7 * 24 * HOUR)).toBe(true);
  });

  it("fails closed on an unreadable start time or clock", () => {
    expect(isLocked({ startsAt: "not a date" }, START)).toBe(true);
    expect(isLocked(event, Number.NaN)).toBe(true);
    expect(isLocked(event, new Date("nope"))).toBe(true);
  });

  it("property: locked iff now >= start - 12 h", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4_000_000_000_000 }),
        fc.integer({ min: -30 * 24 * HOUR, max: 30 * 24 * HOUR }),
        (start, offset) => {
          const now = start + offset;
          expect(isLocked({ startsAt: start }, now)).toBe(now >= start - 12 * HOUR);
        },
      ),
    );
  });
});

describe("canEnterEvent", () => {
  it("is true only for open events", () => {
    expect(EVENT_STATUSES).toEqual(["open", "closed", "archived"]);
    expect(canEnterEvent({ status: "open" })).toBe(true);
    expect(canEnterEvent({ status: "closed" })).toBe(false);
    expect(canEnterEvent({ status: "archived" })).toBe(false);
  });
});

describe("isEventStatus", () => {
  it("recognises the three statuses only", () => {
    for (const s of EVENT_STATUSES) expect(isEventStatus(s)).toBe(true);
    for (const s of ["Open", "", "live", null, undefined, 1]) expect(isEventStatus(s)).toBe(false);
  });
});

describe("canEditTeam", () => {
  const before = START - 12 * HOUR - 1;
  const atLock = START - 12 * HOUR;

  it("allows editing an open event before the lock", () => {
    expect(canEditTeam({ status: "open", startsAt: START }, before)).toEqual({ ok: true });
  });

  it("refuses a locked open event", () => {
    expect(canEditTeam({ status: "open", startsAt: START }, atLock)).toEqual({
      ok: false,
      reason: "locked",
    });
  });

  it("refuses closed and archived events even before the lock", () => {
    for (const status of ["closed", "archived"] as const) {
      expect(canEditTeam({ status, startsAt: START }, before)).toEqual({
        ok: false,
        reason: "not-open",
      });
      expect(canEditTeam({ status, startsAt: START }, atLock)).toEqual({
        ok: false,
        reason: "not-open",
      });
    }
  });

  it("refuses an open event whose start time cannot be read", () => {
    expect(canEditTeam({ status: "open", startsAt: "garbage" }, before)).toEqual({
      ok: false,
      reason: "locked",
    });
  });
});
