import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { accounts, events, getPlayerStanding, racers, seed, users } from "@game/db";
import { putTeam } from "@game/db/testing";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliTarget, cliTarget, runCli, writeFile } from "../../test-support.js";

// The test holds the database as the running app does (on PGlite the CLI reaches it through the
// app's socket).
let t: CliTarget;
let men: { id: number; firstName: string; lastName: string }[];
let ann: number;
let ben: number;

async function player(name: string, racerIds: number[]): Promise<number> {
  const db = t.h!.db;
  const [a] = await db
    .insert(accounts)
    .values({ email: `${name}@example.com`, passwordHash: "test:unusable" })
    .returning();
  await db.insert(users).values({ id: a!.id, email: a!.email, username: name, usernameKey: name });
  await putTeam(db, a!.id, 5, racerIds);
  return a!.id;
}

/** The player's points in the competition's table (0 while not ranked). */
async function points(id: number): Promise<number> {
  return (await getPlayerStanding(t.h!.db, id))?.points ?? 0;
}

const line = (position: string, r: { firstName: string; lastName: string }) =>
  `${position},${r.firstName},${r.lastName},Pro Men`;
const HEADER = "Position,First Name,Last Name,Category";

beforeAll(async () => {
  t = await cliTarget({ hold: true });
  await seed(t.h!.db);
  men = await t
    .h!.db.select({ id: racers.id, firstName: racers.firstName, lastName: racers.lastName })
    .from(racers)
    .where(eq(racers.category, "Pro Men"))
    .orderBy(racers.id);
  ann = await player("ann", [men[0]!.id, men[1]!.id]);
  ben = await player("ben", [men[2]!.id]);
});
afterAll(() => t?.close());

// Event 5 has not locked yet on the test clock: writes need --force.
describe("results import", () => {
  it("reports every bad line on stderr, exits 1 and writes nothing", async () => {
    const file = writeFile(
      t,
      "bad.csv",
      [HEADER, line("1", men[0]!), line("1", men[1]!), "2,Nobody,Known,Pro Men"].join("\n"),
    );
    const r = await runCli(t, "results", "import", "5", file, "--force");
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr.trim().split("\n")).toEqual([
      "Line 3: Position 1 in Pro Men is already taken on line 2.",
      "Line 4: Unknown racer: Nobody Known in Pro Men is not a racer of this event.",
      "error: nothing imported: 2 problems in bad.csv",
    ]);
    const list = await runCli(t, "results", "list", "5", "--json");
    expect(JSON.parse(list.stdout)).toEqual([]);
    expect(await points(ann)).toBe(0);
  });

  it("checks without writing on --dry-run", async () => {
    const file = writeFile(
      t,
      "dry.csv",
      [HEADER, line("1", men[0]!), line("DNF", men[2]!)].join("\n"),
    );
    const r = await runCli(t, "results", "import", "5", file, "--dry-run");
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Dry run (nothing written): dry.csv: 2 results for");
    expect(r.stdout).toContain("finished: 1, DNF: 1, DNS: 0, DSQ: 0");
    expect(r.stdout).not.toContain("Scored event");
    expect(await points(ann)).toBe(0);
  });

  it("finds a relative path where npm was started (INIT_CWD), as `npm run cli` runs", async () => {
    writeFile(t, "init-cwd.csv", [HEADER, line("1", men[0]!)].join("\n"));
    const root = path.join(t.dir, "repo-root");
    mkdirSync(root, { recursive: true });
    const viaNpm = { ...t, dir: root, env: { ...t.env, INIT_CWD: t.dir } };
    const r = await runCli(viaNpm, "results", "import", "5", "init-cwd.csv", "--dry-run");
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Dry run (nothing written): init-cwd.csv: 1 results for");
    const elsewhere = { ...t, env: { ...t.env, INIT_CWD: root } };
    const missing = await runCli(elsewhere, "results", "import", "5", "init-cwd.csv");
    expect(missing).toMatchObject({ code: 1, stderr: "error: cannot read init-cwd.csv: ENOENT\n" });
  });

  it("imports and scores; a corrected file replaces the results; settle again changes nothing", async () => {
    const first = writeFile(
      t,
      "round-1.csv",
      [HEADER, line("1", men[0]!), line("2", men[1]!), line("3", men[2]!)].join("\n"),
    );
    const r = await runCli(t, "results", "import", "5", first, "--force");
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Scored event 5: 2 teams, 2 players ranked, 0 leagues, in [\d.]+ s/);
    expect([await points(ann), await points(ben)]).toEqual([180, 65]);

    const fixed = writeFile(
      t,
      "round-1-fixed.csv",
      [HEADER, line("1", men[2]!), line("2", men[1]!), line("3", men[0]!)].join("\n"),
    );
    const corrected = await runCli(t, "results", "import", "5", fixed, "--force");
    // The error's words too, should it fail.
    expect({ code: corrected.code, stderr: corrected.stderr }).toEqual({ code: 0, stderr: "" });
    expect([await points(ann), await points(ben)]).toEqual([145, 100]);

    const again = await runCli(t, "scores", "settle", "5", "--json");
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ eventId: 5, teams: 2, rankedPlayers: 2 });
    expect([await points(ann), await points(ben)]).toEqual([145, 100]);

    const list = await runCli(t, "results", "list", "5");
    expect(list.stdout.split("\n")[0]).toMatch(
      /^Category\s+Place\s+Racer\s+ID\s+Points\s+Picked by$/,
    );
    expect(list.stdout).toContain(`${men[2]!.firstName} ${men[2]!.lastName}`);
  });

  it("refuses an unknown event (1), a bad id (2) and an event without results (1)", async () => {
    const file = writeFile(t, "x.csv", [HEADER, line("1", men[0]!)].join("\n"));
    const unknown = await runCli(t, "results", "import", "99", file);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe("error: there is no event 99\n");
    expect((await runCli(t, "results", "import", "five", file)).code).toBe(2);
    const none = await runCli(t, "scores", "settle", "6");
    expect(none.code).toBe(1);
    expect(none.stderr).toBe("error: Event 6 has no results yet: import them first.\n");
    expect((await runCli(t, "results", "import", "5", `${file}.missing`)).code).toBe(1);
  });
});

describe("scores freeze", () => {
  it("freezes the events whose lock has passed, once", async () => {
    // Importing froze every due event already; make the 2024 opener due again.
    await t.h!.db.update(events).set({ frozenAt: null }).where(eq(events.id, 1));
    const first = await runCli(t, "scores", "freeze", "--json");
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual([{ eventId: 1, teams: 0 }]);
    const second = await runCli(t, "scores", "freeze");
    expect(second.stdout).toBe("No event to freeze.\n");
  });
});

// Event 5 has not locked yet on the test clock: writes need --force.
describe("results import from timing exports", () => {
  const timing = (name: string) =>
    fileURLToPath(new URL(`../../../../packages/db/src/fixtures/timing/${name}`, import.meta.url));

  it("shows the matched table on --dry-run for a one-category export", async () => {
    const r = await runCli(
      t,
      "results",
      "import",
      "5",
      timing("pro-men.csv"),
      "--category",
      "Pro Men",
      "--dry-run",
    );
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const [head, ...rows] = r.stdout.split("\n");
    expect(head).toMatch(/^Line\s+Place\s+In the file\s+Racer\s+ID\s+Category\s+Points$/);
    expect(rows[0]).toMatch(/^\s*2\s+1\s+PIERRON Amaury\s+Amaury Pierron\s+\d+\s+Pro Men\s+100$/);
    expect(rows[4]).toMatch(/^\s*6\s+DNF\s+BROSNAN Troy\s+Troy Brosnan\s+\d+\s+Pro Men\s+0$/);
    expect(r.stdout).toContain("would replace the results of: Pro Men (other categories kept)");
  });

  it("imports category files one at a time, keeping the other categories", async () => {
    const before = JSON.parse((await runCli(t, "results", "list", "5", "--json")).stdout);
    const women = await runCli(
      t,
      "results",
      "import",
      "5",
      timing("pro-women.csv"),
      "--category",
      "pro-women",
      "--force",
    );
    expect(women.stderr).toBe("");
    expect(women.code).toBe(0);
    expect(women.stdout).toContain("replaced the results of: Pro Women (other categories kept)");
    const juniors = await runCli(
      t,
      "results",
      "import",
      "5",
      timing("junior-women.csv"),
      "--force",
    );
    expect(juniors.code).toBe(0);
    const after = JSON.parse((await runCli(t, "results", "list", "5", "--json")).stdout) as {
      category: string;
    }[];
    const others = (rows: { category: string }[]) =>
      rows.filter((x) => x.category === "Pro Men" || x.category === "17-18 Men");
    expect(others(after)).toEqual(others(before));
    expect(after.filter((x) => x.category === "Pro Women")).toHaveLength(4);
    expect(after.filter((x) => x.category === "17-18 Women")).toHaveLength(2);
  });

  it("reads a Windows-1252 export (Excel's plain CSV) without mangling accents, refuses an empty file", async () => {
    const r = await runCli(
      t,
      "results",
      "import",
      "5",
      timing("pro-women-windows-1252.csv"),
      "--category",
      "Pro Women",
      "--dry-run",
    );
    expect(r.stderr).toBe("");
    expect(r.stdout).toMatch(/\n\s*2\s+1\s+HÖLL Valentina\s+Valentina Höll\s/);
    const empty = writeFile(t, "empty.csv", "");
    const refused = await runCli(t, "results", "import", "5", empty, "--dry-run");
    expect(refused).toMatchObject({ code: 1, stdout: "" });
    expect(refused.stderr).toBe(`error: ${empty}: The file is empty.\n`);
  });

  it("suggests the closest names for unknown ones (exit 1), refuses an unknown category (exit 2)", async () => {
    const r = await runCli(
      t,
      "results",
      "import",
      "5",
      timing("pro-men-typos.csv"),
      "--category",
      "Pro Men",
      "--force",
    );
    expect(r.code).toBe(1);
    expect(r.stderr.split("\n")).toEqual([
      "Line 2: Unknown racer: PIERON Amaury in Pro Men is not a racer of this event. Did you mean Amaury Pierron?",
      "Line 3: Unknown racer: BRUNNI Loic in Pro Men is not a racer of this event. Did you mean Loïc Bruni?",
      "Line 4: Unknown racer: NOBODY Atall in Pro Men is not a racer of this event.",
      "error: nothing imported: 3 problems in pro-men-typos.csv",
      "",
    ]);
    const bad = await runCli(
      t,
      "results",
      "import",
      "5",
      timing("pro-men.csv"),
      "--category",
      "Masters",
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--category <name>' argument 'Masters' is invalid");
  });
});
