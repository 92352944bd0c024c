import { BUDGET, isFemale, isJunior, LOCK_MS, lockTime } from "@game/core";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "../client.js";
import { events, racers, teamRacers, teams } from "../schema/index.js";
import { createTestDb } from "../testing.js";
import {
  getRacersByIds,
  getTeam,
  getTeamRacer,
  listTeamRacers,
  saveTeam,
  type TeamRacerView,
} from "./teams.js";
import { createAccount } from "./users.js";

let h: DbHandle;
let pool: TeamRacerView[];
let start: Date;
/** A moment well before the lock of round 1. */
let early: Date;
let n = 0;

async function player() {
  n += 1;
  return createAccount(h.db, {
    email: `team${n}@example.com`,
    username: `team_${n}`,
    passwordHash: "test:unusable",
  });
}

/** A valid team: 2 Pro Women, 1 junior man, 3 of the cheapest pro men. */
function validTeam(offset = 0): number[] {
  const cheapest = (pred: (r: TeamRacerView) => boolean) =>
    pool.filter(pred).sort((a, b) => a.price - b.price || a.id - b.id);
  const women = cheapest((r) => r.category === "Pro Women").slice(offset, offset + 2);
  const junior = cheapest((r) => r.category === "17-18 Men").slice(offset, offset + 1);
  const men = cheapest((r) => r.category === "Pro Men").slice(offset, offset + 3);
  return [...women, ...junior, ...men].map((r) => r.id);
}

beforeAll(async () => {
  h = await createTestDb({ seed: true });
  pool = await listTeamRacers(h.db, 5);
  const [round1] = await h.db.select().from(events).where(eq(events.id, 5));
  start = round1!.startsAt;
  early = new Date(start.getTime() - LOCK_MS - 7 * 86_400_000);
});
afterAll(() => h.close());

describe("listTeamRacers / getTeamRacer", () => {
  it("lists the event's racers by category, ranked first, with the fields the builder shows", async () => {
    expect(pool.length).toBeGreaterThanOrEqual(80);
    expect(pool.every((r) => r.gameId === 5)).toBe(true);
    const proMen = pool.filter((r) => r.category === "Pro Men");
    const ranks = proMen.map((r) => r.rank2024).filter((x) => x > 0);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    expect(Object.keys(pool[0]!).sort()).toEqual(
      [
        "category",
        "firstName",
        "gameId",
        "id",
        "lastName",
        "origin",
        "pickedByPercent",
        "picture",
        "price",
        "rank2024",
        "totalPoint2024",
      ].sort(),
    );
    expect(await listTeamRacers(h.db, 6)).toEqual([]);
  });

  it("finds one racer only within its event", async () => {
    const r = pool[3]!;
    expect(await getTeamRacer(h.db, 5, r.id)).toEqual(r);
    expect(await getTeamRacer(h.db, 6, r.id)).toBeUndefined();
    expect(await getTeamRacer(h.db, 5, Number.NaN)).toBeUndefined();
  });

  it("looks racers up by id, ignoring duplicates and impossible ids", async () => {
    const ids = [pool[0]!.id, pool[0]!.id, -3, 0, 1.5, pool[1]!.id];
    const found = await getRacersByIds(h.db, ids);
    expect(found.map((r) => r.id).sort()).toEqual([pool[0]!.id, pool[1]!.id].sort());
    expect(await getRacersByIds(h.db, [])).toEqual([]);
  });
});

describe("saveTeam", () => {
  it("saves a valid team in slot order, then edits it (version bumps, one team per event)", async () => {
    const u = await player();
    expect(await getTeam(h.db, u.id, 5)).toBeNull();

    const first = validTeam();
    const saved = await saveTeam(h.db, { userId: u.id, eventId: 5, racerIds: first, now: early });
    expect(saved.ok).toBe(true);
    if (!saved.ok) return;
    expect(saved.team.racers.map((r) => r.id)).toEqual(first);
    expect(saved.team.version).toBe(1);
    const cost = first.reduce((s, id) => s + pool.find((r) => r.id === id)!.price, 0);
    expect(saved.cost).toBe(cost);
    expect(saved.bank).toBe(BUDGET - cost);

    const got = await getTeam(h.db, u.id, 5);
    expect(got?.racers.map((r) => r.id)).toEqual(first);
    const racer0 = pool.find((r) => r.id === first[0])!;
    expect(got?.racers[0]).toEqual({ ...racer0, priceNow: racer0.price });

    const second = validTeam(1).reverse();
    const later = new Date(early.getTime() + 60_000);
    const edited = await saveTeam(h.db, { userId: u.id, eventId: 5, racerIds: second, now: later });
    expect(edited.ok && edited.team.version).toBe(2);
    const after = await getTeam(h.db, u.id, 5);
    expect(after?.racers.map((r) => r.id)).toEqual(second);
    expect(after?.id).toBe(got?.id);
    expect(after?.updatedAt.getTime()).toBe(later.getTime());
    expect(await h.db.select().from(teams).where(eq(teams.userId, u.id))).toHaveLength(1);
    expect(
      await h.db.select().from(teamRacers).where(eq(teamRacers.teamId, after!.id)),
    ).toHaveLength(6);
  });

  it("keeps teams per player: one player's save never touches another's", async () => {
    const a = await player();
    const b = await player();
    await saveTeam(h.db, { userId: a.id, eventId: 5, racerIds: validTeam(), now: early });
    await saveTeam(h.db, { userId: b.id, eventId: 5, racerIds: validTeam(2), now: early });
    expect((await getTeam(h.db, a.id, 5))?.racers.map((r) => r.id)).toEqual(validTeam());
    expect((await getTeam(h.db, b.id, 5))?.racers.map((r) => r.id)).toEqual(validTeam(2));
  });

  it("refuses every broken rule with the rules' issues and changes nothing", async () => {
    const u = await player();
    const team = validTeam();
    await saveTeam(h.db, { userId: u.id, eventId: 5, racerIds: team, now: early });
    const before = await getTeam(h.db, u.id, 5);

    const men = pool.filter((r) => r.category === "Pro Men").map((r) => r.id);
    const women = pool.filter((r) => isFemale(r.category) && !isJunior(r.category));
    const juniors = pool.filter((r) => isJunior(r.category) && !isFemale(r.category));
    const priciest = [...pool].sort((a, b) => b.price - a.price);
    const overBudget = [
      ...priciest.filter((r) => r.category === "Pro Women").slice(0, 2),
      ...priciest.filter((r) => r.category === "17-18 Men").slice(0, 1),
      ...priciest.filter((r) => r.category === "Pro Men").slice(0, 3),
    ].map((r) => r.id);
    const cases: [number[], string][] = [
      [team.slice(0, 5), "size"],
      [[...team, men.at(-1)!], "size"],
      [[...men.slice(0, 5), juniors[0]!.id], "female"],
      [[...men.slice(0, 4), women[0]!.id, women[1]!.id], "junior"],
      [[...team.slice(0, 5), team[0]!], "duplicate"],
      [[...team.slice(0, 5), 987_654], "unknown-racer"],
      [overBudget, "budget"],
      [[], "size"],
    ];
    for (const [racerIds, code] of cases) {
      const r = await saveTeam(h.db, { userId: u.id, eventId: 5, racerIds, now: early });
      expect(r.ok, `${code}: ${racerIds}`).toBe(false);
      if (r.ok) continue;
      expect(r.reason).toBe("invalid");
      expect(r.issues.map((i) => i.code)).toContain(code);
    }
    expect(await getTeam(h.db, u.id, 5)).toEqual(before);
  });

  it("refuses racers of another event, and an invalid first save leaves no team behind", async () => {
    const [other] = await h.db
      .insert(racers)
      .values({
        gameId: 6,
        category: "Pro Women",
        firstName: "Other",
        lastName: "Event",
        nameKey: "other|event",
        price: 50_000,
      })
      .returning();
    const u = await player();
    const ids = [...validTeam().slice(0, 5), other!.id];
    const r = await saveTeam(h.db, { userId: u.id, eventId: 5, racerIds: ids, now: early });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.issues.map((i) => i.code)).toContain("wrong-event");
    expect(await getTeam(h.db, u.id, 5)).toBeNull();
    expect(await h.db.select().from(teams).where(eq(teams.userId, u.id))).toEqual([]);
  });

  it("uses prices from the database: a price raised after the draft is what counts", async () => {
    const u = await player();
    const team = validTeam();
    const [target] = await h.db.select().from(racers).where(eq(racers.id, team[5]!));
    await h.db.update(racers).set({ price: BUDGET }).where(eq(racers.id, team[5]!));
    try {
      const r = await saveTeam(h.db, { userId: u.id, eventId: 5, racerIds: team, now: early });
      expect(!r.ok && r.issues.map((i) => i.code)).toEqual(["budget"]);
    } finally {
      await h.db.update(racers).set({ price: target!.price }).where(eq(racers.id, team[5]!));
    }
  });

  it("locks exactly 12 hours before the start: 12 h + 1 ms before is accepted, 12 h is not", async () => {
    const u = await player();
    const lock = lockTime({ startsAt: start });
    expect(lock.getTime()).toBe(start.getTime() - LOCK_MS);

    const justBefore = new Date(lock.getTime() - 1);
    const ok = await saveTeam(h.db, {
      userId: u.id,
      eventId: 5,
      racerIds: validTeam(),
      now: justBefore,
    });
    expect(ok.ok).toBe(true);

    for (const now of [lock, new Date(lock.getTime() + 1), start, () => lock]) {
      const r = await saveTeam(h.db, { userId: u.id, eventId: 5, racerIds: validTeam(1), now });
      expect(r).toEqual({ ok: false, reason: "locked", issues: [] });
    }
    expect((await getTeam(h.db, u.id, 5))?.racers.map((r) => r.id)).toEqual(validTeam());
  });

  it("reads a clock function inside the transaction", async () => {
    const u = await player();
    let reads = 0;
    const r = await saveTeam(h.db, {
      userId: u.id,
      eventId: 5,
      racerIds: validTeam(),
      now: () => {
        reads += 1;
        return early;
      },
    });
    expect(r.ok).toBe(true);
    expect(reads).toBe(1);
  });

  it("refuses closed, archived, frozen and unknown events", async () => {
    const u = await player();
    const valid = validTeam();
    expect(await saveTeam(h.db, { userId: u.id, eventId: 6, racerIds: valid, now: early })).toEqual(
      { ok: false, reason: "not-open", issues: [] },
    );
    expect(await saveTeam(h.db, { userId: u.id, eventId: 1, racerIds: valid, now: early })).toEqual(
      { ok: false, reason: "not-open", issues: [] },
    );
    for (const eventId of [999, Number.NaN, 2 ** 60]) {
      expect(await saveTeam(h.db, { userId: u.id, eventId, racerIds: valid, now: early })).toEqual({
        ok: false,
        reason: "not-found",
        issues: [],
      });
    }

    await h.db.update(events).set({ frozenAt: early }).where(eq(events.id, 5));
    try {
      expect(
        await saveTeam(h.db, { userId: u.id, eventId: 5, racerIds: valid, now: early }),
      ).toEqual({ ok: false, reason: "locked", issues: [] });
    } finally {
      await h.db.update(events).set({ frozenAt: null }).where(eq(events.id, 5));
    }
    expect(await getTeam(h.db, u.id, 5)).toBeNull();
  });

  it("refuses an oversized request without looking every id up", async () => {
    const u = await player();
    const ids = Array.from({ length: 500 }, (_, i) => i + 1);
    const r = await saveTeam(h.db, { userId: u.id, eventId: 5, racerIds: ids, now: early });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.issues.map((i) => i.code)).toContain("size");
  });
});
