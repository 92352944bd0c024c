import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LOCK_MS } from "./constants.js";
import {
  canEditTeam,
  canEnterEvent,
  canRememberEvent,
  currentGameOf,
  EVENT_STATUSES,
  eventPhase,
  isEventStatus,
  isLiveRound,
  isLocked,
  liveVersion,
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

describe("eventPhase", () => {
  const open = { status: "open" as const, startsAt: START };
  const beforeLock = START - 12 * HOUR - 1;

  it("is open before the lock, locked from the lock on", () => {
    expect(eventPhase(open, beforeLock)).toBe("open");
    expect(eventPhase(open, START - 12 * HOUR)).toBe("locked");
  });

  it("is locked as soon as teams are frozen, even months before the lock (early import)", () => {
    expect(eventPhase({ ...open, frozenAt: new Date(0) }, START - 90 * 24 * HOUR)).toBe("locked");
  });

  it("is scored once results are settled, before or after the lock", () => {
    const settled = { ...open, frozenAt: new Date(0), settledAt: new Date(0) };
    expect(eventPhase(settled, START - 90 * 24 * HOUR)).toBe("scored");
    expect(eventPhase(settled, START + HOUR)).toBe("scored");
  });

  it("is upcoming for a closed event and archived for an archived one, whatever the clock", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4e12 }), fc.boolean(), (now, settled) => {
        const extra = settled ? { settledAt: new Date(0), frozenAt: new Date(0) } : {};
        expect(eventPhase({ status: "closed", startsAt: START, ...extra }, now)).toBe("upcoming");
        expect(eventPhase({ status: "archived", startsAt: START, ...extra }, now)).toBe("archived");
      }),
    );
  });

  it("says open exactly when a team can be saved (canEditTeam) and nothing froze it", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...EVENT_STATUSES),
        fc.integer({ min: START - 48 * HOUR, max: START + 48 * HOUR }),
        fc.boolean(),
        (status, now, frozen) => {
          const event = { status, startsAt: START, frozenAt: frozen ? new Date(0) : null };
          expect(eventPhase(event, now) === "open").toBe(canEditTeam(event, now).ok && !frozen);
        },
      ),
    );
  });
});

describe("the remembered game", () => {
  const e = (id: number, status: (typeof EVENT_STATUSES)[number], day: number, scored = false) => ({
    id,
    status,
    startsAt: new Date(START + day * 24 * HOUR),
    settledAt: scored ? new Date(START) : null,
  });
  const season = [
    e(1, "archived", -60, true),
    e(2, "archived", -30, true),
    e(3, "open", 0),
    e(4, "closed", 30),
  ];

  it("only an open event can be remembered", () => {
    expect(canRememberEvent({ status: "open" })).toBe(true);
    expect(canRememberEvent({ status: "archived" })).toBe(false);
    expect(canRememberEvent({ status: "closed" })).toBe(false);
  });

  it("keeps a remembered open event, and falls back to the open one otherwise", () => {
    expect(currentGameOf(season, 3)?.id).toBe(3);
    expect(currentGameOf(season, 1)?.id).toBe(3);
    expect(currentGameOf(season, 4)?.id).toBe(3);
    expect(currentGameOf(season, null)?.id).toBe(3);
    expect(currentGameOf(season, 99)?.id).toBe(3);
  });

  it("without an open event: the latest scored one, else the latest", () => {
    const noOpen = season.map((x) => (x.id === 3 ? { ...x, status: "closed" as const } : x));
    expect(currentGameOf(noOpen, 1)?.id).toBe(2);
    expect(currentGameOf([e(4, "closed", 30), e(5, "closed", 60)], null)?.id).toBe(5);
    expect(currentGameOf([], 1)).toBeUndefined();
  });

  it("is always an open event when there is one, whatever was remembered", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            status: fc.constantFrom(...EVENT_STATUSES),
            day: fc.integer({ min: -99, max: 99 }),
            scored: fc.boolean(),
          }),
          { minLength: 1, maxLength: 12 },
        ),
        fc.option(fc.integer({ min: 0, max: 13 }), { nil: null }),
        (rows, remembered) => {
          const all = rows.map((r, i) => e(i + 1, r.status, r.day, r.scored));
          const current = currentGameOf(all, remembered);
          expect(current).toBeDefined();
          if (all.some((x) => x.status === "open")) expect(current?.status).toBe("open");
        },
      ),
    );
  });
});

describe("live rounds (docs/decisions/0171)", () => {
  const startsAt = new Date("2027-05-01T12:00:00Z");
  const before = new Date(startsAt.getTime() - LOCK_MS - 1);
  const after = new Date(startsAt.getTime() - LOCK_MS + 1);
  const round = { startsAt, status: "open" as const };
  it("follows an open round from its lock until its results are final", () => {
    expect(isLiveRound(round, before)).toBe(false);
    expect(isLiveRound(round, after)).toBe(true);
    expect(isLiveRound({ ...round, frozenAt: before }, before)).toBe(true);
    expect(isLiveRound({ ...round, settledAt: after, provisional: true }, after)).toBe(true);
    expect(isLiveRound({ ...round, settledAt: after, provisional: false }, after)).toBe(false);
    expect(isLiveRound({ ...round, status: "archived" as const }, after)).toBe(false);
    expect(isLiveRound({ ...round, status: "closed" as const }, after)).toBe(false);
  });
  it("gives every settlement and the final its own version", () => {
    const at = new Date("2027-05-01T15:00:00.123Z");
    expect(liveVersion(null, false)).toBe("0");
    expect(liveVersion(at, true)).not.toBe(liveVersion(at, false));
    expect(liveVersion(at, true)).not.toBe(liveVersion(new Date(at.getTime() + 1), true));
    expect(liveVersion(at.toISOString(), false)).toBe(liveVersion(at, false));
  });
});
