/**
 * Migration 0011 (racer people, prices paid, drafts) on a database that already holds round-1
 * data: racers, a saved team, a frozen team, results and scores. Nothing may be lost.
 */

import { sql } from "drizzle-orm";
import { afterAll, expect, it } from "vitest";
import { type MigrationDb, migrationsBefore, openMigrationDb } from "./fixtures/migration-db.js";

const MIGRATION = "0011_season-people";
let db: MigrationDb;
let earlier: ReturnType<typeof migrationsBefore>;
afterAll(async () => {
  await db?.close();
  earlier?.remove();
});

it("keeps every round-1 racer, team, frozen team, result and score, and links people", async () => {
  db = await openMigrationDb();
  const { run, migrate } = db;
  earlier = migrationsBefore(MIGRATION);
  await migrate(earlier.folder);

  // Round-1 data as the schema before 0011 holds it.
  await run(sql`insert into events (id, slug, name, series, cover, logo, status, starts_at) values
    (5, 'r1', 'Round 1', 'Pro DH', 'c', 'l', 'open', '2027-04-18T16:00:00Z'),
    (6, 'r2', 'Round 2', 'Pro DH', 'c', 'l', 'closed', '2027-05-16T16:00:00Z'),
    (1, 'wc', 'World Cup', 'World Cup', 'c', 'l', 'archived', '2024-05-05T13:00:00Z')`);
  await run(sql`insert into racers (id, game_id, category, first_name, last_name, name_key, price)
    overriding system value values
    (1001, 5, 'Pro Men', 'Ann', 'One', 'ann|one', 300000),
    (1002, 5, 'Pro Women', 'Bea', 'Two', 'bea|two', 200000),
    (1003, 5, '17-18 Men', 'Cy', 'Three', 'cy|three', 100000),
    (1004, 1, 'Pro Men', 'Ann', 'One', 'ann|one', 90000)`);
  await run(sql`insert into accounts (id, email, password_hash) overriding system value
    values (10, 'p@example.com', 'x')`);
  await run(sql`insert into users (id, email, username, username_key) values
    (10, 'p@example.com', 'Pia', 'pia')`);
  await run(
    sql`insert into teams (id, user_id, event_id) overriding system value values (7, 10, 5)`,
  );
  await run(
    sql`insert into team_racers (team_id, racer_id, slot) values (7, 1001, 0), (7, 1002, 1), (7, 1003, 2)`,
  );
  await run(sql`insert into frozen_team_racers (event_id, user_id, racer_id) values
    (5, 10, 1001), (5, 10, 1002), (5, 10, 1003)`);
  await run(
    sql`insert into frozen_teams (event_id, user_id, racer_ids) values (5, 10, '{1001,1002,1003}')`,
  );
  await run(sql`insert into race_results (event_id, racer_id, category, position, status, points)
    values (5, 1001, 'Pro Men', 1, 'finished', 100)`);
  await run(sql`insert into event_scores (event_id, user_id, points, rank, position)
    values (5, 10, 100, 1, 1)`);

  const counts = async () =>
    (
      await run(sql`select
        (select count(*)::int from racers) as racers,
        (select count(*)::int from team_racers) as slots,
        (select count(*)::int from frozen_team_racers) as frozen,
        (select count(*)::int from frozen_teams) as frozen_teams,
        (select count(*)::int from race_results) as results,
        (select count(*)::int from event_scores) as scores`)
    )[0];
  const before = await counts();

  // 0011 itself (later migrations reshape teams: 0027's test covers them).
  const through = migrationsBefore("0012_password-reset-and-session-idle");
  try {
    await migrate(through.folder);
  } finally {
    through.remove();
  }

  expect(await counts()).toEqual(before);
  const people = await run(sql`
    select r.id, r.person_id, p.series, p.name_key from racers r
    join racer_people p on p.id = r.person_id order by r.id`);
  expect(people).toHaveLength(4);
  // Same name in another series is another person.
  expect(new Set(people.map((p) => p.person_id)).size).toBe(4);
  const slots = await run(sql`select racer_id, price_paid from team_racers order by slot`);
  expect(slots).toEqual([
    { racer_id: 1001, price_paid: 300000 },
    { racer_id: 1002, price_paid: 200000 },
    { racer_id: 1003, price_paid: 100000 },
  ]);
  expect(await run(sql`select draft from teams`)).toEqual([{ draft: false }]);

  // A later entry of the same series and name is the same person; a new name is a new one.
  await run(sql`insert into racers (game_id, category, first_name, last_name, name_key) values
    (6, 'Pro Men', 'Ann', 'One', 'ann|one'), (6, 'Pro Men', 'Dan', 'Four', 'dan|four')`);
  const round2 = await run(
    sql`select name_key, person_id from racers where game_id = 6 order by name_key`,
  );
  expect(round2[0]!.person_id).toBe(people[0]!.person_id);
  expect(new Set(people.map((p) => p.person_id)).has(round2[1]!.person_id)).toBe(false);

  // A slot inserted without a price paid takes the racer's current price.
  await run(sql`insert into team_racers (team_id, racer_id, slot) values (7, 1004, 3)`);
  expect(await run(sql`select price_paid from team_racers where racer_id = 1004`)).toEqual([
    { price_paid: 90000 },
  ]);
}, 60_000);
