/**
 * A whole second season, as an admin and two players live it: the 2027 series is played to its
 * last round (one team per player, kept from round to round, frozen at each lock, never copied),
 * then a 2028 series is created, its round 1 starts from 2027's racers, players build 2028
 * teams beside their 2027 ones, and the 2027 results and tables are still there.
 */
import { LOCK_MS } from "@game/core";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type DbHandle, rowsOf } from "../client.js";
import { resultsCsv } from "../fixtures/results-csv.js";
import { competitions, eventScores, events, racers, teams } from "../schema/index.js";
import { createTestDb } from "../testing.js";
import { setEventStatus } from "./admin-events.js";
import { cliActor } from "./audit.js";
import { copyRacers, createCompetition, createRound, getCompetition } from "./competitions.js";
import { createLeague, joinByCode, listLeaguesForUser, renewLeague } from "./leagues.js";
import { getPlayerProfile } from "./profiles.js";
import { getPlayerRankingPage } from "./rankings.js";
import { importResults } from "./results.js";
import { makePlayers, referenceFromDb, storedSettlement } from "./scoring.fixtures.js";
import { settleEvent } from "./scoring.js";
import { advanceSeason, SeasonError } from "./season.js";
import { getTeam, listTeamRacers, saveTeam } from "./teams.js";

let h: DbHandle;
const actor = cliActor("admin");
let alice: { id: number; username: string };
let bob: { id: number; username: string };
let crew: number;
let crew2028: number;
const actorOf = (p: { id: number }) => ({ id: p.id, email: `p${p.id}@example.com` });

beforeAll(async () => {
  h = await createTestDb({ seed: true });
  const made = await makePlayers(h.db, ["Alice", "Bob"]);
  [alice, bob] = [made[0]!, made[1]!];
});
afterAll(() => h.close());

/** A valid team of the round's cheapest racers, shifted by `offset` within each category. */
async function cheapTeam(eventId: number, offset: number) {
  const pool = await listTeamRacers(h.db, eventId);
  const cheapest = (category: string, n: number) =>
    pool
      .filter((r) => r.category === category)
      .sort((a, b) => a.price - b.price || a.id - b.id)
      .slice(offset, offset + n);
  return [...cheapest("Pro Women", 2), ...cheapest("17-18 Men", 1), ...cheapest("Pro Men", 3)];
}

async function startOf(eventId: number) {
  const [e] = await h.db.select().from(events).where(eq(events.id, eventId));
  return e!.startsAt;
}

/** Imports a round's results after it ran (which freezes and settles it). */
async function play(eventId: number) {
  const field = await h.db
    .select({ firstName: racers.firstName, lastName: racers.lastName, category: racers.category })
    .from(racers)
    .where(eq(racers.gameId, eventId));
  const after = new Date((await startOf(eventId)).getTime() + 3_600_000);
  const r = await importResults(h.db, eventId, resultsCsv(field, { seed: eventId }), {
    now: after,
  });
  expect(r.ok).toBe(true);
  return after;
}

it("plays the 2027 series to its end with one team per player, never copied", async () => {
  const early = new Date((await startOf(5)).getTime() - LOCK_MS - 86_400_000);
  for (const [p, offset] of [
    [alice, 0],
    [bob, 1],
  ] as const) {
    const team = await cheapTeam(5, offset);
    const saved = await saveTeam(h.db, {
      userId: p.id,
      eventId: 5,
      racerIds: team.map((r) => r.id),
      now: early,
    });
    expect(saved.ok).toBe(true);
  }
  const teamRows = await h.db.select().from(teams);
  expect(teamRows).toHaveLength(2);
  // Alice's league plays the 2027 series.
  const made = await createLeague(h.db, actorOf(alice), "Crew");
  if (!made.ok) throw new Error(made.reason);
  crew = made.league.id;
  const joined = await joinByCode(h.db, actorOf(bob), made.league.joinCode);
  expect(joined.ok).toBe(true);

  // Rounds 1 to 4: played, then the series rolls on. Bob changes a racer before round 3.
  for (const round of [5, 6, 7, 8]) {
    const after = await play(round);
    const s = await advanceSeason(h.db, { now: after, actor });
    expect(s).toMatchObject({ competition: "pro-downhill-series-2027", carried: 2, drafts: 0 });
    if (round === 6) {
      const team = await getTeam(h.db, bob.id, 7);
      const pool = await listTeamRacers(h.db, 7);
      const kept = team!.racers.slice(0, 5).map((r) => r.id);
      const swap = pool.find(
        (r) =>
          r.category === "Pro Men" && !team!.racers.some((x) => x.id === r.id) && r.price < 90_000,
      )!;
      const saved = await saveTeam(h.db, {
        userId: bob.id,
        eventId: 7,
        racerIds: [...kept, swap.id],
        now: new Date((await startOf(7)).getTime() - LOCK_MS - 3_600_000),
      });
      expect(saved.ok).toBe(true);
    }
  }
  // Still the same two team rows: nothing was copied round after round.
  expect((await h.db.select().from(teams)).map((t) => t.id)).toEqual(teamRows.map((t) => t.id));
  const last = await play(9);
  await expect(advanceSeason(h.db, { now: last, actor })).rejects.toThrow(SeasonError);
  await expect(advanceSeason(h.db, { now: last, actor })).rejects.toThrow(
    /is the last round of Pro Downhill Series 2027/,
  );
  // Every round scored both players, from the team as it stood at each lock.
  const scores = await h.db.select().from(eventScores).orderBy(eventScores.eventId);
  expect(new Set(scores.map((s) => s.eventId))).toEqual(new Set([5, 6, 7, 8, 9]));
  expect(scores.filter((s) => s.userId === alice.id)).toHaveLength(5);
  expect((await getCompetition(h.db, "pro-downhill-series-2027", last))?.state).toBe("finished");
});

it("starts the 2028 series from 2027's racers beside it, and 2027 stays as it was", async () => {
  const now = new Date((await startOf(9)).getTime() + 86_400_000);
  const before2027 = rowsOf(
    await h.db.execute(sql`select event_id, user_id, points, rank from event_scores order by 1, 2`),
  );
  const series = await createCompetition(
    h.db,
    { name: "Pro Downhill Series 2028", discipline: "downhill", season: "2028" },
    actor,
    now,
  );
  const round1 = await createRound(
    h.db,
    {
      competition: series.slug,
      name: "Pro Downhill Series 2028 Round 1: Windrock",
      startsAt: new Date("2028-04-16T16:00:00Z"),
      location: "Windrock, Tennessee",
    },
    actor,
    { now },
  );
  const copied = await copyRacers(h.db, 9, round1.id, { actor, now });
  const field2027 = await h.db.select().from(racers).where(eq(racers.gameId, 9));
  expect(copied.copied).toBe(field2027.length);
  // The same people at their last prices: a racer's history runs across the years.
  const field2028 = await h.db.select().from(racers).where(eq(racers.gameId, round1.id));
  expect(field2028.map((r) => [r.personId, r.price]).sort()).toEqual(
    field2027.map((r) => [r.personId, r.price]).sort(),
  );
  await setEventStatus(h.db, round1.id, "open", actor);
  expect((await getCompetition(h.db, series.slug, now))?.state).toBe("live");

  // Alice renews her league into 2028 in one step: members carried, told by the caller.
  const [before] = (await listLeaguesForUser(h.db, actorOf(alice))).filter((l) => l.id === crew);
  expect(before).toMatchObject({
    competition: { slug: "pro-downhill-series-2027" },
    renewInto: { slug: "pro-downhill-series-2028" },
  });
  expect(await renewLeague(h.db, actorOf(bob), crew)).toMatchObject({ ok: false });
  const renewed = await renewLeague(h.db, actorOf(alice), crew);
  if (!renewed.ok) throw new Error(renewed.reason);
  expect(renewed).toMatchObject({
    league: { name: "Crew" },
    competition: { slug: "pro-downhill-series-2028" },
    members: [{ id: bob.id }],
  });
  crew2028 = renewed.league.id;
  expect(await renewLeague(h.db, actorOf(alice), crew)).toMatchObject({
    ok: false,
    reason: "renewed",
    message: "Crew has been renewed already.",
  });
  const views = await listLeaguesForUser(h.db, actorOf(bob));
  expect(
    views.filter((l) => l.name === "Crew").map((l) => [l.competition.slug, l.renewInto]),
  ).toEqual([
    ["pro-downhill-series-2027", null],
    ["pro-downhill-series-2028", null],
  ]);

  // Alice builds a 2028 team; her 2027 team is still hers.
  const team = await cheapTeam(round1.id, 0);
  const saved = await saveTeam(h.db, {
    userId: alice.id,
    eventId: round1.id,
    racerIds: team.map((r) => r.id),
    now,
  });
  expect(saved.ok).toBe(true);
  const hers = await h.db.select().from(teams).where(eq(teams.userId, alice.id));
  expect(hers).toHaveLength(2);
  expect((await getTeam(h.db, alice.id, 9))!.racers).toHaveLength(6);
  expect(await getTeam(h.db, bob.id, round1.id)).toBeNull();

  // 2027's results and tables are untouched; her page lists every round she played.
  expect(
    rowsOf(
      await h.db.execute(
        sql`select event_id, user_id, points, rank from event_scores order by 1, 2`,
      ),
    ),
  ).toEqual(before2027);
  const profile = await getPlayerProfile(h.db, alice.username);
  expect(profile!.events.map((e) => e.eventId)).toEqual([5, 6, 7, 8, 9]);
  const [r1] = await h.db
    .select()
    .from(events)
    .where(and(eq(events.id, round1.id), eq(events.competitionId, series.id)));
  expect(r1).toMatchObject({ round: 1, status: "open" });
});

it("each competition keeps its own table: 2028 from its first round, 2027's final table kept", async () => {
  const [round1] = await h.db
    .select()
    .from(events)
    .where(
      sql`${events.competitionId} = (select id from competitions where slug = 'pro-downhill-series-2028')`,
    );
  const tableOf = async (slug: string) =>
    rowsOf<{ user_id: number; points: number; rank: number }>(
      await h.db.execute(sql`select user_id, points, rank from season_standings
        where competition_id = (select id from competitions where slug = ${slug})
        order by position`),
    );
  const table2027 = await tableOf("pro-downhill-series-2027");
  const members = async (leagueId: number) =>
    rowsOf<{ user_id: number; score: number }>(
      await h.db.execute(sql`
        select m.user_id, coalesce(s.points, 0)::int as score
        from league_members m join leagues l on l.id = m.league_id
        left join season_standings s on s.competition_id = l.competition_id and s.user_id = m.user_id
        where m.league_id = ${leagueId} order by m.user_id`),
    );
  const crewFinal = await members(crew);
  expect(crewFinal.map((m) => m.score).sort()).toEqual(table2027.map((r) => r.points).sort());
  expect(table2027.map((r) => r.user_id).sort()).toEqual([alice.id, bob.id].sort());
  expect(await tableOf("pro-downhill-series-2028")).toEqual([]);
  const after = await play(round1!.id);
  // Only Alice has a 2028 team: 2028's table is her round 1 points alone; 2027's is kept.
  const [score] = await h.db
    .select()
    .from(eventScores)
    .where(and(eq(eventScores.eventId, round1!.id), eq(eventScores.userId, alice.id)));
  const table2028 = await tableOf("pro-downhill-series-2028");
  expect(table2028).toEqual([{ user_id: alice.id, points: score!.points, rank: 1 }]);
  expect(await tableOf("pro-downhill-series-2027")).toEqual(table2027);
  expect(await storedSettlement(h.db)).toEqual(await referenceFromDb(h.db));
  // The rankings show the latest settled round's competition by default, any other on demand.
  expect((await getPlayerRankingPage(h.db)).rows.map((r) => r.id)).toEqual([alice.id]);
  const [c2027] = await h.db
    .select({ id: competitions.id })
    .from(competitions)
    .where(eq(competitions.slug, "pro-downhill-series-2027"));
  expect(
    (await getPlayerRankingPage(h.db, { competitionId: c2027!.id })).rows.map((r) => r.points),
  ).toEqual(table2027.map((r) => r.points));
  // Her page lists both competitions, latest first, with her rank in each.
  const profile = await getPlayerProfile(h.db, alice.username);
  expect(profile!.competitions.map((c) => [c.slug, c.points])).toEqual([
    ["pro-downhill-series-2028", score!.points],
    ["pro-downhill-series-2027", table2027.find((r) => r.user_id === alice.id)!.points],
  ]);
  // A correction to 2027's last round recomputes 2027's table (the same facts, the same
  // table) and leaves 2028's as it is.
  await settleEvent(h.db, 9, { now: after });
  expect(await tableOf("pro-downhill-series-2028")).toEqual(table2028);
  expect(await tableOf("pro-downhill-series-2027")).toEqual(table2027);
  expect(await storedSettlement(h.db)).toEqual(await referenceFromDb(h.db));
  // The 2027 league keeps its final table; the 2028 one counts 2028 only.
  expect(await members(crew)).toEqual(crewFinal);
  expect(await members(crew2028)).toEqual(
    [
      { user_id: alice.id, score: score!.points },
      { user_id: bob.id, score: 0 },
    ].sort((a, b) => a.user_id - b.user_id),
  );
  // 2027's rounds keep their scores.
  const kept = await h.db
    .select()
    .from(eventScores)
    .where(sql`${eventScores.eventId} between 5 and 9`);
  expect(kept).toHaveLength(10);
});
