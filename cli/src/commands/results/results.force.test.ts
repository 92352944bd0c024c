import { events, racers, seed } from "@game/db";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliTarget, cliTarget, runCli, writeFile } from "../../test-support.js";

let t: CliTarget;
beforeAll(async () => {
  t = await cliTarget({ hold: true });
  await seed(t.h!.db);
  // Event 5 races next week: its teams have not locked.
  const nextWeek = new Date(Date.now() + 7 * 24 * 3600 * 1000);
  await t.h!.db.update(events).set({ startsAt: nextWeek }).where(eq(events.id, 5));
});
afterAll(() => t?.close());

describe("results import before the lock", () => {
  it("refuses without --force, checks on --dry-run, imports with --force", async () => {
    const [r] = await t
      .h!.db.select()
      .from(racers)
      .where(and(eq(racers.gameId, 5), eq(racers.category, "Pro Men")))
      .limit(1);
    const file = writeFile(
      t,
      "early.csv",
      `Position,First Name,Last Name,Category\n1,${r!.firstName},${r!.lastName},Pro Men\n`,
    );
    const refused = await runCli(t, "results", "import", "5", file);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^error: teams for event 5 .* lock at .*add --force if the race is over\.\n$/,
    );
    expect((await runCli(t, "results", "import", "5", file, "--dry-run")).code).toBe(0);
    const forced = await runCli(t, "results", "import", "5", file, "--force");
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain("importing freezes them now");
  });
});
