import {
  createAccount,
  getPlayerProfile,
  getTeam,
  listTeamRacers,
  saveTeam,
  seed,
  type TeamRacerView,
} from "@game/db";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type CliTarget, cliTarget, runCli, writeFile } from "../../test-support.js";

// The "done when": a five-round season run from the command line, one results import
// and one `season advance` per round, while a player who never comes back fields their team.
let t: CliTarget;
beforeAll(async () => {
  t = await cliTarget({ hold: true });
  await seed(t.h!.db);
});
afterAll(() => t?.close());

/** The cheapest valid team of a round: two pro women, a junior man, three pro men. */
function cheapest(pool: TeamRacerView[]): TeamRacerView[] {
  const take = (category: string, n: number) =>
    pool
      .filter((r) => r.category === category)
      .sort((a, b) => a.price - b.price || a.id - b.id)
      .slice(0, n);
  return [...take("Pro Women", 2), ...take("17-18 Men", 1), ...take("Pro Men", 3)];
}

it("runs rounds 1 to 5 with one import and one advance each; the absent player plays every round", async () => {
  const db = t.h!.db;
  const away = await createAccount(db, {
    email: "away@example.com",
    username: "away",
    passwordHash: "x",
  });
  const picked = cheapest(await listTeamRacers(db, 5));
  const saved = await saveTeam(db, {
    userId: away.id,
    eventId: 5,
    racerIds: picked.map((r) => r.id),
    now: new Date(),
  });
  expect(saved.ok).toBe(true);

  for (const round of [5, 6, 7, 8, 9]) {
    // The player's team for this round was carried without them doing anything.
    const team = await getTeam(db, away.id, round);
    expect(team?.draft, `round ${round}`).toBe(false);
    expect(team!.racers.map((r) => `${r.firstName} ${r.lastName}`).sort()).toEqual(
      picked.map((r) => `${r.firstName} ${r.lastName}`).sort(),
    );
    const csv = [
      "Position,First Name,Last Name,Category",
      ...team!.racers.map((r, i) => `${i + 1},${r.firstName},${r.lastName},${r.category}`),
    ].join("\n");
    const file = writeFile(t, `round-${round}.csv`, `${csv}\n`);
    const imported = await runCli(t, "results", "import", String(round), file, "--force");
    expect(imported.code, imported.stderr).toBe(0);

    const advanced = await runCli(t, "season", "advance", "--json");
    if (round < 9) {
      expect(advanced.code, advanced.stderr).toBe(0);
      expect(JSON.parse(advanced.stdout)).toMatchObject({
        from: { id: round },
        to: { id: round + 1 },
        carried: 1,
        drafts: 0,
      });
    } else {
      // Round 5 (event 9) ends the series: nothing to open, said plainly, exit 1.
      expect(advanced.code).toBe(1);
      expect(advanced.stderr).toMatch(/last round of .*no next round/);
    }
  }

  const profile = await getPlayerProfile(db, "away");
  expect(profile!.events.map((e) => e.eventId)).toEqual([5, 6, 7, 8, 9]);
  for (const e of profile!.events) expect(e.points, `event ${e.eventId}`).toBeGreaterThan(0);
  expect(profile!.points).toBe(profile!.events.reduce((sum, e) => sum + e.points, 0));
  expect(profile!.ranking).toBe(1);
});
