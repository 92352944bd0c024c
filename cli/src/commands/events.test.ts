import { auditLog, getEvent, seed } from "@game/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { currentActor } from "../context.js";
import { type CliTarget, cliTarget, runCli } from "../test-support.js";

// The test holds the database, as the running app does: on PGlite the CLI goes through the socket.
let t: CliTarget;
beforeAll(async () => {
  t = await cliTarget({ hold: true });
  await seed(t.h!.db);
});
afterAll(() => t?.close());

describe("events", () => {
  it("lists the events as JSON and as a table", async () => {
    const json = await runCli(t, "events", "list", "--json");
    expect(json.code).toBe(0);
    const events = JSON.parse(json.stdout);
    expect(events).toHaveLength(12);
    expect(events[4]).toEqual({
      id: 5,
      name: "Pro Downhill Series Round 1: Windrock",
      status: "open",
      startsAt: "2027-04-18T16:00:00.000Z",
      locksAt: "2027-04-18T04:00:00.000Z",
    });
    const table = await runCli(t, "events", "list");
    expect(table.stdout).toMatch(/^ID +Name +Status +Starts \(UTC\) +Teams lock \(UTC\)\n/);
    expect(table.stdout).toMatch(
      / 6 +Pro Downhill Series Round 2: Snowshoe +closed +2027-05-16 16:00/,
    );
  });

  it("changes a status, and the change is in the database and the audit log", async () => {
    const r = await runCli(t, "events", "status", "6", "open");
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("Event 6 (Pro Downhill Series Round 2: Snowshoe) is now open.\n");
    expect((await getEvent(t.h!.db, 6))?.status).toBe("open");
    const again = await runCli(t, "events", "status", "6", "open");
    expect(again.stdout).toContain("was already open");
    const entries = await t.h!.db.select().from(auditLog);
    // Named by the OS user who ran it ("cli:alice"), as the CLI process sees it.
    expect(entries).toMatchObject([
      { actor: currentActor().actor, actorId: null, action: "event.status", target: "event:6" },
    ]);
    expect(entries[0]!.actor).toMatch(/^cli(:.+)?$/);
  });

  it("schedules an event from an ISO time with an offset", async () => {
    const r = await runCli(t, "events", "schedule", "7", "2027-06-21T10:30:00-07:00");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      "now starts 2027-06-21T17:30:00.000Z; teams lock 2027-06-21T05:30:00.000Z",
    );
    expect((await getEvent(t.h!.db, 7))?.startsAt.toISOString()).toBe("2027-06-21T17:30:00.000Z");
  });

  it("fails with exit 1 on an unknown event, changing nothing", async () => {
    const r = await runCli(t, "events", "status", "99", "archived");
    expect(r).toEqual({ code: 1, stdout: "", stderr: "error: No event with id 99.\n" });
  });
});
