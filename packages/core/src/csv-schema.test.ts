import fc from "fast-check";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { z } from "zod";
import { CATEGORIES } from "./categories.js";
import { RACER_DEFAULTS } from "./constants.js";
import {
  headerKey,
  parseCount,
  parseRacerRows,
  RACER_CSV_COLUMNS,
  type RacerCsvRow,
  racerCsvRowSchema,
  racerCsvSkipReason,
} from "./csv.js";
import { unescapeCsvCell } from "./csv-cells.js";
import * as core from "./index.js";

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
const required = { Category: "Pro Men", "First Name": "Loic", "Last Name": "Bruni" };
const NUMBER_COLUMNS = ["Game ID", "Rank2024", "TotalPoint2024", "Price"] as const;
const NUMBER_FIELDS = {
  "Game ID": "gameId",
  Rank2024: "rank2024",
  TotalPoint2024: "totalPoint2024",
  Price: "price",
} as const;

/** The skip reason of a refused record; fails the test when the record parses. */
function reasonFor(record: Record<string, unknown>): string {
  const r = racerCsvRowSchema.safeParse(record);
  expect(r.success).toBe(false);
  return r.success ? "" : racerCsvSkipReason(r.error.issues);
}

describe("racerCsvRowSchema", () => {
  it("is exported from the package index", () => {
    expect(core.racerCsvRowSchema).toBe(racerCsvRowSchema);
    expect(core.racerCsvSkipReason).toBe(racerCsvSkipReason);
  });

  it("types its input as a CSV record and its output as a racer row without a line", () => {
    expectTypeOf<z.input<typeof racerCsvRowSchema>>().toEqualTypeOf<Record<string, unknown>>();
    expectTypeOf<z.output<typeof racerCsvRowSchema>>().toEqualTypeOf<RacerCsvRow>();
  });

  it("reads a complete record into a typed row", () => {
    expect(racerCsvRowSchema.parse(full)).toEqual({
      category: "Pro Women",
      firstName: "Rachel",
      lastName: "Atherton",
      picture: "rachel.jpg",
      origin: "GBR",
      gameId: 6,
      rank2024: 3,
      totalPoint2024: 1200,
      price: 150000,
    });
  });

  it("matches headers loosely, and takes records already keyed by headerKey", () => {
    const loose = Object.fromEntries(
      Object.entries(full).map(([k, v]) => [` \uFEFF${k.toUpperCase().replace(" ", "_")} `, v]),
    );
    const keyed = Object.fromEntries(Object.entries(full).map(([k, v]) => [headerKey(k), v]));
    expect(racerCsvRowSchema.parse(loose)).toEqual(racerCsvRowSchema.parse(full));
    expect(racerCsvRowSchema.parse(keyed)).toEqual(racerCsvRowSchema.parse(full));
  });

  it("reads the first of two headers that mean the same column", () => {
    expect(racerCsvRowSchema.parse({ ...full, price: "1" }).price).toBe(150000);
    expect(racerCsvRowSchema.parse({ price: "", ...full }).price).toBe(RACER_DEFAULTS.price);
  });

  it("trims cells and ignores columns it does not know", () => {
    const row = racerCsvRowSchema.parse({ ...full, "First Name": "  Rachel ", Notes: "fast" });
    expect(row.firstName).toBe("Rachel");
    expect(row).not.toHaveProperty("notes");
  });

  it("treats Picture as optional and Origin as defaulting to empty", () => {
    expect(racerCsvRowSchema.parse(required)).toMatchObject({ picture: null, origin: "" });
    expect(racerCsvRowSchema.parse({ ...required, Picture: " ", Origin: null }).picture).toBe(null);
  });

  it("falls back to 5, 0, 0 and 75000 for numbers that are missing or do not parse", () => {
    const defaults = { gameId: 5, rank2024: 0, totalPoint2024: 0, price: 75000 };
    expect(defaults).toEqual({
      gameId: RACER_DEFAULTS.gameId,
      rank2024: RACER_DEFAULTS.rank2024,
      totalPoint2024: RACER_DEFAULTS.totalPoint2024,
      price: RACER_DEFAULTS.price,
    });
    expect(racerCsvRowSchema.parse(required)).toMatchObject(defaults);
    for (const garbage of ["", "five", "-3", "1.5", "1e5", "9".repeat(13), null, -1, 2.5, NaN]) {
      const record = {
        ...required,
        ...Object.fromEntries(NUMBER_COLUMNS.map((c) => [c, garbage])),
      };
      expect(racerCsvRowSchema.parse(record)).toMatchObject(defaults);
    }
  });

  it("reads an ID column only when it holds a positive whole number", () => {
    expect(racerCsvRowSchema.parse({ ...full, ID: "42" }).id).toBe(42);
    for (const id of ["", "0", "x", "-4", undefined]) {
      expect(racerCsvRowSchema.parse({ ...full, ID: id })).not.toHaveProperty("id");
    }
  });

  it("refuses records missing Category, First Name or Last Name, naming them in column order", () => {
    expect(reasonFor({})).toBe("missing Category, First Name, Last Name");
    expect(reasonFor({ "Last Name": "x", Category: "  " })).toBe("missing Category, First Name");
    expect(reasonFor({ ...full, "Last Name": undefined })).toBe("missing Last Name");
    const r = racerCsvRowSchema.safeParse({ ...full, "First Name": "" });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => [i.path, i.message])).toEqual([
      [["firstname"], "missing First Name"],
    ]);
  });

  it("refuses an unknown category, then an over-long name, after any missing column", () => {
    const long = "x".repeat(201);
    expect(reasonFor({ ...full, Category: "Masters 40+" })).toBe('unknown category "Masters 40+"');
    expect(reasonFor({ ...full, "First Name": long })).toBe("name longer than 200 characters");
    expect(reasonFor({ ...full, Category: "Masters", "Last Name": long })).toBe(
      'unknown category "Masters"',
    );
    expect(reasonFor({ ...full, Category: "Masters", "Last Name": "" })).toBe("missing Last Name");
    expect(reasonFor({ ...full, Category: "y".repeat(60) })).toBe(
      `unknown category "${"y".repeat(40)}"`,
    );
  });

  it("refuses what is not a record without throwing", () => {
    for (const input of [null, undefined, "Pro Men,Loic,Bruni", 42, ["Pro Men"]]) {
      const r = racerCsvRowSchema.safeParse(input);
      expect(r.success).toBe(false);
      expect(r.success ? "" : racerCsvSkipReason(r.error.issues)).not.toBe("");
    }
  });

  it("throws, leaving no rejected promise, on a cell that cannot be read as text", () => {
    const unreadable = Object.create(null);
    expect(() => parseRacerRows([{ ...full, Price: unreadable }])).toThrow(TypeError);
  });
});

// Cells a CSV parser may hand over: text (papaparse) or numbers (dynamicTyping), or nothing.
const anyCell = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom("", "  ", "Pro Men", "75,000", "$ 90000", "-1", "1.5", "n/a"),
  fc.double(),
  fc.integer(),
  fc.constantFrom(null, undefined, true),
);
const anyColumn = fc.constantFrom(...RACER_CSV_COLUMNS, "ID", "Notes", "first name", "PRICE");
const anyRecord = fc.dictionary(anyColumn, anyCell, { maxKeys: 12 });

/** The record without any header that reads as `column`. */
function without(record: Record<string, unknown>, column: string): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(record).filter(([k]) => headerKey(k) !== headerKey(column)),
  );
}

// A required cell: some non-blank text of at most 200 characters once trimmed.
const nameCell = fc
  .string({ minLength: 1, maxLength: 30 })
  .filter((s) => s.trim() !== "")
  .map((s) => ` ${s} `);
const categoryCell = fc.oneof(
  fc.constantFrom(...CATEGORIES),
  fc.constantFrom("pro men", "PRO WOMEN", "junior men", "17-18 women", "pro-women", "Elite Men"),
);
const goodRecord = fc
  .tuple(anyRecord, categoryCell, nameCell, nameCell)
  .map(([rest, category, first, last]) => ({
    // Without other spellings of the required headers: the first of two would count.
    ...without(without(without(rest, "Category"), "First Name"), "Last Name"),
    Category: category,
    "First Name": first,
    "Last Name": last,
  }));

// Cells that are not a whole number from 0 up.
const notACount = fc.oneof(
  fc.string({ maxLength: 10 }).filter((s) => parseCount(s) === undefined),
  fc.integer({ max: -1 }),
  fc.double().filter((n) => !Number.isInteger(n) || n < 0),
  fc.constantFrom("", " ", "-0", "1e3", "0x10", "12abc", "1 000.5", "9".repeat(13), null),
);

const withCommas = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");

/** A whole number from 0 up, and a cell holding it the way a spreadsheet may write it. */
const writtenCount = fc
  .integer({ min: 0, max: 999_999_999_999 })
  .chain((n) =>
    fc.constantFrom<[number, string | number]>(
      [n, n],
      [n, String(n)],
      [n, withCommas(n)],
      [n, `$${withCommas(n)}`],
      [n, `  ${n}  `],
      [n, `$ ${n}`],
    ),
  );

describe("racerCsvRowSchema properties", () => {
  it("parses any record with a known category and both names, whatever its other cells", () => {
    fc.assert(
      fc.property(goodRecord, (record) => {
        const row = racerCsvRowSchema.parse(record);
        expect(CATEGORIES).toContain(row.category);
        // A name written behind a formula guard ("'=...") reads back without it (decision 0154).
        expect(row.firstName).toBe(unescapeCsvCell(record["First Name"].trim()));
        expect(row.lastName).toBe(unescapeCsvCell(record["Last Name"].trim()));
        for (const n of [row.gameId, row.rank2024, row.totalPoint2024, row.price]) {
          expect(Number.isSafeInteger(n) && n >= 0).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("falls back to the defaults for numeric garbage", () => {
    fc.assert(
      fc.property(goodRecord, fc.constantFrom(...NUMBER_COLUMNS), notACount, (rec, column, bad) => {
        const row = racerCsvRowSchema.parse({ ...without(rec, column), [column]: bad });
        expect(row[NUMBER_FIELDS[column]]).toBe(
          {
            gameId: RACER_DEFAULTS.gameId,
            rank2024: RACER_DEFAULTS.rank2024,
            totalPoint2024: RACER_DEFAULTS.totalPoint2024,
            price: RACER_DEFAULTS.price,
          }[NUMBER_FIELDS[column]],
        );
      }),
    );
  });

  it("round-trips valid numbers, typed or written with commas, $ and spaces", () => {
    fc.assert(
      fc.property(
        goodRecord,
        fc.constantFrom(...NUMBER_COLUMNS),
        writtenCount,
        (rec, column, w) => {
          const [n, cell] = w;
          const row = racerCsvRowSchema.parse({ ...without(rec, column), [column]: cell });
          expect(row[NUMBER_FIELDS[column]]).toBe(n);
        },
      ),
    );
  });

  it("parseRacerRows is the schema row by row, plus the line, blank lines and a forced event", () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(anyRecord, goodRecord), { maxLength: 15 }),
        fc.option(fc.integer({ min: 1, max: 12 }), { nil: undefined }),
        (records, gameId) => {
          const { rows, skipped } = parseRacerRows(records, { firstLine: 2, gameId });
          const expectedRows: unknown[] = [];
          const expectedSkipped: unknown[] = [];
          records.forEach((record, i) => {
            const r = racerCsvRowSchema.safeParse(record);
            if (r.success) {
              expectedRows.push({ line: i + 2, ...r.data, gameId: gameId ?? r.data.gameId });
            } else if (!Object.values(record).every((v) => v == null || String(v).trim() === "")) {
              expectedSkipped.push({ line: i + 2, reason: racerCsvSkipReason(r.error.issues) });
            }
          });
          expect(rows).toEqual(expectedRows);
          expect(skipped).toEqual(expectedSkipped);
        },
      ),
    );
  });
});
