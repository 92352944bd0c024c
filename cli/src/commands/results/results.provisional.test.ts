import {
  accounts,
  events,
  getPlayerStanding,
  listAudit,
  raceResults,
  racers,
  seed,
  users,
} from "@game/db";
import { putTeam } from "@game/db/testing";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { currentActor } from "../../context.js";
import { type CliTarget, cliTarget, runCli, writeFile } from "../../test-support.js";

/* Provisional results while the race runs (docs/decisions/0171), from the command line. */

let t: CliTarget;
let men: { id: number; firstName: string; lastName: string }[];
let ann: number;

const HEADER = "Position,First Name,Last Name,Category";
const line = (position: string, r: { firstName: string; lastName: string }) =>
  `${position},${r.firstName},${r.lastName},Pro Men`;
const csv = (name: string, ...rows: string[]) => writeFile(t, name, [HEADER, ...rows].join("\n"));

/** Event 5's provisional flag, as the pages read it. */
async function provisional(): Promise<boolean> {
  const [e] = await t.h!.db.select().from(events).where(eq(events.id, 5));
  return e!.provisional;
}

async function points(): Promise<number> {
  return (await getPlayerStanding(t.h!.db, ann))?.points ?? 0;
}

const PROVISIONAL_LINE =
  "  provisional: points and ranks say so until the final import or `game-admin results finalize 5`";

beforeAll(async () => {
  t = await cliTarget({ hold: true });
  const db = t.h!.db;
  await seed(db);
  men = await db
    .select({ id: racers.id, firstName: racers.firstName, lastName: racers.lastName })
    .from(racers)
    .where(eq(racers.category, "Pro Men"))
    .orderBy(racers.id);
  const [a] = await db
    .insert(accounts)
    .values({ email: "ann@example.com", passwordHash: "test:unusable" })
    .returning();
  await db
    .insert(users)
    .values({ id: a!.id, email: a!.email, username: "ann", usernameKey: "ann" });
  await putTeam(db, a!.id, 5, [men[0]!.id, men[1]!.id]);
  ann = a!.id;
});
afterAll(() => t?.close());

// Event 5 has not locked yet on the test clock: writes need --force.
describe("results import --provisional and results finalize", () => {
  it("scores results in pieces and says provisional; an identical file changes nothing", async () => {
    const first = csv("live-1.csv", line("1", men[0]!));
    const r = await runCli(t, "results", "import", "5", first, "--provisional", "--force");
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("replaced the results of: Pro Men (other categories kept)");
    expect(r.stdout).toContain(`\n${PROVISIONAL_LINE}\n`);
    expect(r.stdout).toMatch(/\nScored event 5 \(provisional\): 1 teams, 1 players ranked, /);
    expect(await provisional()).toBe(true);
    expect(await points()).toBe(100);

    const second = csv("live-2.csv", line("1", men[0]!), line("2", men[1]!));
    const more = await runCli(t, "results", "import", "5", second, "--provisional", "--force");
    expect(more.code).toBe(0);
    expect(more.stdout).toContain("Scored event 5 (provisional): ");
    expect(await points()).toBe(180);

    const again = await runCli(t, "results", "import", "5", second, "--provisional", "--force");
    expect(again.stderr).toBe("");
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(
      "\n  unchanged: the file holds the results stored; nothing re-scored\n",
    );
    expect(again.stdout).toContain(PROVISIONAL_LINE);
    expect(again.stdout).not.toContain("Scored event");
    expect(again.stdout).not.toContain("replaced the results");
    const json = await runCli(
      t,
      "results",
      "import",
      "5",
      second,
      "--provisional",
      "--force",
      "--json",
    );
    expect(json.code).toBe(0);
    const outcome = JSON.parse(json.stdout);
    expect(outcome).toMatchObject({ ok: true, provisional: true, unchanged: true });
    expect(outcome.settlement).toBeUndefined();
    expect(await provisional()).toBe(true);
  });

  it("finalizes the results as they stand and scores again; once final, finalize does nothing", async () => {
    const r = await runCli(t, "results", "finalize", "5");
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const [done, scored, end] = r.stdout.split("\n");
    expect(done).toBe(
      "The results of event 5 (Pro Downhill Series Round 1: Windrock) are final now.",
    );
    expect(scored).toMatch(/^Scored event 5: 1 teams, 1 players ranked, 0 leagues, in [\d.]+ s/);
    expect(end).toBe("");
    expect(await provisional()).toBe(false);
    expect(await points()).toBe(180);
    const { rows } = await listAudit(t.h!.db, { action: "results.finalize" });
    expect(rows).toMatchObject([{ actor: currentActor().actor, target: "event:5" }]);

    const again = await runCli(t, "results", "finalize", "5");
    expect(again).toEqual({
      code: 0,
      stdout:
        "The results of event 5 (Pro Downhill Series Round 1: Windrock) are final already: nothing to do.\n",
      stderr: "",
    });
    const json = await runCli(t, "results", "finalize", "5", "--json");
    expect(JSON.parse(json.stdout)).toEqual({ ok: true, alreadyFinal: true });
  });

  it("refuses provisional results once the results are final (exit 1), writing nothing", async () => {
    const late = csv("late.csv", line("1", men[1]!), line("2", men[0]!));
    const r = await runCli(t, "results", "import", "5", late, "--provisional", "--force");
    expect(r).toEqual({
      code: 1,
      stdout: "",
      stderr:
        "error: The results of event 5 are final: provisional results can no longer replace them. Import a corrected file as final to correct them.\n",
    });
    expect(await provisional()).toBe(false);
    expect(await points()).toBe(180);
    // A correction after the final is a final import, as before.
    const fixed = await runCli(t, "results", "import", "5", late, "--force");
    expect(fixed.code).toBe(0);
    expect(fixed.stdout).toMatch(/\nScored event 5: /);
    expect(fixed.stdout).not.toContain("provisional");
  });

  it("makes provisional results final on a final import, and says so", async () => {
    // Back to a round without results, as on race day.
    const db = t.h!.db;
    await db.delete(raceResults).where(eq(raceResults.eventId, 5));
    await db.update(events).set({ settledAt: null }).where(eq(events.id, 5));
    const live = csv("live-3.csv", line("1", men[0]!));
    const first = await runCli(t, "results", "import", "5", live, "--provisional", "--force");
    expect(first.code).toBe(0);
    expect(await provisional()).toBe(true);

    const dry = await runCli(t, "results", "import", "5", live, "--dry-run");
    expect(dry.stdout).toContain(
      "\n  final: the round's results are provisional; importing this file makes them final\n",
    );
    expect(await provisional()).toBe(true);
    const full = csv("final.csv", line("1", men[0]!), line("2", men[1]!));
    const r = await runCli(t, "results", "import", "5", full, "--force");
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      "\n  final: the round's results were provisional and are final now\n",
    );
    expect(r.stdout).toMatch(/\nScored event 5: /);
    expect(await provisional()).toBe(false);
  });

  it("refuses to finalize an event without results or no event (exit 1), a bad id (exit 2)", async () => {
    expect(await runCli(t, "results", "finalize", "6")).toEqual({
      code: 1,
      stdout: "",
      stderr: "error: Event 6 has no results yet: import them first.\n",
    });
    expect(await runCli(t, "results", "finalize", "99")).toEqual({
      code: 1,
      stdout: "",
      stderr: "error: there is no event 99\n",
    });
    expect((await runCli(t, "results", "finalize", "five")).code).toBe(2);
  });
});
