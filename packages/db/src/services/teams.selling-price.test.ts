/**
 * Selling prices (docs/decisions/0141): selling a racer refunds the lower of the price paid and
 * today's price, plus half of any rise. Refunding the price paid made a fall a farm: alice's
 * $12,000 bank became $15,000 by selling Aaron Gwin (paid $60,000, now $57,000) and buying him
 * back in the next save.
 */
import { BUDGET, LOCK_MS } from "@game/core";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, expect, it } from "vitest";
import type { DbHandle } from "../client.js";
import { events, racers } from "../schema/index.js";
import { createTestDb } from "../testing.js";
import { cliActor } from "./audit.js";
import { advanceSeason } from "./season.js";
import { getTeam, listTeamRacers, saveTeam, type TeamRacerView } from "./teams.js";
import { createAccount } from "./users.js";

let h: DbHandle;
let pool: TeamRacerView[];
let round1Start: Date;

beforeEach(async () => {
  h = await createTestDb({ seed: true });
  pool = await listTeamRacers(h.db, 5);
  const [round1] = await h.db.select().from(events).where(eq(events.id, 5));
  round1Start = round1!.startsAt;
});
afterEach(() => h.close());

const racer = (name: string) => pool.find((r) => `${r.firstName} ${r.lastName}` === name)!;

/** Alice's team: $988,000 at the seed's prices, so a $12,000 bank. */
const ALICE = [
  "Loïc Bruni",
  "Troy Brosnan",
  "Aaron Gwin",
  "Louise-Anna Ferguson",
  "Lisa Bouladou",
  "Jon Mozell",
];

async function setPrice(id: number, price: number) {
  await h.db.update(racers).set({ price }).where(eq(racers.id, id));
}

async function alice() {
  const user = await createAccount(h.db, {
    email: "alice@example.com",
    username: "alice",
    passwordHash: "test:unusable",
  });
  const ids = ALICE.map((name) => racer(name).id);
  const save = (racerIds: number[]) =>
    saveTeam(h.db, {
      userId: user.id,
      eventId: 5,
      racerIds,
      now: new Date(round1Start.getTime() - LOCK_MS - 86_400_000),
    });
  expect(await save(ids)).toMatchObject({ ok: true, bank: 12_000 });
  /** A pro man not on the team, the cheapest or the dearest within `max`. */
  const spare = (max = Number.POSITIVE_INFINITY, dearest = false) =>
    pool
      .filter((r) => r.category === "Pro Men" && !ids.includes(r.id) && r.price <= max)
      .sort((a, b) => (dearest ? b.price - a.price : a.price - b.price) || a.id - b.id)[0]!;
  const swap = (out: number, into: number) => ids.map((id) => (id === out ? into : id));
  return { user, ids, save, spare, swap };
}

it("selling a racer whose price fell and buying him back never raises the bank", async () => {
  const { user, ids, save, spare, swap } = await alice();
  const gwin = racer("Aaron Gwin");
  const cheap = spare();
  await setPrice(gwin.id, 57_000);

  // Kept, he still counts at what was paid.
  expect(await save(ids)).toMatchObject({ ok: true, bank: 12_000 });
  // Sold, he refunds today's price, the lower one ($57,000, not $60,000).
  expect(await save(swap(gwin.id, cheap.id))).toMatchObject({
    ok: true,
    bank: 12_000 + 57_000 - cheap.price,
  });
  // Bought back at today's price: the bank is where it was, not $3,000 up.
  expect(await save(ids)).toMatchObject({ ok: true, bank: 12_000 });
  const team = await getTeam(h.db, user.id, 5);
  expect(team!.racers.find((r) => r.id === gwin.id)).toMatchObject({
    price: 57_000,
    priceNow: 57_000,
  });
  expect(team!.budget).toBe(BUDGET - 3_000);

  // A $320,000 racer who did not finish (-10 %): selling and buying back, round after round,
  // never pays either.
  const bruni = racer("Loïc Bruni");
  await setPrice(bruni.id, 288_000);
  for (let i = 0; i < 3; i++) {
    expect(await save(swap(bruni.id, cheap.id))).toMatchObject({
      ok: true,
      bank: 12_000 + 288_000 - cheap.price,
    });
    expect(await save(ids)).toMatchObject({ ok: true, bank: 12_000 });
  }
});

it("shares a rise: selling refunds the price paid plus half the rise, rounded down to $1,000", async () => {
  const { user, ids, save, spare, swap } = await alice();
  const gwin = racer("Aaron Gwin");
  const cheap = spare();
  // +$7,000: half is $3,500, so selling him gains $3,000.
  await setPrice(gwin.id, 67_000);
  expect(await save(ids)).toMatchObject({ ok: true, bank: 12_000 });
  expect(await save(swap(gwin.id, cheap.id))).toMatchObject({
    ok: true,
    bank: 12_000 + 63_000 - cheap.price,
  });
  // Buying him back costs today's $67,000: the other half of the rise is gone.
  expect(await save(ids)).toMatchObject({ ok: true, bank: 8_000 });
  expect((await getTeam(h.db, user.id, 5))!.budget).toBe(BUDGET + 3_000);
});

it("judges a save by the selling price: a loss taken cannot be spent", async () => {
  const { ids, save, swap } = await alice();
  const gwin = racer("Aaron Gwin");
  const maples = racer("Dylan Maples");
  expect(maples.price).toBe(70_000);
  await setPrice(gwin.id, 57_000);
  // Selling Gwin leaves $12,000 + $57,000 = $69,000: not enough for a $70,000 rider.
  expect(await save(swap(gwin.id, maples.id))).toMatchObject({ ok: false, reason: "invalid" });
  expect(await save(ids)).toMatchObject({ ok: true, bank: 12_000 });
});

it("carries the team's budget into the next round: what a sale gained stays gained", async () => {
  const { user, save, spare, swap } = await alice();
  const gwin = racer("Aaron Gwin");
  // Gwin up to $100,000: selling him gains half the $40,000 rise.
  await setPrice(gwin.id, 100_000);
  const bought = spare(92_000, true);
  expect(bought.price).toBeGreaterThan(72_000);
  const kept = swap(gwin.id, bought.id);
  const saved = await save(kept);
  expect(saved).toMatchObject({ ok: true, bank: 92_000 - bought.price });
  // The prices paid now add up to more than $1,000,000; the team's budget says why that fits.
  const paid = (await getTeam(h.db, user.id, 5))!.racers.reduce((s, r) => s + r.price, 0);
  expect(paid).toBeGreaterThan(BUDGET);

  const summary = await advanceSeason(h.db, {
    now: new Date(round1Start.getTime() + 86_400_000),
    actor: cliActor("admin"),
    force: true,
  });
  const next = await getTeam(h.db, user.id, summary.to.id);
  expect(next!.draft).toBe(false);
  expect(next!.budget).toBe(BUDGET + 20_000);
  expect(next!.racers.reduce((s, r) => s + r.price, 0)).toBe(paid);
});
