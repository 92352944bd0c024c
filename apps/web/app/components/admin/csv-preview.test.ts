import { CSV_MAX_ROWS } from "@game/core";
import { readRacerCsv } from "@game/db";
import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { type CsvRecord, fileTooBig, previewCsv } from "./csv-preview";

const HEADER = "Category,First Name,Last Name,Picture,Origin,Game ID,Rank2024,TotalPoint2024,Price";

/** As the browser does it. */
const preview = (text: string) =>
  previewCsv(Papa.parse<CsvRecord>(text, { header: true, skipEmptyLines: false }), text);

describe("the dashboard's CSV preview", () => {
  it("counts rows read and skipped with the server's rules and line numbers", () => {
    const text = `\uFEFF${HEADER}\r\nPro Men,Loic,Bruni,,FRA,5,1,1,1\r\n\r\nPro Men,,Hart,,,5,1,1,1\r\nKids,A,B\r\n`;
    const p = preview(text);
    expect(p).toMatchObject({
      ok: true,
      read: 3,
      skipped: [
        { line: 4, reason: "missing First Name" },
        { line: 5, reason: 'unknown category "Kids"' },
      ],
    });
    if (p.ok) {
      expect(p.rows.map((r) => r.lastName)).toEqual(["Bruni"]);
      // What the server reads from the same file: the same records, line for line.
      expect(p.records).toEqual(readRacerCsv(text));
    }
  });

  it("refuses the same broken files the server refuses, with the same words", () => {
    const cases = [
      "Category,Surname\nPro Men,Brosnan\n",
      `${HEADER}\nPro Men,Troy,Brosnan\nPro Men,"Danny,Hart\n`,
    ];
    for (const text of cases) {
      const p = preview(text);
      expect(p.ok).toBe(false);
      expect(() => readRacerCsv(text)).toThrow(p.ok ? "" : p.error);
    }
    const many = [HEADER, ...Array.from({ length: CSV_MAX_ROWS + 1 }, () => "Pro Men,A,B")];
    expect(preview(many.join("\n"))).toMatchObject({ ok: false, error: /limited to 20,000 rows/ });
  });

  it("refuses a file over 5 MB before reading it", () => {
    expect(fileTooBig(5 * 1024 * 1024)).toBeNull();
    expect(fileTooBig(6 * 1024 * 1024)).toBe(
      "The file is 6.0 MB; racer files are limited to 5.0 MB.",
    );
  });
});
