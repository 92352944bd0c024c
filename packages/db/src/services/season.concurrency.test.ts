/** Two admins advancing at the same moment (CLI and dashboard): the season moves once. */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { DbHandle } from "../client.js";
import { auditLog, events, racers } from "../schema/index.js";
import { createTestDb } from "../testing.js";
import { cliActor } from "./audit.js";
import { putResults } from "./scoring.fixtures.js";
import { settleEvent } from "./scoring.js";
import { advanceSeason, SeasonError } from "./season.js";

let h: DbHandle;
beforeAll(async () => {
  h = await createTestDb({ seed: true, max: 4 });
});
afterAll(() => h.close());

it("advances once when two runs race", async () => {
  const round1 = await h.db.select().from(racers).where(eq(racers.gameId, 5));
  const first = round1.find((r) => r.category === "Pro Men")!;
  await putResults(h.db, 5, [
    { racerId: first.id, category: first.category, status: "finished", position: 1 },
  ]);
  const [e5] = await h.db.select().from(events).where(eq(events.id, 5));
  const after = new Date(e5!.startsAt.getTime() + 3_600_000);
  await settleEvent(h.db, 5, { now: after });

  const runs = await Promise.allSettled(
    [1, 2].map(() => advanceSeason(h.db, { now: after, actor: cliActor("admin") })),
  );
  expect(runs.filter((r) => r.status === "fulfilled")).toHaveLength(1);
  const refused = runs.find((r) => r.status === "rejected") as PromiseRejectedResult;
  expect(refused.reason).toBeInstanceOf(SeasonError);
  expect(await h.db.select().from(racers).where(eq(racers.gameId, 6))).toHaveLength(round1.length);
  expect(await h.db.select().from(racers).where(eq(racers.gameId, 7))).toHaveLength(0);
  expect(
    await h.db.select().from(auditLog).where(eq(auditLog.action, "season.advance")),
  ).toHaveLength(1);
});
