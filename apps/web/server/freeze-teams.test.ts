import { type DbHandle, eventPicks, events, racers } from "@game/db";
import { createTestDb, putTeam } from "@game/db/testing";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { makeUser } from "../tests/support/context";
import { startFreezing } from "./freeze-teams.js";
import type { JobLog } from "./scheduler.js";

let h: DbHandle;
beforeAll(async () => {
  h = await createTestDb({ seed: true });
});
afterAll(() => h.close());

it("freezes an event's teams once its lock moment has passed, and stops when told", async () => {
  const user = await makeUser(h.db);
  await putTeam(h.db, user.id, 5, [1]);
  const [round1] = await h.db.select().from(events).where(eq(events.id, 5));
  const afterLock = new Date(round1!.startsAt.getTime() - 11 * 3600_000);
  const log = { log: vi.fn<JobLog["log"]>(), error: vi.fn<JobLog["error"]>() };
  const stop = startFreezing(h.db, { everyMs: 20, now: () => afterLock, log });
  await vi.waitFor(() =>
    expect(log.log).toHaveBeenCalledWith(expect.stringContaining("event 5 (1 team)")),
  );
  // The past rounds froze too, with no team in them: nothing a person must act on, no line.
  expect(log.log.mock.calls.map(([line]) => line)).toEqual([
    "Froze the teams of event 5 (1 team).",
  ]);
  stop();
  const [frozen] = await h.db.select().from(events).where(eq(events.id, 5));
  expect(frozen!.frozenAt).toEqual(afterLock);
  expect(log.error).not.toHaveBeenCalled();
  // The freeze counted the round's picks, final: 1 of its 1 team holds racer 1.
  const [picks] = await h.db.select().from(eventPicks).where(eq(eventPicks.eventId, 5));
  expect(picks).toMatchObject({ teams: 1, final: true });
  const [racer] = await h.db.select().from(racers).where(eq(racers.id, 1));
  expect(racer!.pickedBy).toBe(1);
  // Later passes find nothing more to do.
  const calls = log.log.mock.calls.length;
  await new Promise((r) => setTimeout(r, 60));
  expect(log.log.mock.calls.length).toBe(calls);
});
