import { auditLog, getEvent, seed } from "@game/db";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { currentActor } from "../../context.js";
import { type CliTarget, cliTarget, runCli } from "../../test-support.js";

// The test holds the database, as the running app does: on PGlite the CLI goes through the socket.
let t: CliTarget;
beforeAll(async () => {
  t = await cliTarget({ hold: true });
  await seed(t.h!.db);
  // Round 2 has racers (a round without them cannot be opened).
  await t.h!.db.execute(sql`
    insert into racers (game_id, person_id, category, first_name, last_name, name_key, price)
    select 6, person_id, category, first_name, last_name, name_key, price from racers where game_id = 5`);
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
      competition: "pro-downhill-series-2027",
      round: 1,
      status: "open",
      startsAt: "2027-04-18T16:00:00.000Z",
      locksAt: "2027-04-18T04:00:00.000Z",
    });
    const table = await runCli(t, "events", "list");
    expect(table.stdout).toMatch(
      /^ID +Name +Competition +Round +Status +Starts \(UTC\) +Teams lock \(UTC\)\n/,
    );
    expect(table.stdout).toMatch(
      / 6 +Pro Downhill Series Round 2: Snowshoe +pro-downhill-series-2027 +2 +closed +2027-05-16 16:00/,
    );
    // One competition's rounds.
    const freeride = JSON.parse(
      (await runCli(t, "events", "list", "--competition", "freeride-2024", "--json")).stdout,
    );
    expect(freeride.map((e: { id: number }) => e.id)).toEqual([11, 12]);
    const unknown = await runCli(t, "events", "list", "--competition", "nope");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No competition has the slug "nope"');
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

  it("accepts the words its help uses: close, archive, open", async () => {
    const close = await runCli(t, "events", "status", "8", "close");
    expect(close.code).toBe(0);
    expect(close.stdout).toMatch(/(is now|was already) closed\.\n$/);
    expect((await getEvent(t.h!.db, 8))?.status).toBe("closed");
    expect((await runCli(t, "events", "status", "8", "Archive")).code).toBe(0);
    expect((await getEvent(t.h!.db, 8))?.status).toBe("archived");
    const bad = await runCli(t, "events", "status", "8", "shut");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("use open, close (closed) or archive (archived).");
  });

  it("warns on a past date and asks for --yes", async () => {
    const before = (await getEvent(t.h!.db, 9))?.startsAt.toISOString();
    const past = await runCli(t, "events", "schedule", "9", "2020-01-01T10:00:00Z");
    expect(past.code).toBe(1);
    expect(past.stderr).toBe(
      "error: 2020-01-01T10:00:00.000Z is in the past: teams of event 9 would lock at once. Add --yes if that is what you want.\n",
    );
    expect((await getEvent(t.h!.db, 9))?.startsAt.toISOString()).toBe(before);
    const yes = await runCli(t, "events", "schedule", "9", "2020-01-01T10:00:00Z", "--yes");
    expect(yes.code).toBe(0);
    expect((await getEvent(t.h!.db, 9))?.startsAt.toISOString()).toBe("2020-01-01T10:00:00.000Z");
    // Round 5 now starts before round 4: allowed, and the admin is told the order still holds.
    expect(yes.stderr).toMatch(
      /^Warning: Pro Downhill Series Round 5: Sun Peaks \(round 5\) now starts before Pro Downhill Series Round 4: Angel Fire \(round 4, Sunday 18 July 2027, 17:00 UTC\)\. The season still advances by round number, not by date\.\n$/,
    );
  });
});
