import { auditLog, events, raceResults, racers, seed, settleEvent } from "@game/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type CliTarget, cliTarget, runCli } from "../../test-support.js";

let t: CliTarget;

beforeAll(async () => {
  t = await cliTarget({ hold: true });
  await seed(t.h!.db);
});
afterAll(() => t?.close());

it("refuses an unsettled round (exit 1), dry-runs, advances once and refuses the repeat", async () => {
  const db = t.h!.db;
  const refused = await runCli(t, "season", "advance");
  expect(refused.code).toBe(1);
  expect(refused.stdout).toBe("");
  expect(refused.stderr).toMatch(/has not been settled yet/);
  // --force before the lock is refused too (round 1 starts in 2027).
  expect((await runCli(t, "season", "advance", "--force")).code).toBe(1);

  const men = await db.select().from(racers).where(eq(racers.category, "Pro Men"));
  await db.insert(raceResults).values(
    men.slice(0, 5).map((r, i) => ({
      eventId: 5,
      racerId: r.id,
      category: r.category,
      status: "finished" as const,
      position: i + 1,
    })),
  );
  const [e5] = await db.select().from(events).where(eq(events.id, 5));
  await settleEvent(db, 5, { now: new Date(e5!.startsAt.getTime() + 3_600_000) });

  const dry = await runCli(t, "season", "advance", "--dry-run");
  expect(dry.code).toBe(0);
  expect(dry.stdout).toMatch(/^Dry run \(nothing written\): would advance Pro Downhill Series/);
  expect(dry.stdout).toMatch(/Racer +Category +Result +Old +New +Change/);
  expect(await db.select().from(racers).where(eq(racers.gameId, 6))).toEqual([]);

  const real = await runCli(t, "season", "advance", "--json");
  expect(real.code).toBe(0);
  const summary = JSON.parse(real.stdout);
  expect(summary).toMatchObject({ from: { id: 5 }, to: { id: 6 }, dryRun: false });
  // Sorted by change: the winner's rise first.
  expect(summary.prices[0]).toMatchObject({ result: "1st", band: "podium" });
  expect(summary.prices[0].newPrice).toBeGreaterThan(summary.prices[0].oldPrice);
  // The text report of the dry run listed the same first racer.
  const first = `${summary.prices[0].firstName} ${summary.prices[0].lastName}`;
  expect(dry.stdout.split("\n").find((l) => l.startsWith("Racer"))).toBeDefined();
  expect(dry.stdout).toContain(first);

  const again = await runCli(t, "season", "advance");
  expect(again.code).toBe(1);
  expect(again.stderr).toMatch(/has not been settled yet/);
  const audits = await db.select().from(auditLog).where(eq(auditLog.action, "season.advance"));
  expect(audits).toHaveLength(1);
  expect(audits[0]!.actor).toMatch(/^cli/);
});
