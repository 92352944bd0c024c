import { seed } from "@game/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliTarget, cliTarget, runCli } from "../../test-support.js";

// The test holds the database, as the running app does: on PGlite the CLI goes through the socket.
let t: CliTarget;
beforeAll(async () => {
  t = await cliTarget({ hold: true });
  await seed(t.h!.db);
});
afterAll(() => t?.close());

const json = async (...args: string[]) => {
  const r = await runCli(t, ...args, "--json");
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
};

describe("competitions", () => {
  it("creates an XC competition of exactly 3 men and 3 women with a 1,500,000 budget", async () => {
    const xc = await json(
      "competitions",
      "create",
      "XC Cup 2028",
      "--discipline",
      "xc",
      "--year",
      "2028",
      "--budget",
      "1500000",
      "--min-women",
      "3",
      "--max-women",
      "3",
      "--min-juniors",
      "0",
    );
    expect(xc).toMatchObject({
      slug: "xc-cup-2028",
      discipline: "cross-country",
      season: "2028",
      state: "upcoming",
      rules: {
        teamSize: 6,
        budget: 1_500_000,
        women: { min: 3, max: 3 },
        juniors: { min: 0, max: null },
      },
    });
    const text = await runCli(t, "competitions", "show", "xc-cup-2028");
    expect(text.stdout).toContain("XC Cup 2028 (xc-cup-2028)");
    expect(text.stdout).toContain(
      "Your team has exactly 3 female riders (Pro Women or 17-18 Women).",
    );
    expect(text.stdout).toContain("No rounds yet.");
    expect(xc.rules.captain).toBe(false);
    expect(text.stdout).not.toContain("captain");
    expect(xc.rules.bench).toBe(false);
    expect(text.stdout).not.toContain("bench");
  });

  it("turns captains on at creation and off again with --no-captain", async () => {
    const enduro = await json(
      "competitions",
      "create",
      "Enduro Cup 2028",
      "--discipline",
      "enduro",
      "--captain",
    );
    expect(enduro).toMatchObject({ slug: "enduro-cup-2028", rules: { captain: true } });
    const shown = await runCli(t, "competitions", "show", "enduro-cup-2028");
    expect(shown.stdout).toContain(
      "  Name one rider of your team captain: their points count double.\n",
    );
    // Another rule change leaves the captain alone.
    expect(
      await json("competitions", "rules", "enduro-cup-2028", "--lock-hours", "6"),
    ).toMatchObject({ changed: true, rules: { captain: true, lockHours: 6 } });
    const off = await runCli(t, "competitions", "rules", "enduro-cup-2028", "--no-captain");
    expect(off.code).toBe(0);
    expect(off.stdout).toContain("The rules of Enduro Cup 2028 are now:");
    expect(off.stdout).not.toContain("captain");
    expect(await json("competitions", "rules", "enduro-cup-2028", "--no-captain")).toMatchObject({
      changed: false,
      rules: { captain: false, lockHours: 6 },
    });
    const on = await json("competitions", "rules", "enduro-cup-2028", "--captain");
    expect(on).toMatchObject({ changed: true, rules: { captain: true } });
    const help = await runCli(t, "competitions", "rules", "--help");
    expect(help.stdout).toContain("--captain");
    expect(help.stdout).toContain("--no-captain");
  });

  it("adds a bench at creation and takes it off again with --no-bench", async () => {
    const marathon = await json(
      "competitions",
      "create",
      "Marathon Cup 2028",
      "--discipline",
      "xc",
      "--bench",
    );
    expect(marathon).toMatchObject({
      slug: "marathon-cup-2028",
      rules: { bench: true, captain: false },
    });
    const shown = await runCli(t, "competitions", "show", "marathon-cup-2028");
    expect(shown.stdout).toContain("  You may add one more rider on the bench");
    // Another rule change leaves the bench alone.
    expect(await json("competitions", "rules", "marathon-cup-2028", "--captain")).toMatchObject({
      changed: true,
      rules: { bench: true, captain: true },
    });
    const off = await runCli(t, "competitions", "rules", "marathon-cup-2028", "--no-bench");
    expect(off.code).toBe(0);
    expect(off.stdout).toContain("The rules of Marathon Cup 2028 are now:");
    expect(off.stdout).not.toContain("bench");
    expect(await json("competitions", "rules", "marathon-cup-2028", "--no-bench")).toMatchObject({
      changed: false,
      rules: { bench: false, captain: true },
    });
    const on = await json("competitions", "rules", "marathon-cup-2028", "--bench");
    expect(on).toMatchObject({ changed: true, rules: { bench: true } });
    for (const sub of ["create", "rules"]) {
      const help = await runCli(t, "competitions", sub, "--help");
      expect(help.stdout).toContain("--bench");
      expect(help.stdout).toContain("--no-bench");
    }
  });

  it("limits transfers with a wildcard at creation and lifts both with unlimited and --no-wildcard", async () => {
    const stage = await json(
      "competitions",
      "create",
      "Stage Race 2028",
      "--discipline",
      "xc",
      "--transfers",
      "1:5:4",
      "--wildcard",
    );
    expect(stage).toMatchObject({
      slug: "stage-race-2028",
      rules: { transfers: { free: 1, bank: 5, cost: 4 }, wildcard: true },
    });
    const shown = await runCli(t, "competitions", "show", "stage-race-2028");
    expect(shown.stdout).toContain("From round 2, your team has 1 free change a round");
    expect(shown.stdout).toContain("wildcard");
    // Another rule change leaves transfers and the wildcard alone.
    expect(await json("competitions", "rules", "stage-race-2028", "--captain")).toMatchObject({
      changed: true,
      rules: { transfers: { free: 1, bank: 5, cost: 4 }, wildcard: true, captain: true },
    });
    const off = await json(
      "competitions",
      "rules",
      "stage-race-2028",
      "--transfers",
      "unlimited",
      "--no-wildcard",
    );
    expect(off).toMatchObject({ changed: true, rules: { transfers: null, wildcard: false } });
    // "none" lifts a maximum likewise.
    expect(
      await json("competitions", "rules", "stage-race-2028", "--max-women", "4"),
    ).toMatchObject({ rules: { women: { max: 4 } } });
    expect(
      await json("competitions", "rules", "stage-race-2028", "--max-women", "none"),
    ).toMatchObject({ changed: true, rules: { women: { max: null } } });
    const text = await runCli(t, "competitions", "show", "stage-race-2028");
    expect(text.stdout).not.toContain("free change");
    expect(text.stdout).not.toContain("wildcard");

    // A wildcard needs limited transfers: refused with the rules' own message, nothing changed.
    const wild = await runCli(t, "competitions", "rules", "stage-race-2028", "--wildcard");
    expect([wild.code, wild.stdout]).toEqual([1, ""]);
    expect(wild.stderr).toContain(
      "A wildcard needs limited transfers: with unlimited changes it would change nothing.",
    );
    // A malformed --transfers is a usage error.
    const bad = await runCli(t, "competitions", "rules", "stage-race-2028", "--transfers", "1:x");
    expect([bad.code, bad.stdout]).toEqual([2, ""]);
    expect(bad.stderr).toContain("use free:bank:cost as three whole numbers");
    const badCreate = await runCli(
      t,
      "competitions",
      "create",
      "Stage Race 2029",
      "--discipline",
      "xc",
      "--transfers",
      "lots",
    );
    expect(badCreate.code).toBe(2);
    expect(await json("competitions", "show", "stage-race-2028")).toMatchObject({
      rules: { transfers: null, wildcard: false, captain: true },
    });
    expect((await runCli(t, "competitions", "show", "stage-race-2029")).code).toBe(1);
    for (const sub of ["create", "rules"]) {
      const help = await runCli(t, "competitions", sub, "--help");
      expect(help.stdout).toContain("--transfers <free:bank:cost>");
      expect(help.stdout).toContain("--wildcard");
      expect(help.stdout).toContain("--no-wildcard");
      expect(help.stdout).toContain("--transfers 1:5:4");
    }
  });

  it("refuses bad input with a clear message and changes nothing", async () => {
    const before = await json("competitions", "list");
    const dup = await runCli(t, "competitions", "create", "xc cup 2028", "--discipline", "xc");
    expect([dup.code, dup.stderr]).toEqual([
      1,
      'error: A competition named "xc cup 2028" already exists (xc-cup-2028). Give the new one another name, such as its year.\n',
    ]);
    const discipline = await runCli(t, "competitions", "create", "BMX 2028", "--discipline", "bmx");
    expect(discipline.code).toBe(2);
    expect(discipline.stderr).toContain("use one of dh, downhill, xc");
    const impossible = await runCli(
      t,
      "competitions",
      "create",
      "Odd 2028",
      "--discipline",
      "other",
      "--team-size",
      "3",
      "--min-women",
      "4",
    );
    expect(impossible.code).toBe(1);
    expect(impossible.stderr).toContain("The minimum of women (4) is more than the team size (3).");
    const unknown = await runCli(t, "competitions", "show", "nope");
    expect([unknown.code, unknown.stderr]).toEqual([
      1,
      'error: No competition has the slug "nope" (see `game-admin competitions list`).\n',
    ]);
    expect(await json("competitions", "list")).toEqual(before);
  });

  it("adds a round, copies racers into it, opens it, and fixes the rules at the first lock", async () => {
    const past = await runCli(
      t,
      "events",
      "create",
      "--competition",
      "xc-cup-2028",
      "--name",
      "Round 1: Albstadt",
      "--starts",
      "2020-05-14T12:00:00Z",
    );
    expect(past.code).toBe(1);
    expect(past.stderr).toContain("has passed");
    const round = await json(
      "events",
      "create",
      "--competition",
      "xc-cup-2028",
      "--name",
      "Round 1: Albstadt",
      "--starts",
      "2028-05-14T12:00:00Z",
      "--location",
      "Albstadt, Germany",
    );
    expect(round).toMatchObject({ competition: "xc-cup-2028", round: 1, status: "closed" });
    const id = String(round.id);

    const closed = await runCli(t, "events", "status", id, "open");
    expect(closed.code).toBe(1);
    expect(closed.stderr).toContain("has no racers yet");

    const dry = await runCli(t, "racers", "copy", "5", id, "--dry-run");
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/^Dry run \(nothing written\): would copy \d+ racers from /);
    const copied = await json("racers", "copy", "5", id);
    expect(copied.copied).toBeGreaterThan(20);
    expect((await runCli(t, "events", "status", id, "open")).code).toBe(0);

    const shown = await json("competitions", "show", "xc-cup-2028");
    expect(shown).toMatchObject({ state: "live", rulesOpen: true });
    expect(shown.rounds).toMatchObject([{ id: round.id, status: "open", racers: copied.copied }]);

    const changed = await json("competitions", "rules", "xc-cup-2028", "--lock-hours", "2");
    expect(changed).toMatchObject({ changed: true, rules: { lockHours: 2 } });
    const tooPoor = await runCli(t, "competitions", "rules", "xc-cup-2028", "--budget", "10000");
    expect(tooPoor.code).toBe(1);
    expect(tooPoor.stderr).toContain("is below the cheapest team these rules allow");
    // The 2024 World Cup has been played: its rules cannot change.
    const fixed = await runCli(
      t,
      "competitions",
      "rules",
      "uci-downhill-world-cup-2024",
      "--team-size",
      "5",
    );
    expect(fixed.code).toBe(1);
    expect(fixed.stderr).toContain("The rules of UCI Downhill World Cup 2024 are fixed");
    const captain = await runCli(
      t,
      "competitions",
      "rules",
      "uci-downhill-world-cup-2024",
      "--captain",
    );
    expect([captain.code, captain.stdout]).toEqual([1, ""]);
    expect(captain.stderr).toContain("The rules of UCI Downhill World Cup 2024 are fixed");
  });

  it("asks which competition to advance when several are live", async () => {
    // The XC cup's round 2: now two competitions have an open round with a round after it.
    await json(
      "events",
      "create",
      "--competition",
      "xc-cup-2028",
      "--name",
      "Round 2: Nove Mesto",
      "--starts",
      "2028-05-21T12:00:00Z",
    );
    const r = await runCli(t, "season", "advance", "--dry-run");
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      "More than one competition has an open round to advance (pro-downhill-series-2027, xc-cup-2028): say which with --competition <slug>.",
    );
    const one = await runCli(
      t,
      "season",
      "advance",
      "--dry-run",
      "--competition",
      "pro-downhill-series-2027",
    );
    // Round 1 of the series is not settled: the refusal is about that round, not the choice.
    expect(one.code).toBe(1);
    expect(one.stderr).toContain("has not been settled yet");
  });

  it("archives a competition once its rounds are closed", async () => {
    const open = await runCli(t, "competitions", "archive", "xc-cup-2028");
    expect(open.code).toBe(1);
    expect(open.stderr).toContain("is still open: close it first");
    const { rounds } = await json("competitions", "show", "xc-cup-2028");
    expect((await runCli(t, "events", "status", String(rounds[0].id), "close")).code).toBe(0);
    const done = await runCli(t, "competitions", "archive", "xc-cup-2028");
    expect(done.stdout).toBe("XC Cup 2028 is archived (2 rounds).\n");
    const list = await json("competitions", "list");
    expect(list.at(-1)).toMatchObject({ slug: "xc-cup-2028", state: "archived" });
  });
});
