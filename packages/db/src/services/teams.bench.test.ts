import { LOCK_MS } from "@game/core";
import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "../client.js";
import { events, frozenTeamRacers, frozenTeams, racers } from "../schema/index.js";
import { createTestDb, setRuleOptions } from "../testing.js";
import { freezeEvent } from "./freeze.js";
import { getPlayerProfile } from "./profiles.js";
import { putResults } from "./scoring.fixtures.js";
import { settleEvent } from "./scoring.js";
import { getTeam, listTeamRacers, saveTeam, type TeamRacerView } from "./teams.js";
import { createAccount } from "./users.js";

/* The bench rider (docs/decisions/0169): the slot after the starters, frozen apart from them. */

let h: DbHandle;
let pool: TeamRacerView[];
let early: Date;
let n = 0;

async function player() {
  n += 1;
  return createAccount(h.db, {
    email: `bench${n}@example.com`,
    username: `bench_${n}`,
    passwordHash: "test:unusable",
  });
}

const cheapest = (category: string, k: number, skip = 0) =>
  pool
    .filter((r) => r.category === category)
    .sort((a, b) => a.price - b.price || a.id - b.id)
    .slice(skip, skip + k)
    .map((r) => r.id);
const starters = () => [
  ...cheapest("Pro Women", 2),
  ...cheapest("17-18 Men", 1),
  ...cheapest("Pro Men", 3),
];

const setBench = (on: boolean) => setRuleOptions(h.db, 5, { bench: on });

beforeAll(async () => {
  h = await createTestDb({ seed: true });
  pool = await listTeamRacers(h.db, 5);
  const [round1] = await h.db.select().from(events).where(eq(events.id, 5));
  early = new Date(round1!.startsAt.getTime() - LOCK_MS - 7 * 86_400_000);
});
afterAll(() => h.close());

describe("a team's bench rider", () => {
  it("is saved as the seventh racer, read back, and refused where the rules have no bench", async () => {
    const p = await player();
    const bench = cheapest("Pro Men", 1, 3)[0]!;
    const ids = [...starters(), bench];
    await setBench(false);
    const refused = await saveTeam(h.db, { userId: p.id, eventId: 5, racerIds: ids, now: early });
    expect(refused).toMatchObject({
      ok: false,
      issues: [{ code: "size", message: "A team needs exactly 6 riders (you have 7)." }],
    });
    await setBench(true);
    const saved = await saveTeam(h.db, { userId: p.id, eventId: 5, racerIds: ids, now: early });
    expect(saved.ok && saved.team.benchId).toBe(bench);
    const team = await getTeam(h.db, p.id, 5);
    expect(team!.racers.map((r) => r.id)).toEqual(ids);
    expect(team!.benchId).toBe(bench);
  });

  it("does not count for the limits, and cannot be captain", async () => {
    const p = await player();
    await setBench(true);
    // A woman on the bench leaves one woman among the starters.
    const ids = [
      cheapest("Pro Women", 1)[0]!,
      ...cheapest("17-18 Men", 1),
      ...cheapest("Pro Men", 4),
      cheapest("Pro Women", 1, 1)[0]!,
    ];
    const res = await saveTeam(h.db, { userId: p.id, eventId: 5, racerIds: ids, now: early });
    expect(res).toMatchObject({ ok: false, issues: [{ code: "female" }] });
    await setRuleOptions(h.db, 5, { captain: true });
    const ok = [...starters(), cheapest("Pro Men", 1, 3)[0]!];
    const benchCaptain = await saveTeam(h.db, {
      userId: p.id,
      eventId: 5,
      racerIds: ok,
      captainId: ok[6]!,
      now: early,
    });
    expect(benchCaptain).toMatchObject({
      ok: false,
      issues: [{ code: "captain", message: "Your captain must be one of your riders." }],
    });
    await setRuleOptions(h.db, 5, { captain: false });
  });

  it("is frozen apart from the starters, and picked like them", async () => {
    const p = await player();
    await setBench(true);
    const bench = cheapest("Pro Men", 1, 4)[0]!;
    const ids = [...starters(), bench];
    await saveTeam(h.db, { userId: p.id, eventId: 5, racerIds: ids, now: early });
    await freezeEvent(h.db, 5, early);
    const [frozen] = await h.db
      .select()
      .from(frozenTeams)
      .where(sql`${frozenTeams.eventId} = 5 and ${frozenTeams.userId} = ${p.id}`);
    expect(frozen!.benchRacerId).toBe(bench);
    expect(frozen!.racerIds).toEqual(starters().sort((a, b) => a - b));
    const rows = await h.db
      .select()
      .from(frozenTeamRacers)
      .where(sql`${frozenTeamRacers.eventId} = 5 and ${frozenTeamRacers.userId} = ${p.id}`);
    expect(rows.map((r) => r.racerId).sort((a, b) => a - b)).toEqual(
      [...ids].sort((a, b) => a - b),
    );
    expect((await getTeam(h.db, p.id, 5))!.benchId).toBe(bench);

    // A starter does not start: the player's page says who came on, for whom, and why.
    const out = starters()[4]!;
    const finished = await h.db.select().from(racers).where(inArray(racers.id, ids));
    await putResults(
      h.db,
      5,
      finished.map((r, i) =>
        r.id === out
          ? { racerId: r.id, category: r.category, status: "DNS" as const, position: null }
          : { racerId: r.id, category: r.category, status: "finished" as const, position: i + 1 },
      ),
    );
    await settleEvent(h.db, 5, { now: early });
    const profile = await getPlayerProfile(h.db, p.username, early);
    const team = profile!.teams[5]!;
    expect(team.find((r) => r.racerId === bench)).toMatchObject({ bench: true, autoSub: "in" });
    expect(team.find((r) => r.racerId === out)).toMatchObject({ bench: false, autoSub: "out" });
    expect(team.filter((r) => r.autoSub === null)).toHaveLength(5);
    const benchPoints = team.find((r) => r.racerId === bench)!.points;
    const others = team.filter((r) => !r.bench && r.racerId !== out);
    expect(profile!.events[0]!.points).toBe(
      benchPoints + others.reduce((sum, r) => sum + r.points, 0),
    );
    await setBench(false);
  });
});
