/**
 * Migration 0025 on leagues placed before decision 0151's two-member rule: a league of one loses
 * its place at once, the others close ranks with their ties kept.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { DbHandle } from "../client.js";
import { migrationsFolder } from "../paths.js";
import { leagues } from "../schema/index.js";
import { createTestDb } from "../testing.js";
import { makePlayers, putLeague } from "./scoring.fixtures.js";

let h: DbHandle;
beforeAll(async () => {
  h = await createTestDb();
});
afterAll(() => h.close());

it("unplaces leagues of one and renumbers the rest, ties kept", async () => {
  const [a, b, c, d] = await makePlayers(h.db, ["Ann", "Ben", "Cat", "Dan"]);
  const placed = [
    { name: "Pair", members: [a!.id, b!.id], ranking: 1 },
    { name: "Solo", members: [c!.id], ranking: 2 },
    { name: "Tie one", members: [a!.id, c!.id], ranking: 3 },
    { name: "Tie two", members: [b!.id, d!.id], ranking: 3 },
    { name: "Alone", members: [d!.id], ranking: 5 },
    { name: "Last", members: [a!.id, d!.id], ranking: 6 },
  ];
  for (const l of placed) {
    const id = await putLeague(h.db, l.name, l.members);
    await h.db.update(leagues).set({ ranking: l.ranking }).where(eq(leagues.id, id));
  }
  const file = readFileSync(
    path.join(migrationsFolder, "0025_league-ranking-two-members.sql"),
    "utf8",
  );
  for (const statement of file.split("--> statement-breakpoint")) {
    await h.db.execute(sql.raw(statement));
  }
  const after = await h.db
    .select({ name: leagues.name, ranking: leagues.ranking })
    .from(leagues)
    .orderBy(asc(leagues.id));
  expect(after).toEqual([
    { name: "Pair", ranking: 1 },
    { name: "Solo", ranking: null },
    { name: "Tie one", ranking: 2 },
    { name: "Tie two", ranking: 2 },
    { name: "Alone", ranking: null },
    { name: "Last", ranking: 4 },
  ]);
});
