/**
 * Purchase prices: a team keeps what it paid for each racer, so a price change (an admin's
 * re-import, the next round's repricing) never makes a saved team invalid or its bank negative.
 */
import { BUDGET, LOCK_MS, sellingPrice } from "@game/core";
import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { DbHandle } from "../client.js";
import { events, racers } from "../schema/index.js";
import { createTestDb } from "../testing.js";
import { cliActor } from "./audit.js";
import { importRacers } from "./racers-import.js";
import { getTeam, listTeamRacers, saveTeam, type TeamRacerView } from "./teams.js";
import { createAccount } from "./users.js";

let h: DbHandle;
let pool: TeamRacerView[];
let early: Date;

beforeAll(async () => {
  h = await createTestDb({ seed: true });
  pool = await listTeamRacers(h.db, 5);
  const [round1] = await h.db.select().from(events).where(eq(events.id, 5));
  early = new Date(round1!.startsAt.getTime() - LOCK_MS - 86_400_000);
});
afterAll(() => h.close());

/** The most expensive valid team: 2 Pro Women, 1 junior man, 3 pro men, dearest first. */
function dearTeam(): TeamRacerView[] {
  const dearest = (category: string, n: number) =>
    pool
      .filter((r) => r.category === category)
      .sort((a, b) => b.price - a.price || a.id - b.id)
      .slice(0, n);
  const picked = [...dearest("Pro Women", 2), ...dearest("17-18 Men", 1)];
  // Fill with pro men that still fit the budget.
  let cost = picked.reduce((s, r) => s + r.price, 0);
  for (const r of pool
    .filter((x) => x.category === "Pro Men")
    .sort((a, b) => b.price - a.price || a.id - b.id)) {
    if (picked.length === 6) break;
    const rest = 6 - picked.length - 1;
    if (cost + r.price + rest * 50_000 <= BUDGET) {
      picked.push(r);
      cost += r.price;
    }
  }
  return picked;
}

it("keeps a saved team valid after prices rise; kept racers cost what was paid, new ones today's price", async () => {
  const user = await createAccount(h.db, {
    email: "paid@example.com",
    username: "paid",
    passwordHash: "test:unusable",
  });
  const team = dearTeam();
  const ids = team.map((r) => r.id);
  const saved = await saveTeam(h.db, { userId: user.id, eventId: 5, racerIds: ids, now: early });
  expect(saved.ok).toBe(true);
  const cost = team.reduce((s, r) => s + r.price, 0);

  // The admin re-imports every price 100,000 higher while the round is open.
  await h.db
    .update(racers)
    .set({ price: sql`${racers.price} + ${100_000}` })
    .where(eq(racers.gameId, 5));

  const view = await getTeam(h.db, user.id, 5);
  expect(view!.racers.map((r) => r.price)).toEqual(team.map((r) => r.price));
  expect(view!.racers.map((r) => r.priceNow)).toEqual(team.map((r) => r.price + 100_000));
  expect(view!.draft).toBe(false);

  // Saving the same team again is still within budget: it is valued at the prices paid.
  const again = await saveTeam(h.db, { userId: user.id, eventId: 5, racerIds: ids, now: early });
  expect(again.ok).toBe(true);
  if (again.ok) expect(again.bank).toBe(BUDGET - cost);

  // Selling one racer refunds its selling price (what was paid plus half the rise; decision
  // 0141); the replacement costs today's price.
  const sold = team[5]!;
  const gain = sellingPrice(sold.price, sold.price + 100_000) - sold.price;
  expect(gain).toBe(50_000);
  const [replacement] = await h.db
    .select()
    .from(racers)
    .where(eq(racers.gameId, 5))
    .then((rows) =>
      rows
        .filter((r) => r.category === sold.category && !ids.includes(r.id))
        .sort((a, b) => a.price - b.price),
    );
  const swapped = [...ids.slice(0, 5), replacement!.id];
  const result = await saveTeam(h.db, {
    userId: user.id,
    eventId: 5,
    racerIds: swapped,
    now: early,
  });
  const expectedCost = cost - sold.price + replacement!.price;
  if (expectedCost <= BUDGET + gain) {
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.bank).toBe(BUDGET + gain - expectedCost);
    const after = await getTeam(h.db, user.id, 5);
    expect(after!.racers.map((r) => r.price)).toEqual([
      ...team.slice(0, 5).map((r) => r.price),
      replacement!.price,
    ]);
  } else {
    expect(result).toMatchObject({ ok: false, reason: "invalid" });
    return;
  }

  // Buying back a racer sold earlier costs today's price, not the old one; the gain stays.
  const back = await saveTeam(h.db, { userId: user.id, eventId: 5, racerIds: ids, now: early });
  const now = await h.db.select().from(racers).where(inArray(racers.id, ids));
  const nowCost =
    team.slice(0, 5).reduce((s, r) => s + r.price, 0) + now.find((r) => r.id === sold.id)!.price;
  expect(nowCost).toBe(cost + 100_000);
  expect(back.ok).toBe(nowCost <= BUDGET + gain);
  if (back.ok) expect(back.bank).toBe(BUDGET + gain - nowCost);
});

it("tells the admin how many saved teams a price change in a racer import touches", async () => {
  const racer = dearTeam()[0]!;
  const [now] = await h.db.select().from(racers).where(eq(racers.id, racer.id));
  const csv = `Category,First Name,Last Name,Game ID,Price\n${now!.category},${now!.firstName},${now!.lastName},5,${now!.price + 10_000}\n`;
  const holders = await h.db.execute(
    sql`select count(distinct team_id)::int as n from team_racers
      where person_id = (select person_id from racers where id = ${racer.id})`,
  );
  const n = ((holders as { rows?: { n: number }[] }).rows ??
    (holders as unknown as { n: number }[]))[0]!.n;
  expect(n).toBeGreaterThan(0);
  const dry = await importRacers(h.db, { csv, dryRun: true, actor: cliActor("admin") });
  expect(dry.teamsTouched).toBe(n);
  const same = `Category,First Name,Last Name,Game ID,Price\n${now!.category},${now!.firstName},${now!.lastName},5,${now!.price}\n`;
  expect(
    (await importRacers(h.db, { csv: same, dryRun: true, actor: cliActor("admin") })).teamsTouched,
  ).toBe(0);
});
