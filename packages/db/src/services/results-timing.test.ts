/**
 * Results straight from official timing: one export per category (Rank, Bib, a single
 * "LASTNAME Firstname" name, Nation, Time or a DNF/DNS/DSQ), imported one category at a time
 * without touching the other categories' results, scored after each file.
 */
import { readFileSync } from "node:fs";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { DbHandle } from "../client.js";
import { raceResults, racers } from "../schema/index.js";
import { createTestDb } from "../testing.js";
import { importResults, listEventResults } from "./results.js";
import { makePlayers, playerFigures, putTeam, resetGame } from "./scoring.fixtures.js";

let h: DbHandle;
const now = new Date("2027-04-19T12:00:00Z");
const fixture = (name: string) =>
  readFileSync(new URL(`../fixtures/timing/${name}`, import.meta.url), "utf8");
let idOf: (first: string, last: string) => number;

beforeAll(async () => {
  h = await createTestDb({ seed: true });
  const field = await h.db
    .select({ id: racers.id, firstName: racers.firstName, lastName: racers.lastName })
    .from(racers)
    .where(eq(racers.gameId, 5));
  idOf = (first, last) => field.find((r) => r.firstName === first && r.lastName === last)!.id;
});
afterAll(() => h.close());
beforeEach(() => resetGame(h.db));

const stored = async () =>
  (await listEventResults(h.db, 5)).map((r) => [
    r.category,
    `${r.firstName} ${r.lastName}`,
    r.status === "finished" ? r.position : r.status,
    r.points,
  ]);

describe("importing timing exports", () => {
  it("scores an event from one file per category, never wiping the others", async () => {
    const [fan] = await makePlayers(h.db, ["fan"]);
    await putTeam(h.db, fan!.id, 5, [
      idOf("Loïc", "Bruni"),
      idOf("Valentina", "Höll"),
      idOf("Asa", "Vermette"),
    ]);
    const men = await importResults(h.db, 5, fixture("pro-men.csv"), {
      now,
      category: "Pro Men",
    });
    expect(men).toMatchObject({ ok: true, categories: ["Pro Men"] });
    const points = async () => (await playerFigures(h.db)).find((f) => f.id === fan!.id)?.points;
    expect(await points()).toBe(80);

    // The women's file: semicolons, a BOM, CRLF, DNS in the Status column.
    const women = await importResults(h.db, 5, fixture("pro-women.csv"), {
      now,
      category: "Pro Women",
    });
    expect(women.ok).toBe(true);
    // Juniors: tabs, "Firstname LASTNAME", DSQ in the Time column.
    expect(
      (await importResults(h.db, 5, fixture("junior-men.csv"), { now, category: "17-18 Men" })).ok,
    ).toBe(true);
    // Junior women carry their category in the file ("Women Junior").
    const juniors = await importResults(h.db, 5, fixture("junior-women.csv"), { now });
    expect(juniors).toMatchObject({ ok: true, categories: ["17-18 Women"] });

    expect(await stored()).toEqual([
      ["Pro Men", "Amaury Pierron", 1, 100],
      ["Pro Men", "Loïc Bruni", 2, 80],
      ["Pro Men", "Finn Iles", 3, 65],
      ["Pro Men", "Ronan Dunne", 4, 50],
      ["Pro Men", "Troy Brosnan", "DNF", 0],
      ["Pro Women", "Valentina Höll", 1, 100],
      ["Pro Women", "Marine Cabirou", 2, 80],
      ["Pro Women", "Myriam Nicole", 3, 65],
      ["Pro Women", "Tahnée Seagrave", "DNS", 0],
      ["17-18 Men", "Asa Vermette", 1, 100],
      ["17-18 Men", "Max Alran", 2, 80],
      ["17-18 Men", "Dane Jewett", "DSQ", 0],
      ["17-18 Women", "Erice van Leuven", 1, 100],
      ["17-18 Women", "Rosa Zierl", 2, 80],
    ]);
    // Settled again after each file: Bruni 80 + Höll 100 + Vermette 100.
    expect(await points()).toBe(280);

    // A corrected men's file replaces the men's results only.
    const corrected = fixture("pro-men.csv").replace("DNF", "3:10.000").replace(/^,2,/m, "5,2,");
    expect((await importResults(h.db, 5, corrected, { now, category: "Pro Men" })).ok).toBe(true);
    const after = await stored();
    expect(after).toContainEqual(["Pro Men", "Troy Brosnan", 5, 50]);
    expect(after).toHaveLength(14);
  });

  it("names the closest racers for an unknown name and writes nothing", async () => {
    const out = await importResults(h.db, 5, fixture("pro-men-typos.csv"), {
      now,
      category: "Pro Men",
    });
    expect(out).toEqual({
      ok: false,
      reason: "invalid",
      issues: [
        {
          line: 2,
          message:
            "Unknown racer: PIERON Amaury in Pro Men is not a racer of this event. Did you mean Amaury Pierron?",
        },
        {
          line: 3,
          message:
            "Unknown racer: BRUNNI Loic in Pro Men is not a racer of this event. Did you mean Loïc Bruni?",
        },
        {
          line: 4,
          message: "Unknown racer: NOBODY Atall in Pro Men is not a racer of this event.",
        },
      ],
    });
    expect(await h.db.select().from(raceResults)).toEqual([]);
  });

  it("refuses a file whose Category column disagrees with the category chosen", async () => {
    const out = await importResults(h.db, 5, fixture("junior-women.csv"), {
      now,
      category: "Pro Women",
    });
    expect(out).toMatchObject({
      ok: false,
      issues: [
        {
          line: 2,
          message:
            'The Category "17-18 Women" is not the category chosen for this file (Pro Women).',
        },
        { line: 3 },
      ],
    });
  });

  it("dry runs show the matched table: as written, matched racer, place and points", async () => {
    const out = await importResults(h.db, 5, fixture("pro-men.csv"), {
      now,
      dryRun: true,
      category: "Pro Men",
    });
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    expect(
      out.rows.map((r) => [r.line, r.asWritten, r.name, r.status, r.position, r.points]),
    ).toEqual([
      [2, "PIERRON Amaury", "Amaury Pierron", "finished", 1, 100],
      [3, "BRUNI Loic", "Loïc Bruni", "finished", 2, 80],
      [4, "ILES Finn", "Finn Iles", "finished", 3, 65],
      [5, "DUNNE Ronan", "Ronan Dunne", "finished", 4, 50],
      [6, "BROSNAN Troy", "Troy Brosnan", "DNF", null, 0],
    ]);
    expect(await h.db.select().from(raceResults)).toEqual([]);
  });
});
