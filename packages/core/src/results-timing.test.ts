/** The timing companies' shape of a results file, and the name matching it needs. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Category } from "./categories.js";
import {
  checkResults,
  closestRacers,
  editDistance,
  nameWordsKey,
  parseNonFinish,
  type ResultRacer,
  readCsv,
} from "./results.js";

const racers: ResultRacer[] = [
  { id: 1, category: "Pro Men", firstName: "Loïc", lastName: "Bruni" },
  { id: 2, category: "Pro Men", firstName: "Troy", lastName: "Brosnan" },
  { id: 3, category: "Pro Men", firstName: "Amaury", lastName: "Pierron" },
  { id: 4, category: "Pro Women", firstName: "Valentina", lastName: "Höll" },
  { id: 5, category: "Pro Women", firstName: "Tahnée", lastName: "Seagrave" },
  { id: 6, category: "17-18 Women", firstName: "Erice", lastName: "van Leuven" },
  { id: 7, category: "Pro Women", firstName: "Sam", lastName: "Hill" },
  { id: 8, category: "Pro Men", firstName: "Sam", lastName: "Hill" },
];

const check = (text: string, category?: Category) =>
  checkResults(readCsv(text), racers, category ? { category } : {});

describe("timing exports", () => {
  it("reads Rank, a LASTNAME Firstname column, and DNF/DNS/DSQ in time or status cells", () => {
    const r = check(
      [
        "Rank,Bib,Name,UCI ID,Nation,Team,Time,Status",
        "1,3,PIERRON Amaury,10009876543,FRA,Commencal,3:01.442,",
        "2,1,bruni loic,10008765432,FRA,Specialized,3:02.118,OK",
        ",2,Troy BROSNAN,10007654321,AUS,Canyon,DNF,",
        "4,8,HILL Sam,1,USA,,3:09.000,DSQ",
      ].join("\n"),
      "Pro Men",
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.categories).toEqual(["Pro Men"]);
    expect(r.rows.map((x) => [x.asWritten, x.racerId, x.status, x.position])).toEqual([
      ["PIERRON Amaury", 3, "finished", 1],
      ["bruni loic", 1, "finished", 2],
      ["Troy BROSNAN", 2, "DNF", null],
      // A status wins over a rank some exports give every row; the category picks the Sam Hill.
      ["HILL Sam", 8, "DSQ", null],
    ]);
  });

  it("accepts Pos and Place headers, a Gap column, and a Category column instead of the option", () => {
    const pos = check("Pos;Name;Gap\n1;HÖLL Valentina;\n2;SEAGRAVE Tahnee;+1.2", "Pro Women");
    expect(pos.ok && pos.rows.map((x) => x.racerId)).toEqual([4, 5]);
    const place = check("Place,Name,Category\n1,VAN LEUVEN Erice,Women Junior");
    expect(place.ok && place.categories).toEqual(["17-18 Women"]);
    const gap = check("Place,Name,Gap\n,BRUNI Loic,DNS", "Pro Men");
    expect(gap.ok && gap.rows[0]!.status).toBe("DNS");
  });

  it("skips a title block above the header, keeping the file's line numbers", () => {
    const r = check(
      [
        "Men Elite - Final",
        "Fort William, 2027-05-30",
        "",
        "Rank;Bib;Name;Time",
        "1;1;BRUNI Loic;3:02.118",
        "x;2;BROSNAN Troy;3:04.000",
      ].join("\n"),
      "Pro Men",
    );
    expect(!r.ok && r.issues).toEqual([
      { line: 6, message: 'Position "x" is not a place (1, 2, 3...) or DNF, DNS, DSQ.' },
    ]);
    expect(r.rows.map((x) => [x.line, x.racerId])).toEqual([[5, 1]]);
  });

  it("refuses a Category cell that disagrees with the file's category, and an empty name", () => {
    const r = check("Rank,Name,Category\n1,HÖLL Valentina,Pro Women\n2,,Pro Men", "Pro Men");
    expect(r.ok).toBe(false);
    expect(!r.ok && r.issues).toEqual([
      {
        line: 2,
        message: 'The Category "Pro Women" is not the category chosen for this file (Pro Men).',
      },
      { line: 3, message: "Name is empty (give the racer's name or a Racer ID)." },
    ]);
  });

  it("says where a racer races, and suggests the closest names for an unknown one", () => {
    const r = check("Rank,Name\n1,BRUNI Loic\n2,PIERON Amaury\n3,ZZZ Qqq", "Pro Women");
    expect(!r.ok && r.issues.map((i) => i.message)).toEqual([
      "BRUNI Loic races in Pro Men, not Pro Women.",
      "Unknown racer: PIERON Amaury in Pro Women is not a racer of this event.",
      "Unknown racer: ZZZ Qqq in Pro Women is not a racer of this event.",
    ]);
    const anywhere = check("Rank,Name\n1,PIERON Amaury");
    expect(!anywhere.ok && anywhere.issues[0]!.message).toBe(
      "Unknown racer: PIERON Amaury is not a racer of this event. Did you mean Amaury Pierron?",
    );
    const twins = check("Rank,Name\n1,HILL Sam");
    expect(!twins.ok && twins.issues[0]!.message).toBe(
      "HILL Sam matches 2 racers: add the Category or a Racer ID.",
    );
  });

  it("still matches First Name / Last Name files, also with the columns swapped", () => {
    const r = check("Position,First Name,Last Name\n1,Bruni,Loic\n2,Troy,Brosnan", "Pro Men");
    expect(r.ok && r.rows.map((x) => x.racerId)).toEqual([1, 2]);
  });
});

describe("name matching", () => {
  it("reads non-finish words in a time or status cell", () => {
    expect(["DNF", " dns ", "Dsq", "DQ", "did not  start"].map(parseNonFinish)).toEqual([
      "DNF",
      "DNS",
      "DSQ",
      "DSQ",
      "DNS",
    ]);
    expect(["3:01.442", "", "OK", "+1.2", "1"].map(parseNonFinish)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  const word = fc.stringMatching(/^[A-Za-zÀ-ÖØ-öø-ÿ]{1,12}$/);

  it("keys a name by its words whatever their order, case or accents", () => {
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 4 }), (words) => {
        const key = nameWordsKey(words.join(" "));
        expect(nameWordsKey([...words].reverse().join("  "))).toBe(key);
        expect(nameWordsKey(words.join(" ").toUpperCase())).toBe(key);
        expect(nameWordsKey(words.join(", ").normalize("NFD"))).toBe(key);
        expect(key).not.toMatch(/[\u0300-\u036f]/);
      }),
    );
  });

  it("measures edits as a distance (zero on itself, symmetric, triangle)", () => {
    const s = fc.string({ maxLength: 12 });
    fc.assert(
      fc.property(s, s, s, (a, b, c) => {
        expect(editDistance(a, a)).toBe(0);
        expect(editDistance(a, b)).toBe(editDistance(b, a));
        expect(editDistance(a, c)).toBeLessThanOrEqual(editDistance(a, b) + editDistance(b, c));
        expect(editDistance(a, b)).toBeLessThanOrEqual(Math.max([...a].length, [...b].length));
      }),
    );
    expect(editDistance("kitten", "sitting")).toBe(3);
  });

  it("suggests a racer one typo away, whatever the order, and no stranger", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...racers),
        fc.nat(),
        fc.constantFrom("a", "x", "e"),
        (r, at, letter) => {
          const last = r.lastName.toUpperCase();
          const i = at % last.length;
          const typo = `${last.slice(0, i)}${letter}${last.slice(i + 1)} ${r.firstName}`;
          const near = closestRacers(typo, racers);
          expect(near.length).toBeGreaterThan(0);
          expect(near.map((x) => nameWordsKey(`${x.firstName} ${x.lastName}`))).toContain(
            nameWordsKey(`${r.firstName} ${r.lastName}`),
          );
        },
      ),
    );
    expect(closestRacers("Completely Different Person", racers)).toEqual([]);
  });
});
