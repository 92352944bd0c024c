import { readFileSync } from "node:fs";
import { CSV_MAX_BYTES, CSV_MAX_ROWS, RACER_DEFAULTS } from "@game/core";
import { asc, eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { DbHandle } from "../client.js";
import { auditLog, racers } from "../schema/index.js";
import { insertSeedEvents } from "../seed.js";
import { createTestDb } from "../testing.js";
import { CLI_ACTOR } from "./audit.js";
import {
  importRacers,
  listRacersForAdmin,
  RacerImportError,
  readRacerCsv,
} from "./racers-import.js";

let h: DbHandle;
beforeAll(async () => {
  h = await createTestDb();
  await insertSeedEvents(h.db, [5, 6]);
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.db.delete(racers);
  await h.db.delete(auditLog);
});

const HEADER = "Category,First Name,Last Name,Picture,Origin,Game ID,Rank2024,TotalPoint2024,Price";

function csv(...lines: string[]) {
  return [HEADER, ...lines].join("\n");
}

const importCsv = (text: string, opts: { dryRun?: boolean; gameId?: number } = {}) =>
  importRacers(h.db, { csv: text, actor: CLI_ACTOR, ...opts });

async function snapshot() {
  return h.db
    .select({
      id: racers.id,
      gameId: racers.gameId,
      category: racers.category,
      firstName: racers.firstName,
      lastName: racers.lastName,
      picture: racers.picture,
      origin: racers.origin,
      rank2024: racers.rank2024,
      totalPoint2024: racers.totalPoint2024,
      price: racers.price,
    })
    .from(racers)
    .orderBy(asc(racers.id));
}

describe("readRacerCsv", () => {
  it("reads a file with a BOM, CRLF line ends and a trailing newline", () => {
    const text = `\uFEFF${HEADER}\r\nPro Men,Loic,Bruni,lb.jpg,FRA,5,1,1200,250000\r\n`;
    const file = readRacerCsv(text);
    expect(file.rows).toHaveLength(1);
    expect(file.rows[0]!.firstName).toBe("Loic");
  });

  it("refuses a header without the required columns", () => {
    expect(() => readRacerCsv("Category,Surname\nPro Men,Bruni")).toThrow(
      /no First Name, Last Name column/,
    );
  });

  it("refuses broken quoting, naming the line", () => {
    const text = `${HEADER}\nPro Men,Loic,Bruni,,,5,1,1,1\nPro Men,"Amaury,Pierron,,,5,2,1,1\n`;
    expect(() => readRacerCsv(text)).toThrow(RacerImportError);
    expect(() => readRacerCsv(text)).toThrow(/^Line 3: /);
  });

  it("refuses files over the size and row limits", () => {
    const big = `${HEADER}\n${"x".repeat(CSV_MAX_BYTES)}`;
    expect(() => readRacerCsv(big)).toThrow(/larger than 5 MB/);
    const many = [HEADER, ...Array.from({ length: CSV_MAX_ROWS + 1 }, () => "Pro Men,A,B")];
    expect(() => readRacerCsv(many.join("\n"))).toThrow(/20,001 rows; .* limited to 20,000/);
  });
});

describe("importRacers", () => {
  it("creates racers, then matches them on a second import (twice = once)", async () => {
    const text = [
      HEADER,
      "Pro Men,Loic,Bruni,lb.jpg,FRA,5,1,1200,250000",
      "Pro Women,Valentina,Höll,,AUT,5,1,1300,240000",
      "17-18 Men,Asa,Vermette,,USA,6,3,300,90000",
    ].join("\n");
    const first = await importCsv(text);
    expect(first).toMatchObject({
      dryRun: false,
      rows: 3,
      created: 3,
      updated: 0,
      unchanged: 0,
      skipped: [],
      defaults: [],
      kept: [],
    });
    const after = await snapshot();
    const second = await importCsv(text);
    expect(second).toMatchObject({ created: 0, updated: 0, unchanged: 3, skipped: [] });
    expect(await snapshot()).toEqual(after);
  });

  it("updates a matched racer (same event, name in any case) and counts it", async () => {
    await importCsv(`${HEADER}\nPro Men,Loic,Bruni,,FRA,5,1,1200,250000`);
    const r = await importCsv(`${HEADER}\nPro Men,LOIC , bruni,,FRA,5,1,1200,260000`);
    expect(r).toMatchObject({ created: 0, updated: 1, unchanged: 0 });
    const [row] = await snapshot();
    expect(row).toMatchObject({ firstName: "LOIC", lastName: "bruni", price: 260000 });
    expect(await snapshot()).toHaveLength(1);
  });

  it("skips rows with their line and reason, and imports the rest", async () => {
    const r = await importRacers(h.db, {
      csv: csv(
        "Pro Men,Loic,Bruni,,,5,1,1,1",
        "Pro Men,,Pierron,,,5,2,1,1",
        "",
        "Downhill Dads,Old,Timer,,,5,0,0,0",
        "Pro Men,Loic,Bruni,,,5,9,9,9",
        "Pro Women,Nina,Hoffmann,,,42,0,0,0",
        "Pro Women,Tahnee,Seagrave,,,5,1,1,99999999999",
      ),
      actor: CLI_ACTOR,
    });
    expect(r.created).toBe(1);
    expect(r.rows).toBe(6);
    expect(r.skipped).toEqual([
      { line: 3, reason: "missing First Name" },
      { line: 5, reason: 'unknown category "Downhill Dads"' },
      { line: 6, reason: "same racer as line 2" },
      { line: 7, reason: "unknown event 42" },
      { line: 8, reason: "Price 99999999999 is too large" },
    ]);
  });

  it("falls back to the defaults for numbers that do not parse, and says so by line", async () => {
    const r = await importRacers(h.db, {
      csv: csv("Pro Men,Finn,Iles,,CAN,,first,lots,cheap"),
      actor: CLI_ACTOR,
    });
    expect(r.defaults).toEqual([
      { line: 2, column: "Rank2024", cell: "first", used: 0 },
      { line: 2, column: "TotalPoint2024", cell: "lots", used: 0 },
      { line: 2, column: "Price", cell: "cheap", used: 75000 },
    ]);
    const [row] = await snapshot();
    expect(row).toMatchObject({
      gameId: RACER_DEFAULTS.gameId,
      rank2024: RACER_DEFAULTS.rank2024,
      totalPoint2024: RACER_DEFAULTS.totalPoint2024,
      price: RACER_DEFAULTS.price,
    });
  });

  it("stores formula-like cells as plain text", async () => {
    const cells = ['=HYPERLINK("http://evil.example","x")', "+1+1", "-2", "@SUM(A1)"];
    await importRacers(h.db, {
      records: cells.map((c) => ({
        Category: "Pro Men",
        "First Name": c,
        "Last Name": "Formula",
        Origin: c,
      })),
      actor: CLI_ACTOR,
    });
    const rows = await snapshot();
    expect(rows.map((r) => r.firstName)).toEqual(cells);
    expect(rows.map((r) => r.origin)).toEqual(cells);
  });

  it("puts every row in the --game event when one is given", async () => {
    const r = await importRacers(h.db, {
      csv: csv("Pro Men,Loic,Bruni,,,5,1,1,1", "Pro Men,Amaury,Pierron,,,99,1,1,1"),
      gameId: 6,
      actor: CLI_ACTOR,
    });
    expect(r.created).toBe(2);
    expect((await snapshot()).map((x) => x.gameId)).toEqual([6, 6]);
    await expect(importRacers(h.db, { records: [], gameId: -1, actor: CLI_ACTOR })).rejects.toThrow(
      RacerImportError,
    );
  });

  it("matches by ID when the file has an ID column", async () => {
    await importCsv(
      `${HEADER}\nPro Men,Loic,Bruni,,,5,1,1,1\nPro Men,Amaury,Pierron,,,5,2,1,1\nPro Men,Other,Event,,,6,1,1,1`,
    );
    const [bruni, pierron, other] = await snapshot();
    const r = await importRacers(h.db, {
      records: [
        // A rename through the id.
        {
          ID: String(bruni!.id),
          Category: "Pro Men",
          "First Name": "Loïc",
          "Last Name": "Bruni",
          "Game ID": "5",
        },
        // Taking another racer's name in the same event.
        {
          ID: String(bruni!.id),
          Category: "Pro Men",
          "First Name": "Amaury",
          "Last Name": "Pierron",
          "Game ID": "5",
        },
        {
          ID: "999999",
          Category: "Pro Men",
          "First Name": "No",
          "Last Name": "Body",
          "Game ID": "5",
        },
        {
          ID: String(other!.id),
          Category: "Pro Men",
          "First Name": "Other",
          "Last Name": "Event",
          "Game ID": "5",
        },
        {
          ID: String(pierron!.id),
          Category: "Pro Men",
          "First Name": "Amaury",
          "Last Name": "Pierron",
          "Game ID": "5",
          Rank2024: "2",
          TotalPoint2024: "1",
          Price: "1",
        },
      ],
      actor: CLI_ACTOR,
    });
    expect(r).toMatchObject({ created: 0, updated: 1, unchanged: 1 });
    expect(r.skipped).toEqual([
      { line: 3, reason: `racer ${pierron!.id} in event 5 already has that name` },
      { line: 4, reason: "no racer with ID 999999" },
      { line: 5, reason: `racer ${other!.id} belongs to event 6, not 5` },
    ]);
    const rows = await snapshot();
    expect(rows.find((x) => x.id === bruni!.id)!.firstName).toBe("Loïc");
  });

  it("writes nothing on a dry run, with the same summary", async () => {
    const text = `${HEADER}\nPro Men,Loic,Bruni,,,5,1,1,1\nPro Men,,x,,,5,1,1,1`;
    const dry = await importCsv(text, { dryRun: true });
    expect(await snapshot()).toEqual([]);
    expect(await h.db.select().from(auditLog)).toEqual([]);
    const real = await importCsv(text);
    expect({ ...dry, dryRun: false }).toEqual(real);
  });

  it("records who imported what in the audit log", async () => {
    await importRacers(h.db, {
      csv: csv("Pro Men,Loic,Bruni,,,5,1,1,1"),
      actor: { actor: "web:admin@example.com", actorId: null },
      source: "racers-2027.csv",
    });
    const [entry] = await h.db.select().from(auditLog);
    expect(entry).toMatchObject({
      actor: "web:admin@example.com",
      action: "racers.import",
      target: "racers-2027.csv",
      detail: { created: 1, updated: 0, unchanged: 0, skipped: 0 },
    });
  });

  it("is all or nothing: a failure in a later chunk leaves no racer behind", async () => {
    // A constraint only this test has, failing on the 1,500th row (the second chunk).
    await h.db.execute(
      sql`alter table racers add constraint test_no_boom check (last_name <> 'Boom')`,
    );
    try {
      const records = Array.from({ length: 1600 }, (_, i) => ({
        Category: "Pro Men",
        "First Name": `Rider${i}`,
        "Last Name": i === 1500 ? "Boom" : "Fine",
      }));
      await expect(importRacers(h.db, { records, actor: CLI_ACTOR })).rejects.toThrow();
      expect(await snapshot()).toEqual([]);
      expect(await h.db.select().from(auditLog)).toEqual([]);
    } finally {
      await h.db.execute(sql`alter table racers drop constraint test_no_boom`);
    }
  });

  it("refuses records that are not CSV rows", async () => {
    for (const records of [null, "Pro Men,A,B", [["Pro Men"]], [{ Category: { x: 1 } }]]) {
      await expect(importRacers(h.db, { records, actor: CLI_ACTOR })).rejects.toThrow(
        RacerImportError,
      );
    }
    await expect(
      importRacers(h.db, { records: [{ Category: "Pro Men" }], actor: CLI_ACTOR }),
    ).rejects.toThrow(/no First Name, Last Name column/);
    const tooMany = Array.from({ length: CSV_MAX_ROWS + 1 }, () => ({}));
    await expect(importRacers(h.db, { records: tooMany, actor: CLI_ACTOR })).rejects.toThrow(
      /limited to 20,000 rows/,
    );
  });

  it("reports progress chunk by chunk", async () => {
    const seen: [number, number][] = [];
    await importRacers(h.db, {
      records: Array.from({ length: 2500 }, (_, i) => ({
        Category: "Pro Women",
        "First Name": `R${i}`,
        "Last Name": "Progress",
      })),
      actor: CLI_ACTOR,
      onProgress: (done, total) => seen.push([done, total]),
    });
    expect(seen).toEqual([
      [1000, 2500],
      [2000, 2500],
      [2500, 2500],
    ]);
  });
});

describe("imports never lose data", () => {
  const fixture = (name: string) =>
    new Uint8Array(
      readFileSync(new URL(`../../../core/src/fixtures/racer-csv/${name}`, import.meta.url)),
    );

  it("a partial file changes only its own columns, and the dry run lists every change", async () => {
    await importCsv(`${HEADER}\nPro Men,Loïc,Bruni,lb.jpg,FRA,5,105,1450,99000`);
    const partial = "Category,First Name,Last Name,Game ID\nPro Women,Loïc,Bruni,5\n";
    const dry = await importCsv(partial, { dryRun: true });
    expect(dry).toMatchObject({ updated: 1, created: 0 });
    expect(dry.kept).toEqual(["Picture", "Origin", "Rank2024", "TotalPoint2024", "Price"]);
    expect(dry.changes).toEqual([
      {
        line: 2,
        action: "update",
        gameId: 5,
        name: "Loïc Bruni",
        changes: [{ field: "Category", from: "Pro Men", to: "Pro Women" }],
      },
    ]);
    await importCsv(partial);
    const [row] = await snapshot();
    expect(row).toMatchObject({
      category: "Pro Women",
      picture: "lb.jpg",
      origin: "FRA",
      rank2024: 105,
      totalPoint2024: 1450,
      price: 99000,
    });
  });

  it("empty cells keep a racer's fields; new racers get the defaults", async () => {
    await importCsv(`${HEADER}\nPro Men,Loïc,Bruni,lb.jpg,FRA,5,105,1450,99000`);
    const r = await importCsv(
      `${HEADER}\nPro Men,Loïc,Bruni,,,5,,,120000\nPro Men,New,Rider,,,5,,,`,
    );
    expect(r.changes).toEqual([
      {
        line: 2,
        action: "update",
        gameId: 5,
        name: "Loïc Bruni",
        changes: [{ field: "Price", from: 99000, to: 120000 }],
      },
      {
        line: 3,
        action: "create",
        gameId: 5,
        name: "New Rider",
        changes: [
          { field: "Category", from: null, to: "Pro Men" },
          { field: "First Name", from: null, to: "New" },
          { field: "Last Name", from: null, to: "Rider" },
          { field: "Rank2024", from: null, to: 0 },
          { field: "TotalPoint2024", from: null, to: 0 },
          { field: "Price", from: null, to: 75000 },
        ],
      },
    ]);
    expect(await snapshot()).toMatchObject([
      { firstName: "Loïc", picture: "lb.jpg", origin: "FRA", rank2024: 105, price: 120000 },
      { firstName: "New", picture: null, origin: "", rank2024: 0, price: 75000 },
    ]);
  });

  it("a dry run uses up no racer id", async () => {
    await importCsv(`${HEADER}\nPro Men,A,One,,,5,1,1,1`);
    await importCsv(`${HEADER}\nPro Men,B,Two,,,5,1,1,1\nPro Men,C,Three,,,5,1,1,1`, {
      dryRun: true,
    });
    await importCsv(`${HEADER}\nPro Men,D,Four,,,5,1,1,1`);
    const ids = (await snapshot()).map((r) => r.id);
    expect(ids[1]! - ids[0]!).toBe(1);
  });

  it("a Game ID that does not read skips the row instead of moving the racer", async () => {
    await importCsv(`${HEADER}\nPro Men,Loïc,Bruni,,,6,1,1,1`);
    const r = await importCsv(`${HEADER}\nPro Men,Loïc,Bruni,,,6a,2,2,2`);
    expect(r.skipped).toEqual([{ line: 2, reason: 'Game ID "6a" is not an event id' }]);
    expect(await snapshot()).toMatchObject([{ gameId: 6, rank2024: 1 }]);
  });

  it("imports the corpus of real-world files as a person expects", async () => {
    for (const name of [
      "excel-utf8-bom.csv",
      "excel-windows-1252.csv",
      "excel-semicolon-1252.csv",
      "libreoffice-quoted.csv",
      "google-sheets.csv",
      "excel-unicode-text-utf16le.txt",
      "tabs.tsv",
      "trailing-commas.csv",
      "quoted-line-breaks.csv",
      "blank-lines.csv",
    ]) {
      const r = await importRacers(h.db, { csv: fixture(name), actor: CLI_ACTOR });
      expect(r.skipped, name).toEqual([]);
      expect(r.created + r.updated + r.unchanged, name).toBe(r.rows);
    }
    const names = (await snapshot()).map((r) => `${r.firstName} ${r.lastName}`);
    expect(names).toContain("Zoë Müller");
    expect(names).toContain("Loïc Bruni");
    expect(names.some((n) => n.includes("\uFFFD"))).toBe(false);
    // The partial file then changes no price, rank or origin.
    const before = await snapshot();
    await importRacers(h.db, { csv: fixture("partial-columns.csv"), actor: CLI_ACTOR });
    expect(await snapshot()).toEqual(before);
  });

  it.each([
    ["empty.csv", "The file is empty."],
    ["binary.csv", "This is not a text CSV file."],
  ])("refuses %s with a message that says so", async (name, message) => {
    await expect(importRacers(h.db, { csv: fixture(name), actor: CLI_ACTOR })).rejects.toThrow(
      message,
    );
  });
});

describe("no import changes a field its file does not carry", () => {
  const OPTIONAL = ["Picture", "Origin", "Rank2024", "TotalPoint2024", "Price"] as const;
  const FIELD = {
    Picture: "picture",
    Origin: "origin",
    Rank2024: "rank2024",
    TotalPoint2024: "totalPoint2024",
    Price: "price",
  } as const;
  const cell = fc.constantFrom("", "n/a", "7", "120,000", "x.jpg", "FRA", "-5");
  // Written as a spreadsheet writes it: a cell holding a comma is quoted (unquoted, "120,000"
  // would be two cells, and the file would really carry a price of "000").
  const csvCell = (text: string) => (/[",]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

  it("holds for any subset of columns and any cells", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.subarray([...OPTIONAL]),
        // One row per racer: a repeated racer is skipped ("same racer as line ...").
        fc.uniqueArray(
          fc.tuple(fc.constantFrom("A", "B", "C"), fc.array(cell, { minLength: 5, maxLength: 5 })),
          { minLength: 1, maxLength: 3, selector: ([name]) => name },
        ),
        async (columns, rows) => {
          await h.db.delete(racers);
          await importCsv(
            `${HEADER}\nPro Men,A,One,a.jpg,GBR,5,1,10,99000\nPro Men,B,One,b.jpg,AUT,5,2,20,98000\nPro Men,C,One,,USA,5,3,30,97000`,
          );
          const before = await snapshot();
          const text = [
            ["Category", "First Name", "Last Name", ...columns].join(","),
            ...rows.map(([name, cells]) =>
              ["Pro Men", name, "One", ...columns.map((_, i) => csvCell(cells[i]!))].join(","),
            ),
          ].join("\n");
          const r = await importCsv(text);
          const after = await snapshot();
          for (const racer of after) {
            const old = before.find((b) => b.id === racer.id)!;
            const line = rows.findIndex(([name]) => name === racer.firstName);
            for (const column of OPTIONAL) {
              const field = FIELD[column];
              const given = columns.includes(column) && line >= 0;
              const cellText = given ? rows[line]![1][columns.indexOf(column)] : "";
              // Not in the file, or an empty cell: the racer keeps the value.
              if (!given || cellText === "") expect(racer[field], column).toEqual(old[field]);
            }
          }
          expect(after).toHaveLength(3);
          expect(r.created).toBe(0);
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe("import properties", () => {
  const cell = fc.constantFrom("Loic", "Bruni", "Vali", "Höll", "=1+1", "", " x ", "Amaury");
  const row = fc.record({
    Category: fc.constantFrom("Pro Men", "Pro Women", "17-18 Men", "junior women", "", "Kids"),
    "First Name": cell,
    "Last Name": cell,
    "Game ID": fc.constantFrom("5", "6", "7", "", "abc"),
    Price: fc.constantFrom("75000", "1", "", "-3", "1e3", "12,500"),
  });

  it("accounts for every row, and importing twice equals importing once", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(row, { maxLength: 25 }), async (records) => {
        await h.db.delete(racers);
        const blank = records.every((r) => Object.values(r).every((v) => v.trim() === ""));
        if (blank) {
          await expect(importRacers(h.db, { records, actor: CLI_ACTOR })).rejects.toThrow(
            RacerImportError,
          );
          return;
        }
        const first = await importRacers(h.db, { records, actor: CLI_ACTOR });
        expect(first.created + first.updated + first.unchanged + first.skipped.length).toBe(
          first.rows,
        );
        const once = await snapshot();
        const again = await importRacers(h.db, { records, actor: CLI_ACTOR });
        expect(again.created).toBe(0);
        expect(again.updated).toBe(0);
        expect(again.skipped).toEqual(first.skipped);
        expect(await snapshot()).toEqual(once);
      }),
      { numRuns: 25 },
    );
  });
});

describe("listRacersForAdmin", () => {
  it("lists by event, then category in tab order, then rank with unranked last", async () => {
    await importCsv(
      [
        HEADER,
        "17-18 Men,Junior,One,,,5,1,0,0",
        "Pro Women,Pro,Woman,,,5,1,0,0",
        "Pro Men,Unranked,Man,,,5,0,0,0",
        "Pro Men,Ranked,Man,,,5,2,0,0",
        "Pro Men,Other,Event,,,6,1,0,0",
      ].join("\n"),
    );
    const all = await listRacersForAdmin(h.db);
    expect(all.total).toBe(5);
    expect(all.rows.map((r) => r.firstName)).toEqual([
      "Ranked",
      "Unranked",
      "Pro",
      "Junior",
      "Other",
    ]);
    const some = await listRacersForAdmin(h.db, { gameId: 5, category: "Pro Men" });
    expect(some.rows.map((r) => r.firstName)).toEqual(["Ranked", "Unranked"]);
    expect(some.total).toBe(2);
    const [one] = (await listRacersForAdmin(h.db, { gameId: 6 })).rows;
    expect(await h.db.select().from(racers).where(eq(racers.id, one!.id))).toHaveLength(1);
  });
});
