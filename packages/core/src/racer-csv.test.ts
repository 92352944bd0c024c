import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CsvFileError, decodeCsvBytes } from "./csv-file.js";
import {
  parseRacerCsv,
  RACER_NUMBER_MAX,
  racerCsvFromRecords,
  readRacerCsvBytes,
  readWholeNumber,
} from "./racer-csv.js";

const fixture = (name: string) =>
  new Uint8Array(readFileSync(new URL(`./fixtures/racer-csv/${name}`, import.meta.url)));
const read = (name: string) => readRacerCsvBytes(fixture(name));
const names = (name: string) => read(name).rows.map((r) => `${r.firstName} ${r.lastName}`);

describe("the corpus of real-world racer files", () => {
  it("Excel CSV UTF-8: BOM, CRLF, a quoted comma, a price with $ and a comma", () => {
    const file = read("excel-utf8-bom.csv");
    expect(file.encoding).toBe("UTF-8 with BOM");
    expect(file.skipped).toEqual([]);
    expect(names("excel-utf8-bom.csv")).toEqual([
      "Loïc Bruni",
      "Myriam Nicole",
      "Jordan Williams, Jr",
    ]);
    expect(file.rows[0]).toMatchObject({ line: 2, price: 150000, picture: "loic.jpg" });
    // Empty Rank/Points/Price cells are not given: defaults for a new racer, nothing reported.
    expect(file.rows[2]).toMatchObject({ rank2024: 0, price: 75000 });
    expect(file.rows[2]!.given).not.toContain("price");
    expect(file.defaults).toEqual([]);
  });

  it("Excel's plain CSV in Windows-1252 is decoded, not mangled", () => {
    const file = read("excel-windows-1252.csv");
    expect(file.encoding).toBe("Windows-1252");
    expect(names("excel-windows-1252.csv")).toEqual(["Loïc Bruni", "Céline Gros", "Zoë Müller"]);
  });

  it("a European Excel file: semicolons, Windows-1252, spaces and € in prices", () => {
    const file = read("excel-semicolon-1252.csv");
    expect(file.skipped).toEqual([]);
    expect(file.rows.map((r) => r.price)).toEqual([130000, 110000]);
  });

  it("LibreOffice with every text cell quoted", () => {
    const file = read("libreoffice-quoted.csv");
    expect(file.encoding).toBe("UTF-8");
    expect(names("libreoffice-quoted.csv")).toEqual(["Loris Vergier", "Valentina Höll"]);
    expect(file.rows[1]).toMatchObject({ category: "17-18 Women", picture: null, price: 90000 });
  });

  it("a Google Sheets download: CRLF and no newline at the end", () => {
    expect(names("google-sheets.csv")).toEqual(["Finn Iles", "Tahnée Seagrave"]);
  });

  it("Excel's Unicode Text (UTF-16 LE with BOM, tabs) and UTF-16 BE with BOM", () => {
    const le = read("excel-unicode-text-utf16le.txt");
    expect(le.encoding).toBe("UTF-16 LE");
    expect(names("excel-unicode-text-utf16le.txt")).toEqual(["Loïc Bruni", "Marine Cabirou"]);
    expect(read("utf16be-bom.csv").encoding).toBe("UTF-16 BE");
    expect(names("utf16be-bom.csv")).toEqual(["Loïc Bruni"]);
  });

  it("tab-separated values", () => {
    expect(read("tabs.tsv").rows[0]).toMatchObject({ lastName: "Brosnan", price: 115000 });
  });

  it("trailing commas on the header and every row are ignored", () => {
    const file = read("trailing-commas.csv");
    expect(file.skipped).toEqual([]);
    expect(file.rows.map((r) => r.line)).toEqual([2, 3, 4]);
  });

  it("quoted line breaks keep the file's line numbers", () => {
    const file = read("quoted-line-breaks.csv");
    expect(file.skipped).toEqual([]);
    expect(file.rows.map((r) => r.line)).toEqual([2, 4, 6]);
    expect(file.rows[0]!.firstName).toBe("Loïc\nAlexandre");
  });

  it("a partial file gives only its own columns", () => {
    const file = read("partial-columns.csv");
    expect(file.columns).toEqual(["Category", "First Name", "Last Name", "Game ID"]);
    for (const row of file.rows) expect(row.given).toEqual(["category", "firstName", "lastName"]);
  });

  it("blank lines, right after the header too, are skipped silently", () => {
    const file = read("blank-lines.csv");
    expect(file.read).toBe(2);
    expect(file.skipped).toEqual([]);
    expect(file.rows.map((r) => r.line)).toEqual([3, 6]);
  });

  it("messy cells: each row skipped or defaulted with its line and why", () => {
    const file = read("messy-cells.csv");
    expect(names("messy-cells.csv")).toEqual(["Loïc Bruni", "Anna Newkirk"]);
    expect(file.skipped).toEqual([
      {
        line: 3,
        reason: '1 more cell than the header has ("80000"): is a comma in a name not quoted?',
      },
      { line: 4, reason: 'Game ID "6a" is not an event id' },
      { line: 5, reason: "Price -5 is below 0" },
      { line: 6, reason: "Price 1234567890123 is too large" },
    ]);
    expect(file.defaults).toEqual([
      { line: 7, column: "Rank2024", cell: "-", used: 0 },
      { line: 7, column: "TotalPoint2024", cell: "tbc", used: 0 },
    ]);
  });

  it.each([
    ["empty.csv", "The file is empty."],
    ["blank-only.csv", "The file is empty."],
    ["workbook.xlsx.csv", /^This is not a text CSV file\. It looks like an Excel/],
    ["binary.csv", "This is not a text CSV file."],
  ])("%s is refused with a message a person understands", (name, message) => {
    expect(() => read(name)).toThrow(CsvFileError);
    expect(() => read(name)).toThrow(message);
  });
});

describe("parseRacerCsv refusals", () => {
  it("names the line of a header without the required columns", () => {
    expect(() => parseRacerCsv("\n\nName,Price\nA,1\n")).toThrow(
      /^Line 3: the header has no Category, First Name, Last Name column/,
    );
  });

  it("refuses a header without rows", () => {
    expect(() => parseRacerCsv("Category,First Name,Last Name\n\n")).toThrow(
      "The file has a header but no racer rows.",
    );
  });

  it("refuses a quoting error with its line", () => {
    expect(() =>
      parseRacerCsv('Category,First Name,Last Name\nPro Men,A,B\nPro Men,"C,D\n'),
    ).toThrow(/^Line 3: /);
  });
});

describe("readWholeNumber", () => {
  it.each([
    ["75000", 75000],
    ["75,000", 75000],
    ["$75,000.00", 75000],
    ["75 000", 75000],
    ["0", 0],
  ])("%s reads as %i", (cell, value) => {
    expect(readWholeNumber(cell)).toEqual({ kind: "value", value });
  });

  it.each(["-5", "1.5", "1.23E+12", "75.000", "1234567890123", String(RACER_NUMBER_MAX + 1)])(
    "%s is a number that cannot be right",
    (cell) => expect(readWholeNumber(cell).kind).toBe("wrong"),
  );

  it.each(["n/a", "6a", "75,00", "-", "tbc"])("%s is not a number", (cell) =>
    expect(readWholeNumber(cell).kind).toBe("unreadable"),
  );

  it("reads every integer in range however it is grouped", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: RACER_NUMBER_MAX }), (n) => {
        const grouped = n.toLocaleString("en-US");
        expect(readWholeNumber(String(n))).toEqual({ kind: "value", value: n });
        expect(readWholeNumber(`$${grouped}`)).toEqual({ kind: "value", value: n });
      }),
    );
  });
});

describe("decodeCsvBytes", () => {
  it("reads any UTF-8 text the same as TextEncoder wrote it", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), (s) => {
        // biome-ignore lint/suspicious/noControlCharactersInRegex: a text CSV holds none
        const text = `Category,${s.replace(/[\u0000-\u001f\u007f-\u009f\uFEFF]/g, "")}x`;
        expect(decodeCsvBytes(new TextEncoder().encode(text)).text).toBe(text);
      }),
    );
  });
});

describe("racerCsvFromRecords", () => {
  it("reads papaparse's extra cells as extra cells, with the line", () => {
    const file = racerCsvFromRecords([
      { Category: "Pro Men", "First Name": "A", "Last Name": "B" },
      { Category: "Pro Men", "First Name": "C", "Last Name": "D", __parsed_extra: [""] },
      { Category: "Pro Men", "First Name": "E", "Last Name": "F", __parsed_extra: ["G"] },
    ]);
    expect(file.rows.map((r) => r.line)).toEqual([2, 3]);
    expect(file.skipped).toEqual([{ line: 4, reason: expect.stringContaining('("G")') }]);
  });
});

describe("line numbers", () => {
  it("are the file's whatever blank lines and line endings come before", () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat(3), { minLength: 1, maxLength: 8 }),
        fc.constantFrom("\n", "\r\n"),
        (blanks, eol) => {
          let text = `Category,First Name,Last Name${eol}`;
          let line = 1;
          const expected: number[] = [];
          blanks.forEach((b, i) => {
            text += eol.repeat(b);
            line += b + 1;
            text += `Pro Men,A${i},B${eol}`;
            expected.push(line);
          });
          expect(parseRacerCsv(text).rows.map((r) => r.line)).toEqual(expected);
        },
      ),
    );
  });
});
