/**
 * Migration 0029 (standings per competition) on a database as the game left it before: the
 * 2027 series with two settled rounds (its table stored in season_standings and copied into
 * players' columns and league members' scores), and a finished 2024 competition whose table was
 * never stored on its own. Nothing may be lost: 2027's stored table becomes its competition's,
 * row for row; 2024 gets the table its stored round scores make; the players' and members'
 * copies go, and every page reads the same figures from the standings.
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

it("turns the season table into per-competition tables, keeping 2027's and making 2024's", async () => {
  db = await openMigrationDb();
  const { run, migrate } = db;
  earlier = migrationsBefore("0029_competition-standings");
  await migrate(earlier.folder);

  await run(sql`insert into competitions (id, slug, name, season, rules) overriding system value values
    (1, 'wc-2024', 'World Cup 2024', '2024', '{}'), (2, 'pro-2027', 'Pro Downhill Series 2027', '2027', '{}'),
    (3, 'xc-2028', 'XC 2028', '2028', '{}')`);
  await run(sql`insert into events (id, slug, name, competition_id, round, cover, logo, status, starts_at, frozen_at, settled_at) overriding system value values
    (1, 'wc-1', 'WC 1', 1, 1, '/c', '/l', 'archived', '2024-05-05T13:00:00Z', '2024-05-05T01:00:00Z', '2024-05-06T10:00:00Z'),
    (2, 'wc-2', 'WC 2', 1, 2, '/c', '/l', 'archived', '2024-06-09T12:30:00Z', '2024-06-09T00:30:00Z', '2024-06-10T10:00:00Z'),
    (5, 'pro-1', 'Pro 1', 2, 1, '/c', '/l', 'closed', '2027-04-18T16:00:00Z', '2027-04-18T04:00:00Z', '2027-04-19T10:00:00Z'),
    (6, 'pro-2', 'Pro 2', 2, 2, '/c', '/l', 'closed', '2027-05-16T16:00:00Z', '2027-05-16T04:00:00Z', '2027-05-17T10:00:00Z'),
    (7, 'pro-3', 'Pro 3', 2, 3, '/c', '/l', 'open', '2027-06-20T16:00:00Z', null, null),
    (9, 'xc-1', 'XC 1', 3, 1, '/c', '/l', 'closed', '2028-04-20T16:00:00Z', null, null)`);
  await run(sql`insert into accounts (id, email, password_hash) overriding system value values
    (10, 'al@example.com', 'x'), (11, 'bo@example.com', 'x'), (12, 'cy@example.com', 'x')`);
  await run(sql`insert into users (id, email, username, username_key, points, ranking, previous_ranking, ranking_position) values
    (10, 'al@example.com', 'Al', 'al', 150, 1, 2, 1), (11, 'bo@example.com', 'Bo', 'bo', 100, 2, 1, 2),
    (12, 'cy@example.com', 'Cy', 'cy', 0, null, null, null)`);
  // 2024: Cy won round 1, Al round 2; ties and the earlier table come out of the scores.
  await run(sql`insert into event_scores (event_id, user_id, points, rank, position) values
    (1, 12, 100, 1, 1), (1, 10, 80, 2, 2), (1, 11, 10, 3, 3),
    (2, 10, 100, 1, 1), (2, 12, 10, 2, 2),
    (5, 11, 100, 1, 1), (5, 10, 65, 2, 2),
    (6, 10, 85, 1, 1), (6, 11, 0, 2, 2)`);
  await run(sql`insert into season_standings (position, user_id, points, rank, previous_rank, previous_points) values
    (1, 10, 150, 1, 2, 65), (2, 11, 100, 2, 1, 100)`);
  await run(sql`insert into leagues (id, name, owner_id, join_code, competition_id, total_points, ranking) overriding system value values
    (1, 'Crew', 10, 'crew-code', 2, 125, 1)`);
  await run(
    sql`insert into league_members (league_id, user_id, score) values (1, 10, 150), (1, 11, 100)`,
  );

  await migrate();

  expect(
    await run(sql`select competition_id, position, user_id, points, rank, previous_rank, previous_points
      from season_standings order by competition_id, position`),
  ).toEqual([
    // 2024, from its scores: Al 180 (before round 2: 80, 2nd), Cy 110 (100, 1st), Bo 10.
    {
      competition_id: 1,
      position: 1,
      user_id: 10,
      points: 180,
      rank: 1,
      previous_rank: 2,
      previous_points: 80,
    },
    {
      competition_id: 1,
      position: 2,
      user_id: 12,
      points: 110,
      rank: 2,
      previous_rank: 1,
      previous_points: 100,
    },
    {
      competition_id: 1,
      position: 3,
      user_id: 11,
      points: 10,
      rank: 3,
      previous_rank: 3,
      previous_points: 10,
    },
    // 2027: the stored table, row for row.
    {
      competition_id: 2,
      position: 1,
      user_id: 10,
      points: 150,
      rank: 1,
      previous_rank: 2,
      previous_points: 65,
    },
    {
      competition_id: 2,
      position: 2,
      user_id: 11,
      points: 100,
      rank: 2,
      previous_rank: 1,
      previous_points: 100,
    },
  ]);
  // The copies are gone; the league keeps its stored total and place.
  const columns = await run(sql`select table_name, column_name from information_schema.columns
    where (table_name = 'users' and column_name in ('points', 'ranking', 'previous_ranking', 'ranking_position'))
       or (table_name = 'league_members' and column_name = 'score')`);
  expect(columns).toEqual([]);
  expect(await run(sql`select id, total_points, ranking from leagues`)).toEqual([
    { id: 1, total_points: 125, ranking: 1 },
  ]);
  // Migration 0032: the league's place is in its competition's league places.
  expect(await run(sql`select competition_id, place, league_id from league_places`)).toEqual([
    { competition_id: 2, place: 1, league_id: 1 },
  ]);
  // The table is partitioned by competition: a competition's rows are one partition's range,
  // and a place is unique within its competition only.
  await run(sql`insert into season_standings (competition_id, position, user_id, points, rank)
    values (3, 1, 10, 0, 1)`);
  await expect(
    run(sql`insert into season_standings (competition_id, position, user_id, points, rank)
      values (3, 1, 11, 0, 1)`),
  ).rejects.toThrow();
  // A deleted player leaves every table.
  await run(sql`delete from users where id = 11`);
  expect(
    await run(sql`select count(*)::int as n from season_standings where user_id = 11`),
  ).toEqual([{ n: 0 }]);
});
