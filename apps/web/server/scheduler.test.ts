import { listJobRuns } from "@game/db";
import { createTestDb } from "@game/db/testing";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { startJob } from "./scheduler.js";

let h: Awaited<ReturnType<typeof createTestDb>>;
beforeAll(async () => {
  h = await createTestDb();
});
afterAll(() => h.close());

const quiet = () => ({ log: vi.fn(), error: vi.fn() });

it("never starts a pass while the last one runs, and runs each tick once", async () => {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const run = vi.fn(() => held.then(() => "done"));
  const report = vi.fn();
  let at = new Date("2027-04-18T10:00:00Z");
  const log = quiet();
  const stop = startJob(
    h.db,
    { name: "test-overlap", everyMs: 20, run, report, failed: "Test failed" },
    { now: () => at, log },
  );
  // The interval fires many times while the first pass is held: none starts another.
  await new Promise((resolve) => setTimeout(resolve, 150));
  expect(run).toHaveBeenCalledTimes(1);
  release();
  await vi.waitFor(() => expect(report).toHaveBeenCalledWith("done", log));
  // The same tick again: claimed already, so the work does not run twice.
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(run).toHaveBeenCalledTimes(1);
  // The next tick runs.
  at = new Date("2027-04-18T10:00:01Z");
  await vi.waitFor(() => expect(run).toHaveBeenCalledTimes(2));
  stop();
  expect((await listJobRuns(h.db, { job: "test-overlap" })).length).toBe(2);
  expect(log.error).not.toHaveBeenCalled();
});

it("logs a failed pass in one line and keeps going", async () => {
  let at = new Date("2027-04-18T11:00:00Z");
  let fail = true;
  const run = vi.fn(async () => {
    if (fail) throw new Error("disk full");
    return "ok";
  });
  const log = quiet();
  const stop = startJob(
    h.db,
    { name: "test-failing", everyMs: 20, run, failed: "Test job failed" },
    { now: () => at, log },
  );
  await vi.waitFor(() => expect(log.error).toHaveBeenCalledWith("Test job failed: disk full"));
  fail = false;
  at = new Date("2027-04-18T11:00:01Z");
  await vi.waitFor(() => expect(run).toHaveBeenCalledTimes(2));
  stop();
  expect(log.error).toHaveBeenCalledTimes(1);
});
