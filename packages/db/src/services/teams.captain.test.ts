import { LOCK_MS } from "@game/core";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "../client.js";
import { events, frozenTeams } from "../schema/index.js";
import { createTestDb, setRuleOptions } from "../testing.js";
import { freezeEvent } from "./freeze.js";
import { getTeam, listTeamRacers, saveTeam, type TeamRacerView } from "./teams.js";
import { createAccount } from "./users.js";

/* Captains (docs/decisions/0168): named on save, kept from round to round, frozen at the lock. */

let h: DbHandle;
let pool: TeamRacerView[];
let early: Date;
let n = 0;

async function player() {
  n += 1;
  return createAccount(h.db, {
    email: `captain${n}@example.com`,
    username: `captain_${n}`,
    passwordHash: "test:unusable",
  });
}

function validTeam(): number[] {
  const cheapest = (category: string, k: number) =>
    pool
      .filter((r) => r.category === category)
      .sort((a, b) => a.price - b.price || a.id - b.id)
      .slice(0, k);
  return [...cheapest("Pro Women", 2), ...cheapest("17-18 Men", 1), ...cheapest("Pro Men", 3)].map(
    (r) => r.id,
  );
}

const setCaptains = (on: boolean) => setRuleOptions(h.db, 5, { captain: on });

beforeAll(async () => {
  h = await createTestDb({ seed: true });
  pool = await listTeamRacers(h.db, 5);
  const [round1] = await h.db.select().from(events).where(eq(events.id, 5));
  early = new Date(round1!.startsAt.getTime() - LOCK_MS - 7 * 86_400_000);
});
afterAll(() => h.close());

describe("a team's captain", () => {
  it("is saved, read back, and replaced or dropped by the next save", async () => {
    await setCaptains(true);
    const p = await player();
    const ids = validTeam();
    const saved = await saveTeam(h.db, {
      userId: p.id,
      eventId: 5,
      racerIds: ids,
      captainId: ids[3]!,
      now: early,
    });
    expect(saved.ok && saved.team.captainId).toBe(ids[3]);
    expect((await getTeam(h.db, p.id, 5))!.captainId).toBe(ids[3]);

    await saveTeam(h.db, {
      userId: p.id,
      eventId: 5,
      racerIds: ids,
      captainId: ids[0]!,
      now: early,
    });
    expect((await getTeam(h.db, p.id, 5))!.captainId).toBe(ids[0]);
    await saveTeam(h.db, { userId: p.id, eventId: 5, racerIds: ids, now: early });
    expect((await getTeam(h.db, p.id, 5))!.captainId).toBeNull();
  });

  it("must be one of the team, and is refused where the rules have no captains", async () => {
    const p = await player();
    const ids = validTeam();
    const outsider = pool.find((r) => !ids.includes(r.id))!.id;
    await setCaptains(true);
    const off = await saveTeam(h.db, {
      userId: p.id,
      eventId: 5,
      racerIds: ids,
      captainId: outsider,
      now: early,
    });
    expect(off).toMatchObject({
      ok: false,
      reason: "invalid",
      issues: [{ code: "captain", message: "Your captain must be one of your riders." }],
    });
    await setCaptains(false);
    const none = await saveTeam(h.db, {
      userId: p.id,
      eventId: 5,
      racerIds: ids,
      captainId: ids[0]!,
      now: early,
    });
    expect(none).toMatchObject({
      ok: false,
      issues: [{ code: "captain", message: "This competition has no captains." }],
    });
    expect(await getTeam(h.db, p.id, 5)).toBeNull();
  });

  it("is frozen with the team at the lock, and the frozen round keeps it", async () => {
    await setCaptains(true);
    const p = await player();
    const ids = validTeam();
    await saveTeam(h.db, {
      userId: p.id,
      eventId: 5,
      racerIds: ids,
      captainId: ids[5]!,
      now: early,
    });
    await freezeEvent(h.db, 5, early);
    const [frozen] = await h.db
      .select()
      .from(frozenTeams)
      .where(sql`${frozenTeams.eventId} = 5 and ${frozenTeams.userId} = ${p.id}`);
    expect(frozen!.captainRacerId).toBe(ids[5]);
    expect((await getTeam(h.db, p.id, 5))!.captainId).toBe(ids[5]);
    await h.db.execute(sql`update events set frozen_at = null where id = 5`);
    await h.db.execute(sql`delete from frozen_teams where event_id = 5`);
    await h.db.execute(sql`delete from frozen_team_racers where event_id = 5`);
    await setCaptains(false);
  });
});
