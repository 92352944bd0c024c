import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Category } from "./categories.js";
import { escapeCsvCell } from "./csv-cells.js";
import { headerDelimiter } from "./csv-file.js";
import {
  type CsvTable,
  checkResults,
  formatResultIssue,
  jsonResultsTable,
  parsePosition,
  pointsForStoredResult,
  type ResultRacer,
  readCsv,
  resultsUploadSchema,
  settleFormSchema,
} from "./results.js";

const racers: ResultRacer[] = [
  { id: 1, category: "Pro Men", firstName: "Loïc", lastName: "Bruni" },
  { id: 2, category: "Pro Men", firstName: "Troy", lastName: "Brosnan" },
  { id: 3, category: "Pro Men", firstName: "Amaury", lastName: "Pierron" },
  { id: 4, category: "Pro Women", firstName: "Vali", lastName: "Höll" },
  { id: 5, category: "Pro Women", firstName: "Tahnée", lastName: "Seagrave" },
  { id: 6, category: "17-18 Men", firstName: "Asa", lastName: "Vermette" },
  { id: 7, category: "17-18 Women", firstName: "Erice", lastName: "van Leuven" },
];

function csv(...lines: string[]): CsvTable {
  return readCsv(lines.join("\n"));
}

describe("parsePosition", () => {
  it("reads places and the three non-finish statuses", () => {
    expect(parsePosition("1")).toEqual({ status: "finished", position: 1 });
    expect(parsePosition(" 12 ")).toEqual({ status: "finished", position: 12 });
    expect(parsePosition("03")).toEqual({ status: "finished", position: 3 });
    expect(parsePosition("2nd")).toEqual({ status: "finished", position: 2 });
    expect(parsePosition("7.")).toEqual({ status: "finished", position: 7 });
    expect(parsePosition("dnf")).toEqual({ status: "DNF", position: null });
    expect(parsePosition("DNS")).toEqual({ status: "DNS", position: null });
    expect(parsePosition("Dsq")).toEqual({ status: "DSQ", position: null });
    expect(parsePosition("DQ")).toEqual({ status: "DSQ", position: null });
  });

  it("refuses anything else", () => {
    for (const bad of ["", "0", "-1", "1.5", "abc", "1e3", "DNFx", "１", "10000000", "1 2"]) {
      expect(parsePosition(bad)).toBeUndefined();
    }
  });

  it("property: every place 1..999999 reads back", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 999_999 }), (n) => {
        expect(parsePosition(String(n))).toEqual({ status: "finished", position: n });
      }),
    );
  });

  it("scores a stored result with the points table; non-finishers score 0", () => {
    expect(pointsForStoredResult({ status: "finished", position: 1 })).toBe(100);
    expect(pointsForStoredResult({ status: "finished", position: 11 })).toBe(10);
    expect(pointsForStoredResult({ status: "DNF", position: null })).toBe(0);
    expect(pointsForStoredResult({ status: "DSQ", position: null })).toBe(0);
  });
});

describe("readCsv", () => {
  it("keeps the line each record starts on, across blank lines and quoted line breaks", () => {
    const t = readCsv(
      '\uFEFFPosition,First Name,Last Name\r\n1,Loïc,Bruni\r\n\r\n2,"Troy ""TB""\nBrosnan",x\r\n3,a,b',
    );
    expect(t.header).toEqual(["Position", "First Name", "Last Name"]);
    expect(t.errors).toEqual([]);
    expect(t.records).toEqual([
      { line: 2, values: ["1", "Loïc", "Bruni"] },
      { line: 4, values: ["2", 'Troy "TB"\nBrosnan', "x"] },
      { line: 6, values: ["3", "a", "b"] },
    ]);
  });

  it("reports a quote that is never closed, on the line it opens", () => {
    const t = readCsv('Position,First Name,Last Name\n1,Loïc,Bruni\n2,"Troy,Brosnan\n3,a,b');
    expect(t.errors).toEqual([
      { line: 3, message: "A quoted cell starting on this line is never closed." },
    ]);
    expect(checkResults(t, racers)).toEqual({ ok: false, rows: [], issues: t.errors });
  });

  it("detects semicolon, tab and pipe delimiters from the header", () => {
    expect(readCsv("Position;Racer ID\n1;5").records[0]!.values).toEqual(["1", "5"]);
    expect(readCsv("Position\tRacer ID\n1\t5").records[0]!.values).toEqual(["1", "5"]);
    // A pipe-separated export, as a racer file may be: the same rule for both files.
    expect(readCsv("Position|First Name|Last Name\n1|Loïc|Bruni").records[0]!.values).toEqual([
      "1",
      "Loïc",
      "Bruni",
    ]);
    // Delimiters inside a quoted title line do not count: the header's pipe decides.
    expect(readCsv('"Final; Men, Elite"\nPosition|Racer ID\n1|5').records[1]!.values).toEqual([
      "1",
      "5",
    ]);
  });

  it("property: reads a header's delimiter as the racer files' rule does", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(",", ";", "\t", "|"),
        fc.array(fc.constantFrom("Position", "First Name", "Last Name", "Category"), {
          minLength: 2,
          maxLength: 4,
        }),
        (d, header) => {
          const text = `${header.join(d)}\n${header.map((_, i) => String(i)).join(d)}`;
          expect(headerDelimiter(header.join(d))).toBe(d);
          expect(readCsv(text).records[0]!.values).toEqual(header.map((_, i) => String(i)));
        },
      ),
    );
  });

  it("property: quoted cells of any text read back with the right lines", () => {
    const cellArb = fc.string({ maxLength: 8 }).map((s) => s.replace(/\r/g, ""));
    fc.assert(
      fc.property(
        fc.array(fc.array(cellArb, { minLength: 2, maxLength: 2 }), { minLength: 1, maxLength: 8 }),
        (rows) => {
          // Written as the game writes a cell (a formula's start behind a quote, which reading
          // takes back off), then quoted.
          const quote = (s: string) => `"${escapeCsvCell(s).replace(/"/g, '""')}"`;
          let line = 2;
          const expected = rows.map((values) => {
            const rec = { line, values };
            line += values.join("").split("\n").length - 1 + 1;
            return rec;
          });
          const text = ["a,b", ...rows.map((r) => r.map(quote).join(","))].join("\n");
          expect(readCsv(text).records).toEqual(expected);
        },
      ),
    );
  });
});

describe("checkResults", () => {
  it("accepts a good file; places are per category", () => {
    const r = checkResults(
      csv(
        "Position,First Name,Last Name,Category",
        "1,Loïc,Bruni,Pro Men",
        "2,Troy,Brosnan,Pro Men",
        "DNF,Amaury,Pierron,Pro Men",
        "1,Vali,Höll,Pro Women",
        "DNS,Tahnée,Seagrave,Pro Women",
        "1,Asa,Vermette,17-18 Men",
      ),
      racers,
    );
    expect(r.ok).toBe(true);
    expect(r.rows.map(({ asWritten: _, ...row }) => row)).toEqual([
      { line: 2, racerId: 1, category: "Pro Men", status: "finished", position: 1 },
      { line: 3, racerId: 2, category: "Pro Men", status: "finished", position: 2 },
      { line: 4, racerId: 3, category: "Pro Men", status: "DNF", position: null },
      { line: 5, racerId: 4, category: "Pro Women", status: "finished", position: 1 },
      { line: 6, racerId: 5, category: "Pro Women", status: "DNS", position: null },
      { line: 7, racerId: 6, category: "17-18 Men", status: "finished", position: 1 },
    ]);
    expect(r.rows[0]!.asWritten).toBe("Loïc Bruni");
    expect(r.ok && r.categories).toEqual(["Pro Men", "Pro Women", "17-18 Men"]);
  });

  it("matches names without accents or case, and takes a racer id column instead of names", () => {
    const byName = checkResults(
      csv("Position,First Name,Last Name,Category", "1,LOIC,bruni,pro men"),
      racers,
    );
    expect(byName.ok && byName.rows[0]!.racerId).toBe(1);
    const byId = checkResults(csv("Position,Racer ID", "3,7", "DSQ,2"), racers);
    expect(byId.ok).toBe(true);
    expect(byId.rows.map((r) => [r.racerId, r.category, r.status])).toEqual([
      [7, "17-18 Women", "finished"],
      [2, "Pro Men", "DSQ"],
    ]);
  });

  it("reports every problem by line and returns no rows to write", () => {
    const r = checkResults(
      csv(
        "Position,First Name,Last Name,Category",
        "1,Loïc,Bruni,Pro Men",
        "abc,Troy,Brosnan,Pro Men",
        "2,Nobody,Known,Pro Men",
        "1,Amaury,Pierron,Pro Men",
        "3,Loïc,Bruni,Pro Men",
        "1,Vali,Höll,Pro Men",
        "2,,Seagrave,Pro Women",
        "4,Asa,Vermette,Seniors",
        "",
        ",Erice,van Leuven,17-18 Women",
      ),
      racers,
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.issues.map(formatResultIssue)).toEqual([
      'Line 3: Position "abc" is not a place (1, 2, 3...) or DNF, DNS, DSQ.',
      "Line 4: Unknown racer: Nobody Known in Pro Men is not a racer of this event.",
      "Line 5: Position 1 in Pro Men is already taken on line 2.",
      "Line 6: Loïc Bruni is listed twice (first on line 2).",
      "Line 7: Vali Höll races in Pro Women, not Pro Men.",
      "Line 8: First Name is empty (give both names or a Racer ID).",
      'Line 9: Unknown category "Seniors".',
      "Line 11: Position is empty.",
    ]);
  });

  it("reports missing columns, an empty file and unknown ids", () => {
    expect(checkResults(readCsv(""), racers)).toMatchObject({
      ok: false,
      issues: [{ line: 1, message: "The file is empty." }],
    });
    expect(checkResults(csv("Time,First Name,Last Name"), racers)).toMatchObject({
      ok: false,
      issues: [{ line: 1, message: expect.stringContaining("Missing column Position") }],
    });
    expect(checkResults(csv("Position,Category"), racers)).toMatchObject({
      ok: false,
      issues: [
        { line: 1, message: expect.stringContaining("Missing columns First Name, Last Name") },
      ],
    });
    expect(checkResults(csv("Position,First Name,Last Name"), racers)).toMatchObject({
      ok: false,
      issues: [{ line: 1, message: "The file has no result rows." }],
    });
    expect(checkResults(csv("Position,ID", "1,99", "2,x"), racers)).toMatchObject({
      ok: false,
      issues: [
        { line: 2, message: "Unknown racer: no racer with ID 99 in this event." },
        { line: 3, message: 'Racer ID "x" is not a number.' },
      ],
    });
  });

  it("asks for the category when a name is ambiguous", () => {
    const twins: ResultRacer[] = [
      { id: 1, category: "Pro Men", firstName: "Sam", lastName: "Hill" },
      { id: 2, category: "17-18 Men", firstName: "Sam", lastName: "Hill" },
    ];
    const r = checkResults(csv("Position,First Name,Last Name", "1,Sam,Hill"), twins);
    expect(r).toMatchObject({
      ok: false,
      issues: [{ line: 2, message: expect.stringContaining("matches 2 racers") }],
    });
    const withCategory = checkResults(
      csv("Position,First Name,Last Name,Category", "1,Sam,Hill,17-18 Men"),
      twins,
    );
    expect(withCategory.ok && withCategory.rows[0]!.racerId).toBe(2);
  });

  it("property: a shuffled valid file passes; a repeated place is caught on its line", () => {
    fc.assert(
      fc.property(fc.shuffledSubarray(racers, { minLength: 2 }), fc.nat(1000), (chosen, seed) => {
        const place = new Map<Category, number>();
        const lines = chosen.map((r, i) => {
          const dnf = (seed + i) % 5 === 0;
          const p = (place.get(r.category) ?? 0) + 1;
          if (!dnf) place.set(r.category, p);
          return `${dnf ? "DNF" : p},${r.firstName},${r.lastName},${r.category}`;
        });
        const ok = checkResults(csv("Position,First Name,Last Name,Category", ...lines), racers);
        expect(ok.ok).toBe(true);
        expect(ok.rows).toHaveLength(chosen.length);
        // Give the last finisher of a category the place of the first one of the same category.
        const finished = ok.rows.filter((r) => r.status === "finished");
        const pair = finished.find((a) =>
          finished.some((b) => b !== a && b.category === a.category),
        );
        if (!pair) return;
        const later = finished.filter((b) => b.category === pair.category).at(-1)!;
        const idx = later.line - 2;
        const racer = chosen[idx]!;
        lines[idx] = `${pair.position},${racer.firstName},${racer.lastName},${racer.category}`;
        const bad = checkResults(csv("Position,First Name,Last Name,Category", ...lines), racers);
        expect(bad.ok).toBe(false);
        if (!bad.ok) {
          expect(bad.issues).toEqual([
            {
              line: later.line,
              message: `Position ${pair.position} in ${pair.category} is already taken on line ${pair.line}.`,
            },
          ]);
        }
      }),
    );
  });
});

describe("resultsUploadSchema", () => {
  it("needs an event and a file; defaults to a preview", () => {
    expect(resultsUploadSchema.parse({ eventId: "5", csv: "Position\n1" })).toEqual({
      eventId: 5,
      csv: "Position\n1",
      intent: "preview",
    });
    const bad = resultsUploadSchema.safeParse({ eventId: "", csv: "  " });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((i) => i.message)).toEqual([
      "Choose an event.",
      "Choose a results CSV file.",
    ]);
  });
});

describe("settleFormSchema", () => {
  it("needs an event id", () => {
    expect(settleFormSchema.parse({ eventId: "7" })).toEqual({ eventId: 7 });
    expect(settleFormSchema.safeParse({ eventId: "x" }).error?.issues[0]?.message).toBe(
      "Choose an event.",
    );
  });
});

describe("jsonResultsTable", () => {
  const racers = [
    { id: 1, category: "Pro Men" as const, firstName: "Loic", lastName: "Bruni" },
    { id: 2, category: "Pro Men" as const, firstName: "Amaury", lastName: "Pierron" },
  ];
  it("reads a timing system's rows as the CSV import does", () => {
    const check = checkResults(
      jsonResultsTable({
        results: [
          { position: 1, firstName: "Amaury", lastName: "Pierron", category: "Pro Men" },
          { position: "DNS", racerId: 1, category: "Pro Men" },
        ],
      }),
      racers,
    );
    expect(check.ok).toBe(true);
    expect(check.rows.map((r) => [r.racerId, r.status, r.position, r.line])).toEqual([
      [2, "finished", 1, 2],
      [1, "DNS", null, 3],
    ]);
  });
  it("names the item of a problem as its line", () => {
    const check = checkResults(
      jsonResultsTable([
        { position: 1, racerId: 2, category: "Pro Men" },
        { position: 1, racerId: 99, category: "Pro Men" },
      ]),
      racers,
    );
    expect(check.ok).toBe(false);
    expect(!check.ok && check.issues[0]?.line).toBe(3);
  });
  it("refuses a body of another shape with one issue", () => {
    for (const body of [null, {}, [], "x", [1], { results: 3 }]) {
      const table = jsonResultsTable(body);
      expect(table.errors).toHaveLength(1);
      expect(checkResults(table, racers).ok).toBe(false);
    }
  });
});
