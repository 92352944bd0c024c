import { CATEGORIES } from "@game/core";
import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "./client.js";
import { events, racers } from "./schema/index.js";
import { readSeedRacers, SEED_EVENTS, seed } from "./seed.js";
import { cliActor, listAudit } from "./services/audit.js";
import { createTestDb } from "./testing.js";

describe("seed", () => {
  let h: DbHandle;
  beforeAll(async () => {
    h = await createTestDb();
  });
  afterAll(() => h.close());

  it("ships at least 80 racers across the four categories", () => {
    const { rows, skipped } = readSeedRacers();
    expect(skipped).toEqual([]);
    expect(rows.length).toBeGreaterThanOrEqual(80);
    for (const c of CATEGORIES) expect(rows.some((r) => r.category === c)).toBe(true);
  });

  it("inserts the 12 events with round 1 open and in the future, and is idempotent", async () => {
    const first = await seed(h.db);
    expect(first.eventsAdded).toBe(12);
    expect(first.racersAdded).toBe(readSeedRacers().rows.length);

    const snapshot = await h.db.select().from(racers).orderBy(racers.id);
    const second = await seed(h.db);
    expect(second).toEqual({ eventsAdded: 0, racersAdded: 0 });
    expect(await h.db.select().from(racers).orderBy(racers.id)).toEqual(snapshot);

    const [{ n }] = (await h.db.select({ n: count() }).from(events)) as [{ n: number }];
    expect(n).toBe(12);
    const statuses = (await h.db.select().from(events).orderBy(events.id)).map((e) => e.status);
    expect(statuses).toEqual([
      "archived",
      "archived",
      "archived",
      "archived",
      "open",
      "closed",
      "closed",
      "closed",
      "closed",
      "archived",
      "archived",
      "archived",
    ]);
    const [round1] = await h.db.select().from(events).where(eq(events.id, 5));
    expect(round1!.startsAt.getTime()).toBeGreaterThan(new Date("2026-11-01").getTime());
  });

  it("keeps an admin's edits on a re-seed", async () => {
    await h.db.update(events).set({ status: "closed" }).where(eq(events.id, 5));
    await seed(h.db);
    const [round1] = await h.db.select().from(events).where(eq(events.id, 5));
    expect(round1!.status).toBe("closed");
  });

  it("audits a seed run by an actor (what it added), and not one that added nothing", async () => {
    const fresh = await createTestDb();
    try {
      const actor = cliActor("alice");
      const first = await seed(fresh.db, { actor });
      const again = await seed(fresh.db, { actor });
      expect(again).toEqual({ eventsAdded: 0, racersAdded: 0 });
      const { rows, total } = await listAudit(fresh.db, { action: "db.seed" });
      expect(total).toBe(1);
      expect(rows[0]).toMatchObject({
        actor: "cli:alice",
        actorId: null,
        action: "db.seed",
        target: "seed",
        detail: {
          eventsAdded: 12,
          eventIds: SEED_EVENTS.map((e) => e.id),
          racersAdded: first.racersAdded,
          racersFile: "racers.csv",
        },
      });
      expect(first.racersAdded).toBeGreaterThanOrEqual(80);
    } finally {
      await fresh.close();
    }
  });

  it("writes no audit entry without an actor (the app's own start-up seed)", async () => {
    expect((await listAudit(h.db, { action: "db.seed" })).total).toBe(0);
  });

  it("gives every seed event a cover and logo path", () => {
    for (const e of SEED_EVENTS) {
      expect(e.cover).toMatch(/^\/img\/events\/cover-\d+\.svg$/);
      expect(e.logo).toMatch(/^\/img\/events\/logo-\d+\.svg$/);
    }
  });
});
