import { createSession, type DbHandle, listJobRuns, sessions } from "@game/db";
import { createTestDb } from "@game/db/testing";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { makeUser } from "../tests/support/context";
import { startMaintenance } from "./maintenance.js";
import type { JobLog } from "./scheduler.js";

let h: DbHandle;
beforeAll(async () => {
  h = await createTestDb();
});
afterAll(() => h.close());

it("purges once per hour tick, whichever of several schedulers comes first", async () => {
  const user = await makeUser(h.db);
  // A session that expired long ago, and one still valid at `now`.
  await createSession(h.db, user.id, { now: new Date("2026-01-01T00:00:00Z") });
  const now = new Date("2027-04-18T10:20:00Z");
  await createSession(h.db, user.id, { now });
  const log = { log: vi.fn<JobLog["log"]>(), error: vi.fn<JobLog["error"]>() };
  const stops = [1, 2, 3].map(() =>
    startMaintenance(h.db, { everyMs: 3600_000, now: () => now, log }),
  );
  await vi.waitFor(async () => {
    const runs = await listJobRuns(h.db, { job: "maintenance" });
    expect(runs[0]?.finishedAt).toBeInstanceOf(Date);
  });
  await new Promise((resolve) => setTimeout(resolve, 100));
  for (const stop of stops) stop();
  const [run] = await listJobRuns(h.db, { job: "maintenance" });
  expect(run!.tick).toEqual(new Date("2027-04-18T10:00:00Z"));
  expect(await listJobRuns(h.db, { job: "maintenance" })).toHaveLength(1);
  expect(await h.db.select().from(sessions)).toHaveLength(1);
  expect(log.error).not.toHaveBeenCalled();
});
