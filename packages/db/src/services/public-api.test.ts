import { competitionRanks, LOCK_MS, leagueScore, pointsForPosition } from "@game/core";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "../client.js";
import {
  eventScores,
  events,
  frozenTeamRacers,
  partners,
  racers,
  teams,
  users,
} from "../schema/index.js";
import { createTestDb, setRuleOptions } from "../testing.js";
import { CLI_ACTOR } from "./audit.js";
import { copyRacers } from "./competitions.js";
import { freezeEvent } from "./freeze.js";
import { createLeague, joinByCode } from "./leagues.js";
import {
  getPartnerByKey,
  getPublicTeam,
  isPartnerOrigin,
  listPublicEvents,
  listPublicRacers,
  listPublicResults,
  PUBLIC_MAX_PAGE_SIZE,
  PUBLIC_PAGE_SIZE,
  publicLeagueRankings,
  publicPlayerRankings,
} from "./public-api.js";
import { importResults } from "./results.js";
import { putTeam } from "./scoring.fixtures.js";
import { saveTeam } from "./teams.js";
import { createAccount, type UserRow } from "./users.js";

let h: DbHandle;
let n = 0;
/** Round 1 (event 5) starts here; it locks 12 h earlier. */
let start: Date;

async function player(username?: string): Promise<UserRow> {
  n += 1;
  const name = username ?? `pub_${n}`;
  return createAccount(h.db, {
    email: `${name.toLowerCase()}@mail.example`,
    username: name,
    passwordHash: "test:unusable",
    emailConfirmed: true,
  });
}

/** Every e-mail address in the database: none may appear in any public result. */
async function allEmails(): Promise<string[]> {
  const rows = await h.db.select({ email: users.email }).from(users);
  return rows.map((r) => r.email);
}

function expectNoEmail(value: unknown, emails: string[]) {
  const json = JSON.stringify(value);
  expect(json).not.toMatch(/@/);
  for (const e of emails) expect(json).not.toContain(e);
}

async function saveTeamRows(userId: number, eventId: number, racerIds: number[]) {
  const id = await putTeam(h.db, userId, eventId, racerIds);
  return { id };
}

beforeAll(async () => {
  h = await createTestDb({ seed: true });
  const [e] = await h.db.select().from(events).where(eq(events.id, 5));
  start = e!.startsAt;
});
afterAll(() => h.close());

describe("events and racers", () => {
  it("lists the 12 events with public fields only", async () => {
    const list = await listPublicEvents(h.db);
    expect(list.map((e) => e.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(Object.keys(list[0]!).sort()).toEqual(
      ["cover", "description", "id", "logo", "name", "startsAt", "status"].sort(),
    );
    expect(list.find((e) => e.id === 5)?.status).toBe("open");
  });

  it("lists an event's racers by rank, unranked last, optionally by category", async () => {
    const all = await listPublicRacers(h.db, 5);
    expect(all.length).toBeGreaterThan(40);
    expect(all.every((r) => r.gameId === 5)).toBe(true);
    const women = await listPublicRacers(h.db, 5, "Pro Women");
    expect(women.length).toBeGreaterThan(0);
    expect(women.every((r) => r.category === "Pro Women")).toBe(true);
    const ranks = women.map((r) => r.rank2024);
    const firstUnranked = ranks.indexOf(0);
    const ranked = firstUnranked === -1 ? ranks : ranks.slice(0, firstUnranked);
    expect(ranked).toEqual([...ranked].sort((a, b) => a - b));
    if (firstUnranked !== -1) expect(ranks.slice(firstUnranked).every((r) => r === 0)).toBe(true);
    expect(Object.keys(women[0]!).sort()).toEqual(
      [
        "category",
        "firstName",
        "gameId",
        "id",
        "lastName",
        "origin",
        "pickedByPercent",
        "picture",
        "previousPrice",
        "price",
        "rank2024",
        "totalPoint2024",
      ].sort(),
    );
    // Round 1 of its series: no previous price.
    expect(women.every((r) => r.previousPrice === null)).toBe(true);
    expect(await listPublicRacers(h.db, 999)).toEqual([]);
  });
});

describe("rankings, as settlement stores them", () => {
  /** Season players by their expected place: points highest first, then username. */
  let expected: { username: string; points: number; rank: number }[] = [];
  let leagueIds: { top: number; pair: number; solo: number; fresh: number };
  let points: Map<string, number>;

  beforeAll(async () => {
    // Round 1 with 55 players (more than a page), each team a variation of the cheapest riders,
    // and every racer finishing in 2024-rank order within their category.
    const pool = await listPublicRacers(h.db, 5);
    const team = (offset: number) => {
      const cheapest = (category: string, k: number) =>
        pool
          .filter((r) => r.category === category)
          .sort((a, b) => a.price - b.price || a.id - b.id)
          .slice(offset, offset + k)
          .map((r) => r.id);
      return [...cheapest("Pro Women", 2), ...cheapest("17-18 Men", 1), ...cheapest("Pro Men", 3)];
    };
    const whileOpen = new Date(start.getTime() - LOCK_MS - 86_400_000);
    const byRacer = new Map<number, number>();
    const lines = ["Position,First Name,Last Name,Category"];
    const place = new Map<string, number>();
    for (const r of pool) {
      const p = (place.get(r.category) ?? 0) + 1;
      place.set(r.category, p);
      byRacer.set(r.id, pointsForPosition(p));
      lines.push(`${p},"${r.firstName}","${r.lastName}",${r.category}`);
    }
    const players: UserRow[] = [];
    points = new Map();
    for (let i = 0; i < PUBLIC_PAGE_SIZE + 5; i++) {
      const u = await player(`season_${String(i).padStart(2, "0")}`);
      const ids = team(i % 7);
      const saved = await saveTeam(h.db, {
        userId: u.id,
        eventId: 5,
        racerIds: ids,
        now: whileOpen,
      });
      expect(saved.ok).toBe(true);
      players.push(u);
      points.set(
        u.username,
        ids.reduce((sum, id) => sum + (byRacer.get(id) ?? 0), 0),
      );
    }
    await player("never_scored");
    const actor = (u: UserRow) => ({ id: u.id, email: u.email });
    const top = await createLeague(h.db, actor(players[0]!), "Top League");
    const pair = await createLeague(h.db, actor(players[5]!), "Pair");
    // A league of one is never listed (decision 0151).
    const solo = await createLeague(h.db, actor(players[6]!), "Solo");
    if (!top.ok || !pair.ok || !solo.ok) throw new Error("league refused");
    await joinByCode(h.db, actor(players[1]!), top.league.joinCode);
    await joinByCode(h.db, actor(players[4]!), pair.league.joinCode);

    const imported = await importResults(h.db, 5, lines.join("\n"), {
      now: new Date(start.getTime() + 3_600_000),
    });
    expect(imported.ok).toBe(true);
    const fresh = await createLeague(h.db, actor(players[2]!), "Fresh");
    if (!fresh.ok) throw new Error("league refused");
    await joinByCode(h.db, actor(players[3]!), fresh.league.joinCode);
    leagueIds = {
      top: top.league.id,
      pair: pair.league.id,
      solo: solo.league.id,
      fresh: fresh.league.id,
    };

    const sorted = [...points.entries()]
      .map(([username, pts]) => ({ username, points: pts }))
      .sort((a, b) => b.points - a.points || (a.username < b.username ? -1 : 1));
    const ranks = competitionRanks(sorted.map((p) => p.points));
    expected = sorted.map((p, k) => ({ ...p, rank: ranks[k]! }));
    // The fixture must exercise shared ranks.
    expect(new Set(ranks).size).toBeLessThan(ranks.length);
  });

  it("pages the season ranking by points, shared ranks, leaving out unranked players", async () => {
    const first = await publicPlayerRankings(h.db, { page: 1 });
    expect(first.total).toBe(PUBLIC_PAGE_SIZE + 5);
    expect(first.pageCount).toBe(2);
    expect(first.pageSize).toBe(PUBLIC_PAGE_SIZE);
    const second = await publicPlayerRankings(h.db, { page: 2 });
    const shown = [...first.rows, ...second.rows];
    expect(shown.map(({ rank, username, points }) => ({ username, points, rank }))).toEqual(
      expected,
    );
    expect(shown.map((r) => r.username)).not.toContain("never_scored");
    // First settled event: nobody had a season rank before it.
    expect(shown.every((r) => r.previousRank === null)).toBe(true);
    expect(Object.keys(first.rows[0]!).sort()).toEqual([
      "points",
      "previousRank",
      "rank",
      "username",
    ]);
    // Past the last page: an empty page (a client reading until one stops), the page asked.
    const beyond = await publicPlayerRankings(h.db, { page: 3 });
    expect(beyond).toMatchObject({ page: 3, pageCount: 2, total: PUBLIC_PAGE_SIZE + 5, rows: [] });
    expectNoEmail([first, second], await allEmails());
  });

  it("pages by the pageSize asked for, the same order whatever the size", async () => {
    const pages = [];
    for (let page = 1; ; page++) {
      const p = await publicPlayerRankings(h.db, { page, pageSize: 7 });
      expect(p.pageSize).toBe(7);
      expect(p.pageCount).toBe(Math.ceil((PUBLIC_PAGE_SIZE + 5) / 7));
      if (p.rows.length === 0) break;
      expect(p.rows.length).toBeLessThanOrEqual(7);
      pages.push(...p.rows);
    }
    expect(pages.map(({ rank, username, points }) => ({ username, points, rank }))).toEqual(
      expected,
    );
    const all = await publicPlayerRankings(h.db, { page: 1, pageSize: PUBLIC_MAX_PAGE_SIZE });
    expect(all.rows).toHaveLength(PUBLIC_PAGE_SIZE + 5);
    const leagues = await publicLeagueRankings(h.db, { page: 2, pageSize: 2 });
    expect(leagues).toMatchObject({ page: 2, pageCount: 2, pageSize: 2, total: 3 });
    expect(leagues.rows).toHaveLength(1);
    expect(await publicLeagueRankings(h.db, { page: 3, pageSize: 2 })).toMatchObject({
      page: 3,
      pageCount: 2,
      rows: [],
    });
  });

  it("lists an event's results by category and place, with points and picks", async () => {
    const results = await listPublicResults(h.db, 5);
    const pool = await listPublicRacers(h.db, 5);
    expect(results).toHaveLength(pool.length);
    expect([...new Set(results.map((r) => r.category))]).toEqual([
      "Pro Men",
      "Pro Women",
      "17-18 Men",
      "17-18 Women",
    ]);
    for (const category of new Set(results.map((r) => r.category))) {
      const rows = results.filter((r) => r.category === category);
      expect(rows.map((r) => r.position)).toEqual(rows.map((_, k) => k + 1));
      for (const r of rows) expect(r.points).toBe(pointsForPosition(r.position));
    }
    // Every one of the 55 frozen teams holds six racers.
    expect(results.reduce((sum, r) => sum + r.pickedBy, 0)).toBe((PUBLIC_PAGE_SIZE + 5) * 6);
    expect(Object.keys(results[0]!).sort()).toEqual(
      [
        "category",
        "firstName",
        "lastName",
        "pickedBy",
        "picture",
        "points",
        "position",
        "racerId",
        "status",
      ].sort(),
    );
    const women = await listPublicResults(h.db, 5, "Pro Women");
    expect(women).toEqual(results.filter((r) => r.category === "Pro Women"));
    expect(await listPublicResults(h.db, 6)).toEqual([]);
  });

  it("ranks one event from its scores", async () => {
    const round = await publicPlayerRankings(h.db, { page: 1, eventId: 5 });
    expect(round.total).toBe(PUBLIC_PAGE_SIZE + 5);
    expect(round.rows.map(({ rank, username, points }) => ({ username, points, rank }))).toEqual(
      expected.slice(0, PUBLIC_PAGE_SIZE),
    );
    expect((await publicPlayerRankings(h.db, { page: 1, eventId: 2 })).rows).toEqual([]);
  });

  it("ranks leagues by the average of their members, new leagues last, with member counts", async () => {
    const p = (name: string) => points.get(name)!;
    const topTotal = leagueScore([
      { score: p("season_00"), status: "accepted" },
      { score: p("season_01"), status: "accepted" },
    ]);
    const pairTotal = leagueScore([
      { score: p("season_05"), status: "accepted" },
      { score: p("season_04"), status: "accepted" },
    ]);
    const settled = [
      { id: leagueIds.top, name: "Top League", totalPoints: topTotal, memberCount: 2 },
      { id: leagueIds.pair, name: "Pair", totalPoints: pairTotal, memberCount: 2 },
    ].sort((a, b) => b.totalPoints - a.totalPoints || a.id - b.id);
    // A league made after the settlement averages its members' points at once (decision 0159),
    // and is listed after the ranked ones until the next settlement places it.
    const freshTotal = leagueScore([
      { score: p("season_02"), status: "accepted" },
      { score: p("season_03"), status: "accepted" },
    ]);
    const page = await publicLeagueRankings(h.db, { page: 1 });
    expect(page.total).toBe(3);
    expect(page.rows).toEqual([
      ...settled.map((l, k) => ({ rank: k + 1, ...l })),
      { rank: 3, id: leagueIds.fresh, name: "Fresh", totalPoints: freshTotal, memberCount: 2 },
    ]);
    expectNoEmail(page, await allEmails());
  });
});

describe("public teams", () => {
  it("keeps a team private until its event locks, then shows it in slot order", async () => {
    // Round 3 (round 1 has been scored above): its racers are round 1's.
    await copyRacers(h.db, 5, 7, { actor: CLI_ACTOR, now: new Date() });
    const [round3] = await h.db.select().from(events).where(eq(events.id, 7));
    const u = await player("Team_Owner");
    const pool = await listPublicRacers(h.db, 7);
    const picks = pool
      .slice(0, 6)
      .map((r) => r.id)
      .reverse();
    await saveTeamRows(u.id, 7, picks);
    const lock = new Date(round3!.startsAt.getTime() - LOCK_MS);

    const before = await getPublicTeam(h.db, {
      username: "team_owner",
      eventId: 7,
      now: new Date(lock.getTime() - 1),
    });
    expect(before).toEqual({ ok: false, reason: "not-locked", locksAt: lock });

    const after = await getPublicTeam(h.db, { username: "team_owner", eventId: 7, now: lock });
    expect(after.ok).toBe(true);
    if (!after.ok) return;
    expect(after.team.username).toBe("Team_Owner");
    expect(after.team.racers.map((r) => r.id)).toEqual(picks);
    const cost = pool.slice(0, 6).reduce((s, r) => s + r.price, 0);
    expect(after.team.cost).toBe(cost);
    expect(after.team.bank).toBe(1_000_000 - cost);
    expect(after.team.points).toBeNull();
    expect(after.team.locked).toBe(true);
    expectNoEmail(after, await allEmails());

    // The bank is the player's own (their team's budget less the prices paid), as their pages
    // show it, whatever today's prices are; cost is what the racers are worth today.
    const first = pool[0]!;
    await h.db
      .update(racers)
      .set({ price: first.price + 10_000 })
      .where(eq(racers.id, first.id));
    await h.db.update(teams).set({ budget: 985_000 }).where(eq(teams.userId, u.id));
    const moved = await getPublicTeam(h.db, { username: "team_owner", eventId: 7, now: lock });
    expect(moved.ok && [moved.team.cost, moved.team.bank]).toEqual([cost + 10_000, 985_000 - cost]);
    await h.db.update(racers).set({ price: first.price }).where(eq(racers.id, first.id));
    await h.db.update(teams).set({ budget: 1_000_000 }).where(eq(teams.userId, u.id));

    // Without an event: the latest locked round of a competition the player has a team in.
    const latest = await getPublicTeam(h.db, { username: "Team_Owner", now: lock });
    expect(latest.ok && latest.team.eventId).toBe(7);
    expect(
      await getPublicTeam(h.db, { username: "Team_Owner", now: new Date(lock.getTime() - 1) }),
    ).toEqual({
      ok: false,
      reason: "team-not-found",
    });
  });

  it("shows the frozen team and its score once scoring has run", async () => {
    const u = await player("frozen_owner");
    const archived = await listPublicRacers(h.db, 5);
    const saved = archived.slice(10, 16).map((r) => r.id);
    // Event 1 is archived (long locked): the saved team was edited after freezing (directly in
    // the database), the frozen one is what counts.
    await saveTeamRows(u.id, 1, saved);
    const frozen = archived.slice(20, 26).map((r) => r.id);
    await h.db
      .insert(frozenTeamRacers)
      .values(frozen.map((racerId) => ({ eventId: 1, userId: u.id, racerId })));
    await h.db.insert(eventScores).values({ eventId: 1, userId: u.id, points: 265, rank: 1 });
    const r = await getPublicTeam(h.db, { username: "frozen_owner", eventId: 1, now: new Date() });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.team.racers.map((x) => x.id).sort((a, b) => a - b)).toEqual(
      [...frozen].sort((a, b) => a - b),
    );
    expect(r.team.points).toBe(265);
  });

  it("shows a team frozen early (results imported before the lock) from the freeze on", async () => {
    const u = await player("early_bird");
    const [round2] = await h.db.select().from(events).where(eq(events.id, 6));
    const lock = new Date(round2!.startsAt.getTime() - LOCK_MS);
    // The seed prices racers for round 1 only: round 2 starts from them.
    await copyRacers(h.db, 5, 6, { actor: CLI_ACTOR, now: new Date() });
    const picks = (await listPublicRacers(h.db, 6)).slice(30, 36).map((r) => r.id);
    await saveTeamRows(u.id, 6, picks);
    const frozenAt = new Date(lock.getTime() - 3 * 86_400_000);
    expect(await freezeEvent(h.db, 6, frozenAt)).not.toBeNull();

    const before = await getPublicTeam(h.db, {
      username: "early_bird",
      eventId: 6,
      now: new Date(frozenAt.getTime() - 1),
    });
    expect(before).toEqual({ ok: false, reason: "not-locked", locksAt: lock });
    const after = await getPublicTeam(h.db, { username: "early_bird", eventId: 6, now: frozenAt });
    expect(after.ok && after.team.racers.map((r) => r.id).sort()).toEqual([...picks].sort());
    // Without an event, the frozen one counts as fixed too.
    const latest = await getPublicTeam(h.db, { username: "early_bird", now: frozenAt });
    expect(latest.ok && latest.team.eventId).toBe(6);
  });

  it("names the captain and the bench rider where the competition has them (decisions 0168, 0169)", async () => {
    const [round3] = await h.db.select().from(events).where(eq(events.id, 7));
    const setOptions = (on: boolean) => setRuleOptions(h.db, 7, { captain: on, bench: on });
    await setOptions(true);
    try {
      const u = await player("Captain_Bench");
      const pool = await listPublicRacers(h.db, 7);
      const seven = pool.slice(0, 7).map((r) => r.id);
      await putTeam(h.db, u.id, 7, seven, seven[2]!);
      const lock = new Date(round3!.startsAt.getTime() - LOCK_MS);
      const shown = await getPublicTeam(h.db, { username: "captain_bench", eventId: 7, now: lock });
      expect(shown.ok && shown.team).toMatchObject({
        racers: seven.map((id) => ({ id })),
        captainId: seven[2],
        benchId: seven[6],
      });
    } finally {
      await setOptions(false);
    }
  });

  it("answers not found for unknown players, events and missing teams", async () => {
    const now = new Date();
    expect(await getPublicTeam(h.db, { username: "nobody_here", eventId: 1, now })).toEqual({
      ok: false,
      reason: "user-not-found",
    });
    expect(await getPublicTeam(h.db, { username: "  ", now })).toEqual({
      ok: false,
      reason: "user-not-found",
    });
    await player("no_team");
    expect(await getPublicTeam(h.db, { username: "no_team", eventId: 999, now })).toEqual({
      ok: false,
      reason: "event-not-found",
    });
    expect(await getPublicTeam(h.db, { username: "no_team", eventId: 2, now })).toEqual({
      ok: false,
      reason: "team-not-found",
    });
  });
});

describe("partners", () => {
  it("finds a partner by key and recognises its origins, normalised", async () => {
    await h.db.insert(partners).values({
      name: "Bike Site",
      publishableKey: "pk_test_bikesite",
      origins: ["https://Bikes.Example/", "http://localhost:5173", "not a url"],
    });
    const p = await getPartnerByKey(h.db, "pk_test_bikesite");
    expect(p?.name).toBe("Bike Site");
    expect(p?.origins).toEqual(["https://bikes.example", "http://localhost:5173"]);
    expect(await getPartnerByKey(h.db, "pk_unknown")).toBeUndefined();
    expect(await getPartnerByKey(h.db, "")).toBeUndefined();

    expect(await isPartnerOrigin(h.db, "https://bikes.example")).toBe(true);
    expect(await isPartnerOrigin(h.db, "http://localhost:5173")).toBe(true);
    expect(await isPartnerOrigin(h.db, "https://evil.example")).toBe(false);
    expect(await isPartnerOrigin(h.db, "null")).toBe(false);
    expect(await isPartnerOrigin(h.db, "https://bikes.example.evil.example")).toBe(false);
    // Browsers send origins without a path; anything else is not an origin.
    expect(await isPartnerOrigin(h.db, "https://bikes.example/")).toBe(false);
  });
});
