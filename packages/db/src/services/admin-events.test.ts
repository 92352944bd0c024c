import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "../client.js";
import { createTestDb } from "../testing.js";
import { scheduleEvent, setEventStatus } from "./admin-events.js";
import { AdminActionError, CLI_ACTOR, listAudit } from "./audit.js";
import { copyRacers } from "./competitions.js";
import { getEvent } from "./events.js";

let h: DbHandle;
beforeAll(async () => {
  h = await createTestDb({ seed: true });
});
afterAll(() => h.close());

describe("setEventStatus", () => {
  it("changes the status and records it", async () => {
    // A round without racers cannot be opened: nobody could pick a team.
    await expect(setEventStatus(h.db, 6, "open", CLI_ACTOR)).rejects.toThrow(
      /has no racers yet: import them .* or copy another round's \(`game-admin racers copy <fromEventId> 6`\)/,
    );
    expect((await getEvent(h.db, 6))?.status).toBe("closed");
    await copyRacers(h.db, 5, 6, { actor: CLI_ACTOR, now: new Date() });
    const r = await setEventStatus(h.db, 6, "open", CLI_ACTOR);
    expect(r.changed).toBe(true);
    expect(r.event.status).toBe("open");
    expect((await getEvent(h.db, 6))?.status).toBe("open");
    const { rows } = await listAudit(h.db, { action: "event.status" });
    expect(rows[0]).toMatchObject({
      actor: "cli",
      target: "event:6",
      detail: { from: "closed", to: "open" },
    });
  });

  it("writes and records nothing when the status is already that", async () => {
    const before = (await listAudit(h.db)).total;
    const r = await setEventStatus(h.db, 5, "open", CLI_ACTOR);
    expect(r.changed).toBe(false);
    expect((await listAudit(h.db)).total).toBe(before);
  });

  it("refuses an unknown event or status", async () => {
    await expect(setEventStatus(h.db, 99, "open", CLI_ACTOR)).rejects.toThrow(
      "No event with id 99.",
    );
    await expect(setEventStatus(h.db, 5, "paused", CLI_ACTOR)).rejects.toBeInstanceOf(
      AdminActionError,
    );
    await expect(setEventStatus(h.db, Number.NaN, "open", CLI_ACTOR)).rejects.toThrow(
      AdminActionError,
    );
    expect((await getEvent(h.db, 5))?.status).toBe("open");
  });
});

describe("scheduleEvent", () => {
  it("moves the start time (UTC) and records from/to", async () => {
    const at = new Date("2027-04-19T15:30:00Z");
    const r = await scheduleEvent(h.db, 5, at, CLI_ACTOR);
    expect(r.changed).toBe(true);
    expect((await getEvent(h.db, 5))?.startsAt.toISOString()).toBe(at.toISOString());
    const { rows } = await listAudit(h.db, { action: "event.schedule" });
    expect(rows[0]!.detail).toEqual({
      from: "2027-04-18T16:00:00.000Z",
      to: "2027-04-19T15:30:00.000Z",
    });
    expect((await scheduleEvent(h.db, 5, new Date(at), CLI_ACTOR)).changed).toBe(false);
  });

  it("refuses an invalid or absurd time, and an unknown event", async () => {
    await expect(scheduleEvent(h.db, 5, new Date("nope"), CLI_ACTOR)).rejects.toThrow(
      AdminActionError,
    );
    await expect(
      scheduleEvent(h.db, 5, new Date("2277-01-01T00:00:00Z"), CLI_ACTOR),
    ).rejects.toThrow(/between the years 2000 and 2099/);
    await expect(scheduleEvent(h.db, 13, new Date(), CLI_ACTOR)).rejects.toThrow(
      "No event with id 13.",
    );
  });
});
