import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CATEGORIES } from "./categories.js";
import { headerKey, parseCount, parseRacerRows, RACER_CSV_COLUMNS, racerKey } from "./csv.js";

const full = {
  Category: "Pro Women",
  "First Name": "Rachel",
  "Last Name": "Atherton",
  Picture: "rachel.jpg",
  Origin: "GBR",
  "Game ID": "6",
  Rank2024: "3",
  TotalPoint2024: "1200",
  Price: "150000",
};

describe("parseRacerRows", () => {
  it("reads a complete row; the first record is line 2 (header = line 1)", () => {
    const { rows, skipped } = parseRacerRows([full]);
    expect(skipped).toEqual([]);
    expect(rows).toEqual([
      {
        line: 2,
        category: "Pro Women",
        firstName: "Rachel",
        lastName: "Atherton",
        picture: "rachel.jpg",
        origin: "GBR",
        gameId: 6,
        rank2024: 3,
        totalPoint2024: 1200,
        price: 150000,
      },
    ]);
  });

  it("lists the spec's columns", () => {
    expect(RACER_CSV_COLUMNS).toEqual([
      "Category",
      "First Name",
      "Last Name",
      "Picture",
      "Origin",
      "Game ID",
      "Rank2024",
      "TotalPoint2024",
      "Price",
    ]);
  });

  it("matches headers with a BOM, odd spacing and case", () => {
    const record = {
      "\uFEFFCategory": "17-18 Men",
      "  first   NAME ": "Jackson",
      LastName: "Goldstone",
      "game id": "5",
      "RANK 2024": "12",
      total_point_2024: "300",
      " price ": "90000",
    };
    const { rows, skipped } = parseRacerRows([record]);
    expect(skipped).toEqual([]);
    expect(rows[0]).toMatchObject({
      category: "17-18 Men",
      firstName: "Jackson",
      lastName: "Goldstone",
      gameId: 5,
      rank2024: 12,
      totalPoint2024: 300,
      price: 90000,
    });
    expect(headerKey("\uFEFFFirst Name")).toBe("firstname");
    expect(headerKey(" Game_ID ")).toBe("gameid");
  });

  it("treats Picture as optional", () => {
    const { Picture: _omit, ...noPicture } = full;
    const a = parseRacerRows([noPicture]);
    expect(a.skipped).toEqual([]);
    expect(a.rows[0]!.picture).toBeNull();
    const b = parseRacerRows([{ ...full, Picture: "  " }]);
    expect(b.rows[0]!.picture).toBeNull();
  });

  it("skips rows missing Category, First Name or Last Name, with their 1-based line", () => {
    const records = [
      full, // line 2
      { ...full, Category: "" }, // line 3
      { ...full, "First Name": "  " }, // line 4
      { ...full, "Last Name": undefined }, // line 5
      { Category: "Pro Men", Price: "1" }, // line 6
      full, // line 7
    ];
    const { rows, skipped } = parseRacerRows(records);
    expect(rows.map((r) => r.line)).toEqual([2, 7]);
    expect(skipped).toEqual([
      { line: 3, reason: "missing Category" },
      { line: 4, reason: "missing First Name" },
      { line: 5, reason: "missing Last Name" },
      { line: 6, reason: "missing First Name, Last Name" },
    ]);
  });

  it("ignores blank lines but keeps counting them", () => {
    const blank = Object.fromEntries(Object.keys(full).map((k) => [k, ""]));
    const { rows, skipped } = parseRacerRows([full, blank, {}, { Category: "  " }, full]);
    expect(skipped).toEqual([]);
    expect(rows.map((r) => r.line)).toEqual([2, 6]);
  });

  it("honours firstLine and a forced gameId", () => {
    const { rows } = parseRacerRows([full, full], { firstLine: 10, gameId: 9 });
    expect(rows.map((r) => [r.line, r.gameId])).toEqual([
      [10, 9],
      [11, 9],
    ]);
  });

  it("skips an unknown category with a reason", () => {
    const { rows, skipped } = parseRacerRows([{ ...full, Category: "Masters 40+" }]);
    expect(rows).toEqual([]);
    expect(skipped).toHaveLength(1);
    expect(skipped[0]!.line).toBe(2);
    expect(skipped[0]!.reason).toContain("unknown category");
    expect(skipped[0]!.reason).toContain("Masters 40+");
  });

  it("reads loosely written categories", () => {
    const { rows } = parseRacerRows([
      { ...full, Category: "junior women" },
      { ...full, Category: "PRO MEN" },
    ]);
    expect(rows.map((r) => r.category)).toEqual(["17-18 Women", "Pro Men"]);
  });

  it("skips names longer than 200 characters", () => {
    const { rows, skipped } = parseRacerRows([{ ...full, "Last Name": "x".repeat(201) }]);
    expect(rows).toEqual([]);
    expect(skipped).toEqual([{ line: 2, reason: "name longer than 200 characters" }]);
  });

  it("falls back to the defaults for numbers that do not parse or are missing", () => {
    const bad = {
      ...full,
      "Game ID": "five",
      Rank2024: "-3",
      TotalPoint2024: "1.5",
      Price: "cheap",
    };
    const missing = { Category: "Pro Men", "First Name": "Loic", "Last Name": "Bruni" };
    const { rows } = parseRacerRows([bad, missing]);
    for (const row of rows) {
      expect(row).toMatchObject({ gameId: 5, rank2024: 0, totalPoint2024: 0, price: 75000 });
    }
    expect(rows[1]!.origin).toBe("");
    expect(rows[1]!.picture).toBeNull();
  });

  it('parses "75,000", "$75000" and spaced numbers', () => {
    const { rows } = parseRacerRows([
      { ...full, Price: "80,000" },
      { ...full, Price: "$90000" },
      { ...full, Price: " $ 1,250,000 " },
    ]);
    expect(rows.map((r) => r.price)).toEqual([80000, 90000, 1250000]);
    expect(parseCount("75,000")).toBe(75000);
    expect(parseCount("$75000")).toBe(75000);
    expect(parseCount(" 12 ")).toBe(12);
    expect(parseCount("0")).toBe(0);
    for (const v of ["", "abc", "-1", "1.5", "1e5", "9".repeat(13)]) {
      expect(parseCount(v)).toBeUndefined();
    }
  });

  it("accepts numbers already typed by the CSV parser", () => {
    const { rows } = parseRacerRows([{ ...full, Price: 60000, Rank2024: 4, "Game ID": 7 }]);
    expect(rows[0]).toMatchObject({ price: 60000, rank2024: 4, gameId: 7 });
  });

  it("keeps formula-like cells as plain text", () => {
    const formula = '=HYPERLINK("x")';
    const { rows } = parseRacerRows([
      { ...full, "First Name": formula, Origin: "+1+1", Picture: "@SUM(A1)" },
    ]);
    expect(rows[0]).toMatchObject({ firstName: formula, origin: "+1+1", picture: "@SUM(A1)" });
  });

  it("reads an optional ID column", () => {
    const { rows } = parseRacerRows([{ ...full, ID: "42" }, full, { ...full, ID: "x" }]);
    expect(rows[0]!.id).toBe(42);
    expect("id" in rows[1]!).toBe(false);
    expect("id" in rows[2]!).toBe(false);
  });

  it("property: every record ends up in rows or skipped (or is blank), never both", () => {
    const cell = fc.oneof(
      fc.constantFrom("", "  ", "Pro Men", "pro women", "17-18 Women", "Masters", "75,000", "x"),
      fc.string({ maxLength: 8 }),
      fc.constant(undefined),
      fc.constant(null),
    );
    const key = fc.constantFrom(
      ...RACER_CSV_COLUMNS,
      "ID",
      "Notes",
      "first name",
      "\uFEFFCategory",
    );
    const record = fc.dictionary(key, cell, { maxKeys: 10 });
    fc.assert(
      fc.property(
        fc.array(record, { maxLength: 25 }),
        fc.integer({ min: 1, max: 100 }),
        (records, firstLine) => {
          const { rows, skipped } = parseRacerRows(records, { firstLine });
          const rowLines = rows.map((r) => r.line);
          const skippedLines = skipped.map((s) => s.line);
          const all = [...rowLines, ...skippedLines];
          // No line twice (so never both in rows and skipped).
          expect(new Set(all).size).toBe(all.length);
          records.forEach((rec, i) => {
            const line = firstLine + i;
            const blank = Object.values(rec).every((v) => v == null || String(v).trim() === "");
            if (blank) expect(all).not.toContain(line);
            else expect(all).toContain(line);
          });
          for (const row of rows) {
            expect(CATEGORIES).toContain(row.category);
            expect(row.firstName).not.toBe("");
            expect(row.lastName).not.toBe("");
            for (const n of [row.gameId, row.rank2024, row.totalPoint2024, row.price]) {
              expect(Number.isSafeInteger(n) && n >= 0).toBe(true);
            }
          }
          for (const s of skipped) expect(s.reason).not.toBe("");
        },
      ),
    );
  });
});

describe("racerKey", () => {
  it("compares names case- and space-insensitively within a game", () => {
    const a = racerKey({ gameId: 5, firstName: " Loic ", lastName: "BRUNI" });
    const b = racerKey({ gameId: 5, firstName: "loic", lastName: "bruni" });
    const c = racerKey({ gameId: 6, firstName: "loic", lastName: "bruni" });
    expect(a).toBe(b);
    expect(a).not.toBe(c);
    expect(racerKey({ gameId: 5, firstName: "Anne  Marie", lastName: "X" })).toBe(
      racerKey({ gameId: 5, firstName: "anne marie", lastName: "x" }),
    );
  });
});
