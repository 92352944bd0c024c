import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "../client.js";
import { racers, teamRacers } from "../schema/index.js";
import { insertSeedEvents } from "../seed.js";
import { createTestDb } from "../testing.js";
import { AdminActionError, CLI_ACTOR, listAudit } from "./audit.js";
import { setRacer, setRacerWithdrawn, withdrawnRacersOnTeam } from "./racers-admin.js";
import { importRacers } from "./racers-import.js";
import { putTeam } from "./scoring.fixtures.js";
import { createAccount } from "./users.js";

let h: DbHandle;
let bruni: number;
let pierron: number;
beforeAll(async () => {
  h = await createTestDb();
  await insertSeedEvents(h.db, [5]);
  await importRacers(h.db, {
    csv: "Category,First Name,Last Name,Origin,Price\nPro Men,Loïc,Bruni,FRA,99000\nPro Men,Amaury,Pierron,FRA,90000\n",
    actor: CLI_ACTOR,
  });
  const rows = await h.db.select().from(racers).orderBy(asc(racers.id));
  bruni = rows[0]!.id;
  pierron = rows[1]!.id;
});
afterAll(() => h.close());

describe("setRacer", () => {
  it("changes only the fields given, lists them old -> new, and audits", async () => {
    const r = await setRacer(h.db, bruni, { price: 120000, rank2024: 1, origin: "FRA" }, CLI_ACTOR);
    expect(r.changes).toEqual([
      { field: "Rank2024", from: 0, to: 1 },
      { field: "Price", from: 99000, to: 120000 },
    ]);
    expect(r.racer).toMatchObject({ price: 120000, rank2024: 1, origin: "FRA", firstName: "Loïc" });
    expect((await setRacer(h.db, bruni, { price: 120000 }, CLI_ACTOR)).changes).toEqual([]);
    const { rows } = await listAudit(h.db, { action: "racer.set" });
    expect(rows).toHaveLength(1);
  });

  it("refuses bad values and another racer's name, writing nothing", async () => {
    for (const edit of [
      { price: -5 },
      { price: 1.5 },
      { rank2024: 2 ** 31 },
      { category: "Kids" },
      { lastName: " " },
    ]) {
      await expect(setRacer(h.db, bruni, edit, CLI_ACTOR)).rejects.toThrow(AdminActionError);
    }
    await expect(
      setRacer(h.db, bruni, { firstName: "amaury", lastName: "PIERRON" }, CLI_ACTOR),
    ).rejects.toThrow(`Racer ${pierron} in event 5 already is amaury PIERRON.`);
    await expect(setRacer(h.db, 999999, { price: 1 }, CLI_ACTOR)).rejects.toThrow(
      "No racer with id 999999.",
    );
    const [row] = await h.db.select().from(racers).where(eq(racers.id, bruni));
    expect(row).toMatchObject({ firstName: "Loïc", price: 120000 });
  });

  it("renames, keeping the name key in step", async () => {
    const r = await setRacer(
      h.db,
      pierron,
      { firstName: "Amaury ", category: "pro-men" },
      CLI_ACTOR,
    );
    expect(r.changes).toEqual([]);
    const renamed = await setRacer(h.db, pierron, { lastName: "Pierron-Dupont" }, CLI_ACTOR);
    expect(renamed.racer.nameKey).toBe("amaury|pierron-dupont");
  });
});

describe("setRacerWithdrawn", () => {
  it("withdraws once, counts the teams holding the racer, tells them, and reinstates", async () => {
    const player = await createAccount(h.db, {
      username: "holder",
      email: "holder@example.com",
      passwordHash: "test:unusable",
    });
    const teamId = await putTeam(h.db, player.id, 5, [bruni]);
    await h.db.update(teamRacers).set({ pricePaid: 99000 }).where(eq(teamRacers.teamId, teamId));

    const w = await setRacerWithdrawn(h.db, bruni, true, CLI_ACTOR);
    expect(w).toMatchObject({ changed: true, teamsHolding: 1 });
    expect(w.racer.withdrawnAt).toBeInstanceOf(Date);
    expect((await setRacerWithdrawn(h.db, bruni, true, CLI_ACTOR)).changed).toBe(false);
    expect(await withdrawnRacersOnTeam(h.db, player.id, 5)).toMatchObject([
      { id: bruni, firstName: "Loïc", lastName: "Bruni" },
    ]);

    const back = await setRacerWithdrawn(h.db, bruni, false, CLI_ACTOR);
    expect(back).toMatchObject({ changed: true, racer: { withdrawnAt: null } });
    expect(await withdrawnRacersOnTeam(h.db, player.id, 5)).toEqual([]);
    const actions = (await listAudit(h.db, {})).rows.map((e) => e.action);
    expect(actions).toContain("racer.withdraw");
    expect(actions).toContain("racer.reinstate");
  });
});
