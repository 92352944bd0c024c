import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "../client.js";
import { createTestDb } from "../testing.js";
import { jobTick, listJobRuns, purgeOldJobRuns, runScheduledJob } from "./jobs.js";

let h: DbHandle;
beforeAll(async () => {
  h = await createTestDb();
});
afterAll(() => h.close());

const HOUR = 3600_000;

describe("scheduled jobs", () => {
  it("cuts time into ticks of the job's period", () => {
    expect(jobTick(new Date("2027-04-18T10:59:59.999Z"), HOUR)).toEqual(
      new Date("2027-04-18T10:00:00Z"),
    );
    expect(jobTick(new Date("2027-04-18T11:00:00Z"), HOUR)).toEqual(
      new Date("2027-04-18T11:00:00Z"),
    );
    expect(jobTick(new Date("2027-04-18T11:00:45Z"), 30_000)).toEqual(
      new Date("2027-04-18T11:00:30Z"),
    );
  });

  it("runs a tick once when ten schedulers ask at the same moment", async () => {
    const now = new Date("2027-04-18T10:20:00Z");
    let runs = 0;
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        runScheduledJob(h.db, { name: "race", everyMs: HOUR, now, owner: `p${i}` }, async () => {
          runs += 1;
          return "done";
        }),
      ),
    );
    expect(runs).toBe(1);
    expect(outcomes.filter((o) => o.ran)).toHaveLength(1);
    // Later in the same hour: nothing; the next hour: once more.
    const same = await runScheduledJob(
      h.db,
      { name: "race", everyMs: HOUR, now: new Date("2027-04-18T10:59:00Z") },
      async () => (runs += 1),
    );
    expect(same.ran).toBe(false);
    const next = await runScheduledJob(
      h.db,
      { name: "race", everyMs: HOUR, now: new Date("2027-04-18T11:00:01Z") },
      async () => (runs += 1),
    );
    expect(next.ran).toBe(true);
    expect(runs).toBe(2);
    const history = await listJobRuns(h.db, { job: "race" });
    expect(history.map((r) => r.tick.toISOString())).toEqual([
      "2027-04-18T11:00:00.000Z",
      "2027-04-18T10:00:00.000Z",
    ]);
    expect(history[1]!.owner).toMatch(/^p\d$/);
    expect(history.every((r) => r.finishedAt !== null && r.ms !== null && r.error === null)).toBe(
      true,
    );
  });

  it("records a failed run without throwing, and other jobs keep their own ticks", async () => {
    const now = new Date("2027-04-18T10:20:00Z");
    const failed = await runScheduledJob(h.db, { name: "broken", everyMs: HOUR, now }, () =>
      Promise.reject(new Error("disk full\nsecond line")),
    );
    expect(failed.ran && "error" in failed).toBe(true);
    const [run] = await listJobRuns(h.db, { job: "broken" });
    expect(run!.error).toBe("disk full");
    const other = await runScheduledJob(h.db, { name: "other", everyMs: HOUR, now }, async () => 1);
    expect(other).toMatchObject({ ran: true, result: 1 });
  });

  it("forgets runs older than a week", async () => {
    await purgeOldJobRuns(h.db, new Date("2027-04-25T10:30:00Z"));
    const left = await listJobRuns(h.db);
    expect(left.map((r) => `${r.job}@${r.tick.toISOString()}`).sort()).toEqual([
      "race@2027-04-18T11:00:00.000Z",
    ]);
  });
});
