import { copyFileSync, readFileSync } from "node:fs";
import path from "node:path";
import { seed } from "@game/db";
import Papa from "papaparse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliTarget, cliTarget, runCli, writeFile } from "../../test-support.js";

let t: CliTarget;
beforeAll(async () => {
  t = await cliTarget({ hold: true });
  await seed(t.h!.db);
});
afterAll(() => t?.close());

const HEADER = "Category,First Name,Last Name,Picture,Origin,Game ID,Rank2024,TotalPoint2024,Price";

async function listed(game: number) {
  const r = await runCli(t, "racers", "list", "--game", String(game), "--limit", "1000", "--json");
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as {
    id: number;
    firstName: string;
    price: number;
    rank2024: number;
    origin: string;
    withdrawnAt: string | null;
  }[];
}

describe("racers import never loses data", () => {
  it("a partial file changes nothing it does not carry; the dry run lists each change", async () => {
    const full = writeFile(
      t,
      "full.csv",
      `${HEADER}\nPro Men,Partial,Rider,,FRA,11,105,10,99000\n`,
    );
    expect((await runCli(t, "racers", "import", full)).code).toBe(0);
    const partial = writeFile(
      t,
      "partial.csv",
      "Category,First Name,Last Name,Game ID\nPro Women,Partial,Rider,11\n",
    );
    const dry = await runCli(t, "racers", "import", partial, "--dry-run");
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(
      "not in the file, kept as they are: Picture, Origin, Rank2024, TotalPoint2024, Price",
    );
    expect(dry.stdout).toContain(
      'line 2: update Partial Rider (event 11): Category "Pro Men" -> "Pro Women"',
    );
    expect((await runCli(t, "racers", "import", partial)).code).toBe(0);
    const [r] = await listed(11);
    expect(r).toMatchObject({ price: 99000, rank2024: 105, origin: "FRA" });
  });

  it("reports the defaults used and the rows skipped, by line, for messy files", async () => {
    const file = writeFile(
      t,
      "messy2.csv",
      `${HEADER}\n\nPro Men,Jordan,Williams, Jr,,GBR,11,9,400,80000\nPro Men,Six,A,,,6a,1,1,1\nPro Men,Neg,Price,,,11,1,1,-5\nPro Men,Bad,Rank,,,11,n/a,1,1,\n`,
    );
    const r = await runCli(t, "racers", "import", file);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('line 3: 1 more cell than the header has ("80000")');
    expect(r.stdout).toContain('line 4: Game ID "6a" is not an event id');
    expect(r.stdout).toContain("line 5: Price -5 is below 0");
    expect(r.stdout).toContain('line 6: Rank2024 "n/a" is not a number: used 0');
  });

  it("reads a Windows-1252 file and refuses an empty one in words", async () => {
    const fixtures = path.resolve(
      import.meta.dirname,
      "../../../../packages/core/src/fixtures/racer-csv",
    );
    const cp = path.join(t.dir, "cp1252.csv");
    copyFileSync(path.join(fixtures, "excel-windows-1252.csv"), cp);
    const ok = await runCli(t, "racers", "import", cp, "--game", "12");
    expect(ok.stdout).toContain("(Windows-1252)");
    expect((await listed(12)).map((x) => x.firstName)).toContain("Zoë");
    const empty = await runCli(t, "racers", "import", writeFile(t, "empty.csv", ""));
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain("The file is empty.");
  });
});

describe("racers list, export, set, withdraw", () => {
  it("pages with --limit and --offset", async () => {
    const all = await listed(5);
    const page = await runCli(
      t,
      "racers",
      "list",
      "--game",
      "5",
      "--limit",
      "2",
      "--offset",
      "1",
      "--json",
    );
    expect(JSON.parse(page.stdout).map((x: { id: number }) => x.id)).toEqual(
      all.slice(1, 3).map((x) => x.id),
    );
    const text = await runCli(t, "racers", "list", "--game", "5", "--limit", "2");
    expect(text.stdout).toContain(`Racers 1-2 of ${all.length} (next page: --offset 2).`);
  });

  it("exports a CSV that imports back unchanged", async () => {
    await runCli(
      t,
      "racers",
      "import",
      writeFile(
        t,
        "odd.csv",
        `${HEADER}\nPro Men,"Comma, Name","Quote ""Q""",,"=HYPERLINK(""x"")",5,0,0,1\n17-18 Women,Zoë,"Line\nBreak",pic.jpg,,5,3,4,5\n`,
      ),
    );
    const before = await listed(5);
    const file = path.join(t.dir, "export.csv");
    const out = await runCli(t, "racers", "export", file, "--game", "5");
    expect(out.stdout).toBe(`Wrote ${before.length} racers to ${file}.\n`);
    expect(readFileSync(file, "utf8").startsWith("\uFEFFID,Category,First Name")).toBe(true);
    const back = await runCli(t, "racers", "import", file, "--json");
    expect(JSON.parse(back.stdout)).toMatchObject({
      created: 0,
      updated: 0,
      unchanged: before.length,
      skipped: [],
    });
    expect(await listed(5)).toEqual(before);
  });

  it("exports names a spreadsheet would run as formulas as text, and imports them back unchanged", async () => {
    // The probe's five payloads, imported as plain text (nothing is evaluated on import).
    const formulas = [
      '=HYPERLINK("http://evil.example","click")',
      "+SUM(A1:A2)",
      "-2+3",
      "@SUM(A1)",
      "=cmd|' /C calc'!A0",
    ];
    const quoted = (text: string) => `"${text.replace(/"/g, '""')}"`;
    const file = writeFile(
      t,
      "formulas.csv",
      `${HEADER}\n${formulas.map((f, i) => `Pro Men,Formula${i},${quoted(f)},,${quoted(f)},12,0,0,1000`).join("\n")}\n`,
    );
    expect((await runCli(t, "racers", "import", file)).code).toBe(0);
    const before = await listed(12);
    expect(formulas.every((f) => before.some((r) => r.origin === f))).toBe(true);

    const exported = path.join(t.dir, "formulas-export.csv");
    expect((await runCli(t, "racers", "export", exported, "--game", "12")).code).toBe(0);
    const text = readFileSync(exported, "utf8");
    const cells = Papa.parse<string[]>(text.slice(1), { skipEmptyLines: true }).data.flat();
    // No cell of the file starts a formula: each of the five is written behind a quote.
    expect(cells.filter((c) => /^[=+\-@\t\r]/.test(c))).toEqual([]);
    for (const f of formulas) expect(cells).toContain(`'${f}`);

    const back = await runCli(t, "racers", "import", exported, "--json");
    expect(JSON.parse(back.stdout)).toMatchObject({
      created: 0,
      updated: 0,
      unchanged: before.length,
      skipped: [],
    });
    expect(await listed(12)).toEqual(before);
  });

  it("sets one racer's fields and withdraws / reinstates them", async () => {
    const [racer] = await listed(5);
    const id = String(racer!.id);
    const set = await runCli(t, "racers", "set", id, "--price", "123,000", "--rank", "2");
    expect(set.code).toBe(0);
    expect(set.stdout).toMatch(/Price \d+ -> 123000/);
    expect((await runCli(t, "racers", "set", id)).code).toBe(2);
    expect((await runCli(t, "racers", "set", id, "--price", "-5")).code).toBe(2);

    const w = await runCli(t, "racers", "withdraw", id);
    expect(w.stdout).toMatch(/is withdrawn; 0 teams hold them\./);
    expect((await runCli(t, "racers", "withdraw", id)).stdout).toContain("already was withdrawn");
    expect((await listed(5)).find((x) => x.id === racer!.id)!.withdrawnAt).not.toBeNull();
    expect((await runCli(t, "racers", "reinstate", id)).stdout).toContain("is reinstated");
    const missing = await runCli(t, "racers", "withdraw", "999999");
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("No racer with id 999999.");
  });
});
