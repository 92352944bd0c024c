/**
 * Migration 0037 (username keys beside the settlement's rows, docs/decisions/0172) on a database
 * with a settled round: every frozen team, round score and table row gets its player's key, and
 * the next settlement orders ties by it without reading the players.
 */
import { sql } from "drizzle-orm";
import { afterAll, expect, it } from "vitest";
import { type MigrationDb, migrationsBefore, openMigrationDb } from "./fixtures/migration-db.js";

let db: MigrationDb;
let earlier: ReturnType<typeof migrationsBefore>;
afterAll(async () => {
  await db?.close();
  earlier?.remove();
});

it("copies each player's username key into the frozen teams, the round's scores and the table", async () => {
  db = await openMigrationDb();
  const { run, migrate } = db;
  earlier = migrationsBefore("0037_username-keys");
  await migrate(earlier.folder);

  await run(sql`insert into competitions (id, slug, name, season, rules) overriding system value values
    (2, 'pro-2027', 'Pro Downhill Series 2027', '2027', '{}')`);
  await run(sql`insert into events (id, slug, name, competition_id, round, cover, logo, status, starts_at, frozen_at, settled_at) overriding system value values
    (5, 'pro-1', 'Pro 1', 2, 1, '/c', '/l', 'open', '2027-04-18T16:00:00Z', '2027-04-18T04:00:00Z', '2027-04-19T10:00:00Z')`);
  await run(sql`insert into accounts (id, email, password_hash) overriding system value values
    (10, 'al@example.com', 'x'), (11, 'bo@example.com', 'x')`);
  await run(sql`insert into users (id, email, username, username_key) values
    (10, 'al@example.com', 'Al', 'al'), (11, 'bo@example.com', 'Bo', 'bo')`);
  await run(sql`insert into frozen_teams (event_id, user_id, racer_ids) values
    (5, 10, '{1,2}'), (5, 11, '{3}')`);
  await run(sql`insert into event_scores (event_id, user_id, points, rank, position) values
    (5, 10, 100, 1, 1), (5, 11, 100, 1, 2)`);
  await run(sql`insert into season_standings (competition_id, position, user_id, points, rank) values
    (2, 1, 10, 100, 1), (2, 2, 11, 100, 1)`);

  await migrate();

  const keys = (table: string) =>
    run(sql.raw(`select user_id, username_key from ${table} order by user_id`));
  const expected = [
    { user_id: 10, username_key: "al" },
    { user_id: 11, username_key: "bo" },
  ];
  expect(await keys("frozen_teams")).toEqual(expected);
  expect(await keys("event_scores")).toEqual(expected);
  expect(await keys("season_standings")).toEqual(expected);
});
