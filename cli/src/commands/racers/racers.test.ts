import { mkdirSync } from "node:fs";
import path from "node:path";
import { CSV_MAX_BYTES } from "@game/core";
import { seed } from "@game/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliTarget, cliTarget, runCli, writeFile } from "../../test-support.js";

// The test holds the database as the running app does (on PGlite the CLI goes through the
// socket, which is quick to reach); "direct" below has the CLI open a data folder itself.
let t: CliTarget;
beforeAll(async () => {
  t = await cliTarget({ hold: true });
  await seed(t.h!.db);
});
afterAll(() => t?.close());

const HEADER = "Category,First Name,Last Name,Picture,Origin,Game ID,Rank2024,TotalPoint2024,Price";

interface ListedRacer {
  id: number;
  gameId: number;
  category: string;
  firstName: string;
  lastName: string;
  origin: string;
  rank2024: number;
  totalPoint2024: number;
  price: number;
}

async function listed(game: number): Promise<ListedRacer[]> {
  const r = await runCli(t, "racers", "list", "--game", String(game), "--json");
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
}

describe("racers import", () => {
  it("reads a messy but valid file: BOM, CRLF, bad numbers, formula cells, skipped lines", async () => {
    const file = writeFile(
      t,
      "messy.csv",
      [
        `\uFEFF${HEADER}`,
        'Pro Men,Loic,Bruni,lb.jpg,FRA,7,1,"1,612",$320000',
        'Pro Women,"=HYPERLINK(""http://evil.example"",""click"")",Höll,,@AUT,7,x,,cheap',
        "17-18 Men,,Vermette,,USA,7,3,300,90000",
        "Pro Men,+Jackson,-Goldstone,,CAN,7,2,1200,280000",
        "",
      ].join("\r\n"),
    );
    const r = await runCli(t, "racers", "import", file);
    expect(r.stderr).toContain("Importing: 3/3 rows (100%)");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("messy.csv: 4 rows read");
    expect(r.stdout).toMatch(/created: +3/);
    expect(r.stdout).toMatch(/skipped: +1\n +line 4: missing First Name/);

    const racers = await listed(7);
    expect(racers.map((x) => [x.firstName, x.lastName])).toEqual([
      ["Loic", "Bruni"],
      ["+Jackson", "-Goldstone"],
      ['=HYPERLINK("http://evil.example","click")', "Höll"],
    ]);
    const holl = racers.find((x) => x.lastName === "Höll")!;
    // Stored as typed, never evaluated; unparseable numbers took the defaults.
    expect(holl).toMatchObject({ origin: "@AUT", rank2024: 0, totalPoint2024: 0, price: 75000 });
    expect(racers[0]).toMatchObject({ totalPoint2024: 1612, price: 320000 });
  });

  it("imports twice the same as once, and says nothing changed", async () => {
    const file = writeFile(
      t,
      "twice.csv",
      [
        HEADER,
        "Pro Men,Amaury,Pierron,,FRA,8,3,1100,270000",
        "Pro Women,Nina,Hoffmann,,GER,8,2,1000,250000",
      ].join("\n"),
    );
    const first = await runCli(t, "racers", "import", file, "--json");
    expect(first.code).toBe(0);
    const once = await listed(8);
    const second = await runCli(t, "racers", "import", file, "--json");
    expect(second.code).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ created: 2, updated: 0, unchanged: 0 });
    expect(JSON.parse(second.stdout)).toMatchObject({
      dryRun: false,
      rows: 2,
      created: 0,
      updated: 0,
      unchanged: 2,
      skipped: [],
    });
    expect(await listed(8)).toEqual(once);
  });

  it("writes nothing on a dry run but reports what would change", async () => {
    const file = writeFile(t, "dry.csv", `${HEADER}\nPro Men,Finn,Iles,,CAN,9,4,900,200000\n`);
    const r = await runCli(t, "racers", "import", file, "--dry-run");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Dry run (nothing written)");
    expect(r.stdout).toMatch(/created: +1/);
    expect(r.stderr).toContain("Checking: 1/1 rows");
    expect(await listed(9)).toEqual([]);
  });

  it("puts every row in the --game event", async () => {
    const file = writeFile(t, "game.csv", `${HEADER}\nPro Men,Ronan,Dunne,,IRL,5,5,800,190000\n`);
    const r = await runCli(t, "racers", "import", file, "--game", "6", "--json");
    expect(r.code).toBe(0);
    expect((await listed(6)).map((x) => x.lastName)).toEqual(["Dunne"]);
  });

  it("refuses a broken file with exit 1, one line on stderr, and writes nothing", async () => {
    const broken = {
      "columns.csv": "Category,Surname,Price\nPro Men,Brosnan,1\n",
      "quotes.csv": `${HEADER}\nPro Men,Troy,Brosnan,,AUS,10,1,1,1\nPro Men,"Danny,Hart,,GBR,10,1,1,1\n`,
      "empty.csv": `${HEADER}\n`,
      "skipped.csv": `${HEADER}\n,,,,,10\nPro Men,Nobody,Here,,,99\n`,
    };
    const results: Record<string, { stderr: string }> = {};
    for (const [name, text] of Object.entries(broken)) {
      const r = await runCli(t, "racers", "import", writeFile(t, name, text));
      results[name] = r;
      expect(r.code, name).toBe(1);
      expect(
        r.stderr
          .trim()
          .split("\n")
          .filter((l) => l.startsWith("error: ")),
        name,
      ).toHaveLength(1);
      expect(r.stderr, name).not.toMatch(/\n\s+at /);
    }
    expect(await listed(10)).toEqual([]);
    const quotes = await runCli(t, "racers", "import", writeFile(t, "q.csv", broken["quotes.csv"]));
    expect(quotes.stderr).toContain("error: Line 3: quoted field unterminated (");
    const columns = await runCli(
      t,
      "racers",
      "import",
      writeFile(t, "c.csv", broken["columns.csv"]),
    );
    expect(columns.stderr).toContain(
      "error: Line 1: the header has no First Name, Last Name column (",
    );
  });

  it("refuses a missing file and one over the size limit", async () => {
    const missing = await runCli(t, "racers", "import", "no-such-file.csv");
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe("error: cannot read no-such-file.csv: ENOENT\n");
    const big = writeFile(t, "big.csv", `${HEADER}\n${"x".repeat(CSV_MAX_BYTES)}`);
    const r = await runCli(t, "racers", "import", big);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^error: The file is 5\.0 MB; racer files are limited to 5\.0 MB\.\n$/,
    );
  });

  it("finds a relative path where npm was started (INIT_CWD), not where it runs the CLI", async () => {
    // `npm run cli` runs the CLI in the repository root, with INIT_CWD = the user's folder.
    writeFile(t, "here.csv", `${HEADER}\nPro Men,Init,Cwd,,,3,1,1,1\n`);
    const root = path.join(t.dir, "repo-root");
    mkdirSync(root, { recursive: true });
    const viaNpm = { ...t, dir: root, env: { ...t.env, INIT_CWD: t.dir } };
    const r = await runCli(viaNpm, "racers", "import", "here.csv", "--json");
    expect(r.stderr).not.toContain("error");
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ created: 1 });
    expect((await listed(3)).map((x) => x.lastName)).toEqual(["Cwd"]);

    // Without INIT_CWD (run directly, or by a bare `node`), the working directory counts.
    const direct = { ...t, env: { ...t.env } };
    delete direct.env.INIT_CWD;
    const again = await runCli(direct, "racers", "import", "here.csv", "--json");
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ unchanged: 1 });

    // INIT_CWD wins over the working directory; messages name the file as typed.
    const elsewhere = { ...t, env: { ...t.env, INIT_CWD: root } };
    const missing = await runCli(elsewhere, "racers", "import", "here.csv");
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe("error: cannot read here.csv: ENOENT\n");
  });

  it("exits 2 on wrong usage, before touching the database", async () => {
    for (const args of [
      ["racers", "import"],
      ["racers", "import", "x.csv", "--game", "abc"],
      ["racers", "list", "--category", "Kids"],
    ]) {
      const r = await runCli(t, ...args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stdout, args.join(" ")).toBe("");
      expect(r.stderr, args.join(" ")).toMatch(/^error: /);
    }
  });
});

describe("racers list", () => {
  it("filters by category (name or slug) and prints a table", async () => {
    const r = await runCli(t, "racers", "list", "--game", "7", "--category", "pro-women");
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^ID +Event +Category +Name/);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain("Pro Women");
    expect(lines[1]).toContain("$75,000");
    const none = await runCli(t, "racers", "list", "--game", "12");
    expect(none.stdout).toBe("No racers.\n");
  });
});

describe("direct mode (no app running)", () => {
  it("opens the data folder itself, imports and lists", async () => {
    const direct = await cliTarget();
    try {
      expect((await runCli(direct, "db", "seed")).code).toBe(0);
      const file = writeFile(direct, "direct.csv", `${HEADER}\nPro Women,Direct,Mode,,,11,1,1,1\n`);
      const r = await runCli(direct, "racers", "import", file, "--json");
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ created: 1 });
      const listed = await runCli(direct, "racers", "list", "--game", "11", "--json");
      expect(JSON.parse(listed.stdout)).toMatchObject([{ firstName: "Direct", lastName: "Mode" }]);
    } finally {
      await direct.close();
    }
  });
});
