import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CATEGORIES } from "./categories.js";
import { escapeCsvCell, unescapeCsvCell, writeCsv } from "./csv-cells.js";
import { readCsvRows } from "./csv-rows.js";
import { parseRacerCsv, RACER_NUMBER_MAX } from "./racer-csv.js";
import { readCsv } from "./results.js";

/** The probe's payloads: every one of them a formula when a spreadsheet opens the file. */
const FORMULAS = [
  '=HYPERLINK("http://evil.example","click")',
  "+SUM(A1:A2)",
  "-2+3",
  "@SUM(A1)",
  "=cmd|' /C calc'!A0",
];

/** A text that starts a formula, possibly behind quotes a person typed. */
const formulaLike = fc
  .tuple(
    fc.constantFrom("", "'", "''"),
    fc.constantFrom("=", "+", "-", "@", "\t", "\r"),
    fc.string({ maxLength: 20 }),
  )
  .map(([quotes, start, rest]) => `${quotes}${start}${rest}`);
const anyText = fc.oneof(fc.string({ maxLength: 30 }), formulaLike, fc.constantFrom(...FORMULAS));

describe("escapeCsvCell", () => {
  it("puts a quote before each of the probe's formulas, and leaves plain text alone", () => {
    expect(FORMULAS.map(escapeCsvCell)).toEqual(FORMULAS.map((f) => `'${f}`));
    expect(escapeCsvCell("\tSUM(A1)")).toBe("'\tSUM(A1)");
    expect(escapeCsvCell("\rSUM(A1)")).toBe("'\rSUM(A1)");
    for (const text of ["Loïc Bruni", "", "O'Neal", "a=b", "FRA", "75000", " -5"]) {
      expect(escapeCsvCell(text)).toBe(text);
    }
    // A quote already in front of a formula gets one more: reading takes exactly one off.
    expect(escapeCsvCell("'=1+1")).toBe("''=1+1");
    expect(unescapeCsvCell("''=1+1")).toBe("'=1+1");
  });

  it("never leaves a cell starting a formula, and unescapeCsvCell undoes it exactly", () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const cell = escapeCsvCell(text);
        expect(cell).not.toMatch(/^[=+\-@\t\r]/);
        expect(unescapeCsvCell(cell)).toBe(text);
      }),
      { numRuns: 3000 },
    );
  });

  it("leaves a cell it did not write alone, unless it is one it would have written", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), (cell) => {
        const read = unescapeCsvCell(cell);
        // Either untouched, or exactly one quote taken off a cell escapeCsvCell writes.
        if (read !== cell) expect(escapeCsvCell(read)).toBe(cell);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("writeCsv", () => {
  it("writes the probe's formulas as text, numbers (negative ones too) as numbers", () => {
    const text = writeCsv(["Name", "Points"], [...FORMULAS.map((f) => [f, -5]), [null, 7]]);
    expect(text.startsWith("\uFEFFName,Points\r\n")).toBe(true);
    expect(text).toContain(`"'=HYPERLINK(""http://evil.example"",""click"")",-5\r\n`);
    expect(text).toContain("'+SUM(A1:A2),-5\r\n");
    expect(text).toContain("'-2+3,-5\r\n");
    expect(text).toContain("'@SUM(A1),-5\r\n");
    expect(text).toContain("'=cmd|' /C calc'!A0,-5\r\n");
    expect(text.endsWith(",7\r\n")).toBe(true);
    // No line of the file has a cell that starts a formula.
    const { rows } = readCsvRows(text.slice(1), ",");
    for (const row of rows) for (const cell of row.cells) expect(cell).not.toMatch(/^[=+@\t\r]/);
  });

  it("round trip: what writeCsv writes, the CSV reader gives back unchanged", () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: 4 })
          .chain((width) =>
            fc.array(fc.array(anyText, { minLength: width, maxLength: width }), { maxLength: 6 }),
          ),
        (rows) => {
          const width = rows[0]?.length ?? 1;
          const fields = Array.from({ length: width }, (_, i) => `Column ${i + 1}`);
          const text = writeCsv(fields, rows);
          expect(text.startsWith("\uFEFF")).toBe(true);
          const read = readCsvRows(text.slice(1), ",");
          expect(read.quoteError).toBeNull();
          // The file ends with a line break: the reader sees one empty line after it.
          expect(read.rows.at(-1)?.cells).toEqual([""]);
          const cells = read.rows.slice(0, -1).map((r) => r.cells.map(unescapeCsvCell));
          expect(cells).toEqual([fields, ...rows]);
        },
      ),
      { numRuns: 500 },
    );
  });
});

/** Racer text as the database holds it: trimmed (the import trims every cell). */
const racerText = (minLength: number) =>
  anyText
    .map((s) => s.trim())
    .filter((s) => s.length >= minLength && s.length <= 200 && s === s.trim());

describe("racer files: export then import", () => {
  it("gives back every racer exactly, formulas and negative-looking text included", () => {
    const racer = fc.record({
      category: fc.constantFrom(...CATEGORIES),
      firstName: racerText(1),
      lastName: racerText(1),
      picture: racerText(0),
      origin: racerText(0),
      gameId: fc.integer({ min: 1, max: 12 }),
      rank2024: fc.integer({ min: 0, max: 500 }),
      totalPoint2024: fc.integer({ min: 0, max: 10_000 }),
      price: fc.integer({ min: 0, max: RACER_NUMBER_MAX }),
    });
    fc.assert(
      fc.property(fc.array(racer, { minLength: 1, maxLength: 5 }), (racers) => {
        const text = writeCsv(
          [
            "Category",
            "First Name",
            "Last Name",
            "Picture",
            "Origin",
            "Game ID",
            "Rank2024",
            "TotalPoint2024",
            "Price",
          ],
          racers.map((r) => [
            r.category,
            r.firstName,
            r.lastName,
            r.picture,
            r.origin,
            r.gameId,
            r.rank2024,
            r.totalPoint2024,
            r.price,
          ]),
        );
        const file = parseRacerCsv(text);
        expect(file.skipped).toEqual([]);
        expect(file.defaults).toEqual([]);
        expect(
          file.rows.map(({ line: _line, given: _given, ...r }) => ({
            ...r,
            picture: r.picture ?? "",
          })),
        ).toEqual(racers);
      }),
      { numRuns: 300 },
    );
  });
});

describe("results files", () => {
  it("read a cell escapeCsvCell wrote as the text it was", () => {
    const table = readCsv(
      writeCsv(["Position", "First Name", "Last Name"], [[1, "=Loic", "-Bruni"]]),
    );
    expect(table.header).toEqual(["Position", "First Name", "Last Name"]);
    expect(table.records[0]?.values).toEqual(["1", "=Loic", "-Bruni"]);
  });
});
