import { LOCK_MS } from "@game/core";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "../client.js";
import { events, frozenTeams } from "../schema/index.js";
import { createTestDb, setRuleOptions } from "../testing.js";
import { CLI_ACTOR } from "./audit.js";
import { copyRacers } from "./competitions.js";
import { freezeEvent } from "./freeze.js";
import { listTeamRacers, saveTeam, type TeamRacerView } from "./teams.js";
import { getTransferStatus } from "./transfers.js";
import { createAccount } from "./users.js";

/* Transfers and the wildcard (docs/decisions/0170), as the builder reads them and the save keeps. */

let h: DbHandle;
let round1: TeamRacerView[];
let round2: TeamRacerView[];
let early: Date;
let early2: Date;

const pick = (pool: TeamRacerView[], skip = 0) => {
  const cheapest = (category: string, k: number, s = 0) =>
    pool
      .filter((r) => r.category === category)
      .sort((a, b) => a.price - b.price || a.id - b.id)
      .slice(s, s + k)
      .map((r) => r.id);
  return [
    ...cheapest("Pro Women", 2),
    ...cheapest("17-18 Men", 1),
    ...cheapest("Pro Men", 3 - skip),
    ...cheapest("Pro Men", skip, 3),
  ];
};

beforeAll(async () => {
  h = await createTestDb({ seed: true });
  await setRuleOptions(h.db, 5, { transfers: { free: 1, bank: 3, cost: 10 }, wildcard: true });
  await copyRacers(h.db, 5, 6, { actor: CLI_ACTOR, now: new Date() });
  round1 = await listTeamRacers(h.db, 5);
  round2 = await listTeamRacers(h.db, 6);
  const [e5] = await h.db.select().from(events).where(eq(events.id, 5));
  const [e6] = await h.db.select().from(events).where(eq(events.id, 6));
  early = new Date(e5!.startsAt.getTime() - LOCK_MS - 86_400_000);
  early2 = new Date(e6!.startsAt.getTime() - LOCK_MS - 86_400_000);
  await h.db.update(events).set({ status: "open" }).where(eq(events.id, 6));
});
afterAll(() => h.close());

describe("a team's transfer account", () => {
  it("is free in the first round, then counts changes against the round before", async () => {
    const p = await createAccount(h.db, {
      email: "t1@example.com",
      username: "transfers_1",
      passwordHash: "test:unusable",
    });
    await saveTeam(h.db, { userId: p.id, eventId: 5, racerIds: pick(round1), now: early });
    expect(await getTransferStatus(h.db, p.id, 5)).toMatchObject({ kept: null, leftBefore: null });
    await freezeEvent(h.db, 5, early);
    const status = await getTransferStatus(h.db, p.id, 6);
    // The same people, as round 2's entries.
    expect(status!.kept!.sort((a, b) => a - b)).toEqual(pick(round2).sort((a, b) => a - b));
    expect(status).toMatchObject({ leftBefore: 0, rules: { free: 1, bank: 3, cost: 10 } });

    // Two changes in round 2 (one free), then the freeze charges the extra one.
    await saveTeam(h.db, { userId: p.id, eventId: 6, racerIds: pick(round2, 2), now: early2 });
    await freezeEvent(h.db, 6, early2);
    const [f] = await h.db
      .select()
      .from(frozenTeams)
      .where(sql`${frozenTeams.eventId} = 6 and ${frozenTeams.userId} = ${p.id}`);
    expect(f).toMatchObject({
      transferChanges: 2,
      transferCost: 10,
      transfersLeft: 0,
      wildcard: false,
    });
  });

  it("plays the wildcard once: refused where a frozen round already had it", async () => {
    const p = await createAccount(h.db, {
      email: "t2@example.com",
      username: "transfers_2",
      passwordHash: "test:unusable",
    });
    await h.db.update(events).set({ frozenAt: null }).where(eq(events.id, 5));
    await h.db.execute(sql`delete from frozen_teams where event_id = 5`);
    await h.db.execute(sql`delete from frozen_team_racers where event_id = 5`);
    const saved = await saveTeam(h.db, {
      userId: p.id,
      eventId: 5,
      racerIds: pick(round1),
      wildcard: true,
      now: early,
    });
    expect(saved.ok).toBe(true);
    expect((await getTransferStatus(h.db, p.id, 5))!.wildcard).toMatchObject({ eventId: 5 });
    await freezeEvent(h.db, 5, early);
    await h.db.update(events).set({ frozenAt: null }).where(eq(events.id, 6));
    const again = await saveTeam(h.db, {
      userId: p.id,
      eventId: 6,
      racerIds: pick(round2),
      wildcard: true,
      now: early2,
    });
    expect(again).toMatchObject({
      ok: false,
      issues: [
        { code: "wildcard", message: expect.stringContaining("You played your wildcard in") },
      ],
    });
    // Saving without asking for it keeps it where it was played.
    const kept = await saveTeam(h.db, {
      userId: p.id,
      eventId: 6,
      racerIds: pick(round2),
      now: early2,
    });
    expect(kept.ok).toBe(true);
    expect((await getTransferStatus(h.db, p.id, 6))!.wildcard.eventId).toBe(5);
  });
});
