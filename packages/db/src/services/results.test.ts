import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { DbHandle } from "../client.js";
import {
  auditLog,
  eventScores,
  events,
  leagues,
  raceResults,
  racers,
  users,
} from "../schema/index.js";
import { createTestDb } from "../testing.js";
import { importResults, listEventResults } from "./results.js";
import { makePlayers, playerFigures, putLeague, putTeam, resetGame } from "./scoring.fixtures.js";

let h: DbHandle;
type R = { id: number; category: string; firstName: string; lastName: string };
let field: R[];
const now = new Date("2027-04-19T12:00:00Z");
const audit = { actor: "web:admin@example.com", actorId: null };

beforeAll(async () => {
  h = await createTestDb({ seed: true });
  field = await h.db
    .select({
      id: racers.id,
      category: racers.category,
      firstName: racers.firstName,
      lastName: racers.lastName,
    })
    .from(racers)
    .where(eq(racers.gameId, 5))
    .orderBy(racers.id);
});
afterAll(() => h.close());
beforeEach(() => resetGame(h.db));

const inCategory = (c: string) => field.filter((r) => r.category === c);
const line = (position: string, r: R) => `${position},${r.firstName},${r.lastName},${r.category}`;

describe("importResults", () => {
  it("reports every bad line and writes nothing", async () => {
    const [p] = await makePlayers(h.db, ["watcher"]);
    const men = inCategory("Pro Men");
    await putTeam(h.db, p!.id, 5, [men[0]!.id]);
    const csv = [
      "Position,First Name,Last Name,Category",
      line("1", men[0]!),
      line("1", men[1]!),
      "2,Nobody,Known,Pro Men",
      "first,Someone,Else,Pro Men",
    ].join("\n");
    const out = await importResults(h.db, 5, csv, { now, audit });
    expect(out).toEqual({
      ok: false,
      reason: "invalid",
      issues: [
        { line: 3, message: "Position 1 in Pro Men is already taken on line 2." },
        {
          line: 4,
          message: "Unknown racer: Nobody Known in Pro Men is not a racer of this event.",
        },
        { line: 5, message: 'Position "first" is not a place (1, 2, 3...) or DNF, DNS, DSQ.' },
      ],
    });
    expect(await h.db.select().from(raceResults)).toEqual([]);
    expect(await h.db.select().from(eventScores)).toEqual([]);
    expect(await h.db.select().from(auditLog)).toEqual([]);
    const [e] = await h.db.select().from(events).where(eq(events.id, 5));
    expect(e).toMatchObject({ frozenAt: null, settledAt: null });
  });

  it("refuses an unknown event", async () => {
    expect(await importResults(h.db, 99, "Position,ID\n1,1", { now })).toMatchObject({
      ok: false,
      reason: "not-found",
    });
  });

  it("a dry run checks and previews without writing", async () => {
    const men = inCategory("Pro Men");
    const out = await importResults(
      h.db,
      5,
      ["Position,Racer ID", `1,${men[0]!.id}`, `DNF,${men[1]!.id}`].join("\n"),
      {
        now,
        dryRun: true,
      },
    );
    expect(out).toEqual({
      ok: true,
      dryRun: true,
      eventId: 5,
      provisional: false,
      unchanged: false,
      categories: ["Pro Men"],
      rows: [
        {
          line: 2,
          asWritten: `#${men[0]!.id}`,
          racerId: men[0]!.id,
          name: `${men[0]!.firstName} ${men[0]!.lastName}`,
          category: "Pro Men",
          status: "finished",
          position: 1,
          points: 100,
        },
        {
          line: 3,
          asWritten: `#${men[1]!.id}`,
          racerId: men[1]!.id,
          name: `${men[1]!.firstName} ${men[1]!.lastName}`,
          category: "Pro Men",
          status: "DNF",
          position: null,
          points: 0,
        },
      ],
    });
    expect(await h.db.select().from(raceResults)).toEqual([]);
  });

  it("imports, settles at once, and a corrected file replaces the results", async () => {
    const [ann, ben] = await makePlayers(h.db, ["ann", "ben"]);
    const men = inCategory("Pro Men");
    const women = inCategory("Pro Women");
    await putTeam(h.db, ann!.id, 5, [men[0]!.id, women[0]!.id]);
    await putTeam(h.db, ben!.id, 5, [men[1]!.id, women[1]!.id]);
    const league = await putLeague(h.db, "both", [ann!.id, ben!.id]);
    const first = [
      "Position,First Name,Last Name,Category",
      line("1", men[0]!),
      line("2", men[1]!),
      line("1", women[1]!),
      line("DNS", women[0]!),
    ].join("\n");
    const out = await importResults(h.db, 5, first, { now, audit });
    expect(out).toMatchObject({
      ok: true,
      dryRun: false,
      settlement: { eventId: 5, results: 4, teams: 2, rankedPlayers: 2 },
    });
    const names = new Map(
      (await h.db.select().from(users)).map((u) => [u.id, u.username] as const),
    );
    const points = async () =>
      (await playerFigures(h.db)).map((u) => [names.get(u.id), u.points, u.ranking]);
    expect(await points()).toEqual([
      ["ann", 100, 2],
      ["ben", 180, 1],
    ]);
    const [l] = await h.db.select().from(leagues).where(eq(leagues.id, league));
    expect(l!.totalPoints).toBe(140);
    expect(await listEventResults(h.db, 5)).toMatchObject([
      { racerId: men[0]!.id, status: "finished", position: 1, points: 100, pickedBy: 1 },
      { racerId: men[1]!.id, status: "finished", position: 2, points: 80, pickedBy: 1 },
      { racerId: women[1]!.id, position: 1, points: 100 },
      { racerId: women[0]!.id, status: "DNS", position: null, points: 0 },
    ]);

    // The timing company corrects the women's race: ann's rider finished 3rd after all.
    const corrected = first.replace(line("DNS", women[0]!), line("3", women[0]!));
    await importResults(h.db, 5, corrected, { now, audit });
    expect(await points()).toEqual([
      ["ann", 165, 2],
      ["ben", 180, 1],
    ]);
    expect(await h.db.select().from(raceResults).where(eq(raceResults.eventId, 5))).toHaveLength(4);
    const log = await h.db.select().from(auditLog).orderBy(auditLog.id);
    expect(log.map((r) => [r.actor, r.action, r.target])).toEqual([
      ["web:admin@example.com", "results.import", "event:5"],
      ["web:admin@example.com", "scores.settle", "event:5"],
      ["web:admin@example.com", "results.import", "event:5"],
      ["web:admin@example.com", "scores.settle", "event:5"],
    ]);
    expect(log[0]!.detail).toEqual({
      categories: ["Pro Men", "Pro Women"],
      rows: 4,
      finished: 3,
      dnf: 0,
      dns: 1,
      dsq: 0,
    });
  });
});
