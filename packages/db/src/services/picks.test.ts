/**
 * "Picked by" counts (docs/decisions/0160): an open round's from its competition's teams, every
 * time the count runs; a frozen round's from its frozen teams, final; the share every racer list
 * and racer page shows, without counting teams per request.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { DbHandle } from "../client.js";
import { eventPicks, events, racers } from "../schema/index.js";
import { createTestDb, putTeam } from "../testing.js";
import { freezeEvent } from "./freeze.js";
import { countOpenPicks } from "./picks.js";
import { getRacerProfile } from "./profiles.js";
import { listPublicRacers } from "./public-api.js";
import { makePlayers } from "./scoring.fixtures.js";

let h: DbHandle;
beforeAll(async () => {
  h = await createTestDb({ seed: true });
});
afterAll(() => h.close());

const picksOf = async (eventId: number) =>
  (await h.db.select().from(eventPicks).where(eq(eventPicks.eventId, eventId)))[0];
const pickedBy = async (racerId: number) =>
  (await h.db.select({ n: racers.pickedBy }).from(racers).where(eq(racers.id, racerId)))[0]?.n;

it("counts an open round's picks from the teams, then the frozen teams at the lock, final", async () => {
  const round1 = (await listPublicRacers(h.db, 5)).slice(0, 3);
  const [a, b, c, d] = round1.map((r) => r.id);
  const [ann, bob, cy, dee] = await makePlayers(h.db, ["ann", "bob", "cy", "dee"]);
  await putTeam(h.db, ann!.id, 5, [a!, b!]);
  await putTeam(h.db, bob!.id, 5, [a!]);
  await putTeam(h.db, cy!.id, 5, [a!, c!]);
  await putTeam(h.db, dee!.id, 5, [b!]);
  expect(d).toBeUndefined();

  // Before any count: no share (not 0 %: nobody counted yet).
  expect((await listPublicRacers(h.db, 5)).find((r) => r.id === a)?.pickedByPercent).toBeNull();

  const now = new Date("2027-04-01T10:00:00Z");
  const counted = await countOpenPicks(h.db, now);
  expect(counted).toContainEqual({ eventId: 5, teams: 4 });
  expect(await picksOf(5)).toMatchObject({ teams: 4, final: false, countedAt: now });
  expect([await pickedBy(a!), await pickedBy(b!), await pickedBy(c!)]).toEqual([3, 2, 1]);
  const shares = new Map(
    (await listPublicRacers(h.db, 5)).map((r) => [r.id, r.pickedByPercent] as const),
  );
  expect([shares.get(a!), shares.get(b!), shares.get(c!)]).toEqual([75, 50, 25]);
  // A racer nobody holds: 0 %, counted.
  const other = (await listPublicRacers(h.db, 5)).find((r) => ![a, b, c].includes(r.id));
  expect(other?.pickedByPercent).toBe(0);

  // The racer page reads the same counts, and no team is counted for it.
  const profile = await getRacerProfile(h.db, a!, {
    picks: () => Promise.reject(new Error("counted per request")),
    teams: () => Promise.reject(new Error("counted per request")),
  });
  expect(profile?.pickedByPercent).toBe(75);
  expect(profile?.events.find((e) => e.eventId === 5)).toMatchObject({ pickedBy: 3, teams: 4 });

  // Dee drops her racer after the count: the share moves at the next count only.
  await putTeam(h.db, dee!.id, 5, [c!]);
  expect(await pickedBy(b!)).toBe(2);

  // The lock: counted from the frozen teams, final; the open-round count leaves it alone after.
  const [e5] = await h.db.select().from(events).where(eq(events.id, 5));
  const lock = new Date(e5!.startsAt.getTime() - 12 * 3600_000);
  await freezeEvent(h.db, 5, lock);
  expect(await picksOf(5)).toMatchObject({ teams: 4, final: true });
  expect([await pickedBy(a!), await pickedBy(b!), await pickedBy(c!)]).toEqual([3, 1, 2]);
  const later = await countOpenPicks(h.db, new Date(lock.getTime() + 60_000));
  expect(later.map((x) => x.eventId)).not.toContain(5);
  expect(await picksOf(5)).toMatchObject({ final: true });
});
