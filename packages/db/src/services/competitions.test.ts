/**
 * Competitions as admins run them: create with rules, change the rules until the first lock,
 * add rounds, copy racers into them, archive. Each write is audited; each refusal writes nothing.
 */
import { DEFAULT_RULES } from "@game/core";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DbHandle, rowsOf } from "../client.js";
import { competitions, events, racers } from "../schema/index.js";
import { createTestDb } from "../testing.js";
import { setEventStatus } from "./admin-events.js";
import { cliActor, listAudit } from "./audit.js";
import {
  archiveCompetition,
  changeCompetitionRules,
  copyRacers,
  createCompetition,
  createRound,
  getCompetition,
  listCompetitions,
} from "./competitions.js";
import { getEvent } from "./events.js";
import { makePlayers } from "./scoring.fixtures.js";
import { saveTeam } from "./teams.js";

let h: DbHandle;
const actor = cliActor("admin");
const now = new Date("2027-01-10T12:00:00Z");

beforeAll(async () => {
  h = await createTestDb({ seed: true });
});
afterAll(() => h.close());

/** Every table an admin write may touch, to show a refusal wrote nothing. */
async function state() {
  return rowsOf(
    await h.db.execute(sql`select
      (select count(*)::int from competitions) as competitions,
      (select string_agg(slug || ':' || rules::text || ':' || coalesce(archived_at::text, ''), ',' order by id) from competitions) as rows,
      (select count(*)::int from events) as events,
      (select string_agg(id || ':' || status, ',' order by id) from events) as statuses,
      (select count(*)::int from racers) as racers,
      (select count(*)::int from audit_log) as audits`),
  )[0];
}

describe("the seeded competitions", () => {
  it("lists them live first, with their state from the rounds", async () => {
    const list = await listCompetitions(h.db, now);
    expect(list.map((c) => [c.slug, c.state, c.rounds.length])).toEqual([
      ["pro-downhill-series-2027", "live", 5],
      ["freeride-2024", "finished", 2],
      ["uci-mountain-bike-world-championships-2024", "finished", 1],
      ["uci-downhill-world-cup-2024", "finished", 4],
    ]);
    const pro = list[0]!;
    expect(pro.rules).toEqual(DEFAULT_RULES);
    expect(pro.rounds.map((r) => r.id)).toEqual([5, 6, 7, 8, 9]);
    expect(pro.rounds[0]!.racers).toBeGreaterThan(0);
    expect((await getEvent(h.db, 5))?.competitionName).toBe("Pro Downhill Series 2027");
  });
});

describe("creating a competition", () => {
  it("creates an XC competition of exactly 3 women with a 1,500,000 budget, audited", async () => {
    const xc = await createCompetition(
      h.db,
      {
        name: "XC Cup 2028",
        discipline: "cross-country",
        season: "2028",
        rules: { budget: 1_500_000, minWomen: 3, maxWomen: 3, minJuniors: 0 },
      },
      actor,
      now,
    );
    expect(xc).toMatchObject({
      slug: "xc-cup-2028",
      discipline: "cross-country",
      state: "upcoming",
      rulesOpen: true,
      rounds: [],
    });
    expect(xc.rules).toMatchObject({
      teamSize: 6,
      budget: 1_500_000,
      women: { min: 3, max: 3 },
      juniors: { min: 0, max: null },
    });
    const { rows } = await listAudit(h.db, { action: "competition.create" });
    expect(rows[0]).toMatchObject({ actor: "cli:admin", target: "competition:xc-cup-2028" });
  });

  it("refuses a duplicate name, an unknown discipline and rules that cannot be met", async () => {
    const before = await state();
    await expect(
      createCompetition(h.db, { name: "xc cup 2028", discipline: "cross-country" }, actor, now),
    ).rejects.toThrow('A competition named "xc cup 2028" already exists (xc-cup-2028).');
    await expect(
      createCompetition(h.db, { name: "BMX 2028", discipline: "bmx" }, actor, now),
    ).rejects.toThrow(/The discipline is one of/);
    await expect(
      createCompetition(
        h.db,
        { name: "Odd 2028", discipline: "other", rules: { teamSize: 3, minWomen: 4 } },
        actor,
        now,
      ),
    ).rejects.toThrow("The minimum of women (4) is more than the team size (3).");
    expect(await state()).toEqual(before);
  });
});

describe("rounds, racers and rules", () => {
  it("adds rounds after the last one, copies racers into them and opens them", async () => {
    const r1 = await createRound(
      h.db,
      {
        competition: "xc-cup-2028",
        name: "Round 1: Albstadt",
        startsAt: new Date("2028-05-14T12:00:00Z"),
        location: "Albstadt, Germany",
      },
      actor,
      { now },
    );
    expect(r1).toMatchObject({ round: 1, status: "closed", racers: 0, competition: "xc-cup-2028" });
    expect(r1.id).toBeGreaterThan(12);
    expect(r1.lockAt.toISOString()).toBe("2028-05-14T00:00:00.000Z");
    const r2 = await createRound(
      h.db,
      { competition: "xc-cup-2028", name: "Round 2", startsAt: new Date("2028-06-01T12:00:00Z") },
      actor,
      { now },
    );
    expect(r2.round).toBe(2);

    // No racers, no opening.
    await expect(setEventStatus(h.db, r1.id, "open", actor)).rejects.toThrow(/has no racers yet/);

    const dry = await copyRacers(h.db, 5, r1.id, { actor, now, dryRun: true });
    const field = await h.db.select().from(racers).where(eq(racers.gameId, 5));
    expect(dry).toMatchObject({ dryRun: true, copied: field.length, alreadyEntered: 0 });
    expect(await h.db.select().from(racers).where(eq(racers.gameId, r1.id))).toHaveLength(0);

    const real = await copyRacers(h.db, 5, r1.id, { actor, now });
    expect(real.copied).toBe(field.length);
    const copied = await h.db.select().from(racers).where(eq(racers.gameId, r1.id));
    // Same people, same prices: a racer's history follows them into the new competition.
    expect(copied.map((r) => [r.personId, r.price]).sort()).toEqual(
      field.map((r) => [r.personId, r.price]).sort(),
    );
    // Twice is once.
    expect(await copyRacers(h.db, 5, r1.id, { actor, now })).toMatchObject({
      copied: 0,
      alreadyEntered: field.length,
    });
    const opened = await setEventStatus(h.db, r1.id, "open", actor);
    expect(opened.event).toMatchObject({ status: "open", competitionSlug: "xc-cup-2028" });
    expect((await getCompetition(h.db, "xc-cup-2028", now))?.state).toBe("live");

    // The server judges a team by the XC cup's rules: 4 women refused with the reason, 3 saved
    // within the cup's 1,500,000.
    const [player] = await makePlayers(h.db, ["xc_rider"]);
    const pick = (category: string, n: number) =>
      copied
        .filter((r) => r.category === category)
        .sort((a, b) => a.price - b.price)
        .slice(0, n)
        .map((r) => r.id);
    const four = await saveTeam(h.db, {
      userId: player!.id,
      eventId: r1.id,
      racerIds: [...pick("Pro Women", 4), ...pick("Pro Men", 2)],
      now,
    });
    expect(four).toMatchObject({ ok: false, reason: "invalid" });
    expect(JSON.stringify(four)).toContain(
      "Pick exactly 3 female riders (Pro Women or 17-18 Women).",
    );
    const three = await saveTeam(h.db, {
      userId: player!.id,
      eventId: r1.id,
      racerIds: [...pick("Pro Women", 3), ...pick("Pro Men", 3)],
      now,
    });
    expect(three).toMatchObject({ ok: true });
    expect(three.ok && three.bank).toBe(
      1_500_000 -
        copied
          .filter((r) => three.ok && three.team.racers.some((x) => x.id === r.id))
          .reduce((sum, r) => sum + r.price, 0),
    );
  });

  it("refuses a past start (unless allowed), an unknown competition and a duplicate round", async () => {
    const before = await state();
    const input = { competition: "xc-cup-2028", name: "Round 0", startsAt: new Date("2026-01-01") };
    await expect(createRound(h.db, input, actor, { now })).rejects.toThrow(/has passed/);
    await expect(
      createRound(h.db, { ...input, competition: "nope" }, actor, { now, allowPast: true }),
    ).rejects.toThrow('No competition has the slug "nope"');
    await expect(
      createRound(h.db, { ...input, name: "round 2", startsAt: new Date("2028-07-01") }, actor, {
        now,
      }),
    ).rejects.toThrow(/already has a round named "round 2"/);
    expect(await state()).toEqual(before);
  });

  it("changes the rules until the first lock, and refuses a budget below the cheapest team", async () => {
    const before = await state();
    await expect(
      changeCompetitionRules(h.db, "xc-cup-2028", { budget: 100_000 }, actor, now),
    ).rejects.toThrow(/The budget of \$100,000 is below the cheapest team these rules allow/);
    expect(await state()).toEqual(before);

    const r = await changeCompetitionRules(h.db, "xc-cup-2028", { lockHours: 2 }, actor, now);
    expect(r.changed).toBe(true);
    expect(r.competition.rules.lockHours).toBe(2);
    // Lock hours follow the rules wherever an event goes.
    const round1 = r.competition.rounds[0]!;
    expect((await getEvent(h.db, round1.id))?.lockHours).toBe(2);

    const afterLock = new Date("2028-05-14T10:00:01Z");
    await expect(
      changeCompetitionRules(h.db, "xc-cup-2028", { teamSize: 5 }, actor, afterLock),
    ).rejects.toThrow(/The rules of XC Cup 2028 are fixed: teams locked for Round 1: Albstadt/);
    // The seeded series has been played: its rules are fixed.
    await expect(
      changeCompetitionRules(
        h.db,
        "uci-downhill-world-cup-2024",
        { budget: 2_000_000 },
        actor,
        now,
      ),
    ).rejects.toThrow(/are fixed/);
  });
});

describe("archiving", () => {
  it("refuses while a round is open, then archives every round and keeps them", async () => {
    await expect(archiveCompetition(h.db, "xc-cup-2028", actor, now)).rejects.toThrow(
      /is still open: close it first/,
    );
    const [open] = await h.db
      .select()
      .from(events)
      .where(
        sql`${events.competitionId} = (select id from competitions where slug = 'xc-cup-2028') and status = 'open'`,
      );
    await setEventStatus(h.db, open!.id, "closed", actor);
    const r = await archiveCompetition(h.db, "xc-cup-2028", actor, now);
    expect(r).toMatchObject({ changed: true, competition: { state: "archived" } });
    expect(r.competition.rounds.every((x) => x.status === "archived")).toBe(true);
    expect((await archiveCompetition(h.db, "xc-cup-2028", actor, now)).changed).toBe(false);
    await expect(
      createRound(
        h.db,
        { competition: "xc-cup-2028", name: "Round 3", startsAt: new Date("2028-08-01") },
        actor,
        { now },
      ),
    ).rejects.toThrow("XC Cup 2028 is archived: it takes no new rounds.");
    const [row] = await h.db
      .select()
      .from(competitions)
      .where(eq(competitions.slug, "xc-cup-2028"));
    expect(row!.archivedAt).toEqual(now);
  });
});
