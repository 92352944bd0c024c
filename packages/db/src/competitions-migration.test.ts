/**
 * Migrations 0026 (competitions as data) and 0027 (one team per player per competition) on a
 * database as the game left it before them: a scored round 1 of the 2027 series, an open round 2
 * with carried and edited teams, a draft, archived rounds of other series and a one-off race,
 * and leagues. Nothing may be lost: the rounds become competitions' rounds with their ids and
 * numbers, each player keeps the team they play with now, at the prices paid, and the earlier
 * teams are kept as they were.
 */
import { sql } from "drizzle-orm";
import { afterAll, expect, it } from "vitest";
import { type MigrationDb, migrationsBefore, openMigrationDb } from "./fixtures/migration-db.js";

let db: MigrationDb;
let earlier: ReturnType<typeof migrationsBefore>;
let upTo0028: ReturnType<typeof migrationsBefore>;
afterAll(async () => {
  await db?.close();
  earlier?.remove();
  upTo0028?.remove();
});

it("turns series into competitions and round teams into competition teams, losing nothing", async () => {
  db = await openMigrationDb();
  const { run, migrate } = db;
  earlier = migrationsBefore("0026_competitions");
  await migrate(earlier.folder);

  await run(sql`insert into events (id, slug, name, series, round, cover, logo, status, starts_at, frozen_at, settled_at) values
    (1, 'wc-1', 'World Cup Fort William 2024', 'UCI Downhill World Cup', 1, '/c1', '/l1', 'archived', '2024-05-05T13:00:00Z', null, null),
    (2, 'wc-2', 'World Cup Leogang 2024', 'UCI Downhill World Cup', 2, '/c2', '/l2', 'archived', '2024-06-09T12:30:00Z', null, null),
    (5, 'pro-1', 'Pro Round 1', 'Pro Downhill Series 2027', 1, '/c5', '/l5', 'closed', '2027-04-18T16:00:00Z', '2027-04-18T04:00:00Z', '2027-04-19T10:00:00Z'),
    (6, 'pro-2', 'Pro Round 2', 'Pro Downhill Series 2027', 2, '/c6', '/l6', 'open', '2027-05-16T16:00:00Z', null, null),
    (7, 'pro-3', 'Pro Round 3', 'Pro Downhill Series 2027', 3, '/c7', '/l7', 'closed', '2027-06-20T16:00:00Z', null, null),
    (11, 'hardline', 'Red Bull Hardline 2024', 'Freeride', 1, '/c11', '/l11', 'archived', '2024-09-08T13:00:00Z', null, null),
    (12, 'rampage', 'Red Bull Rampage 2024', 'Freeride', 2, '/c12', '/l12', 'archived', '2024-10-18T16:00:00Z', null, null),
    (20, 'one-off', 'Crankworx Whistler DH 2026', '', null, '/c20', '/l20', 'archived', '2026-08-09T20:00:00Z', null, null)`);
  // Round 1's racers and the same people entered in round 2 (the trigger links them by name).
  await run(sql`insert into racers (id, game_id, category, first_name, last_name, name_key, price) overriding system value values
    (101, 5, 'Pro Men', 'Ann', 'One', 'ann|one', 300000),
    (102, 5, 'Pro Women', 'Bea', 'Two', 'bea|two', 200000),
    (103, 5, '17-18 Men', 'Cy', 'Three', 'cy|three', 100000),
    (201, 6, 'Pro Men', 'Ann', 'One', 'ann|one', 330000),
    (202, 6, 'Pro Women', 'Bea', 'Two', 'bea|two', 190000)`);
  await run(sql`insert into accounts (id, email, password_hash) overriding system value values
    (10, 'al@example.com', 'x'), (11, 'bo@example.com', 'x'), (12, 'cy@example.com', 'x')`);
  await run(sql`insert into users (id, email, username, username_key, points) values
    (10, 'al@example.com', 'Al', 'al', 100), (11, 'bo@example.com', 'Bo', 'bo', 80),
    (12, 'cy@example.com', 'Cy', 'cy', 0)`);
  // Round 1: Al and Bo played (frozen, scored). Round 2: Al's team carried (round 1's prices),
  // Bo's edited (bought Bea at round 2's price), Cy's a draft (Cy Three does not start).
  await run(sql`insert into teams (id, user_id, event_id, version, draft, budget) overriding system value values
    (1, 10, 5, 1, false, 1000000), (2, 11, 5, 2, false, 1000000),
    (3, 10, 6, 1, false, 1000000), (4, 11, 6, 3, false, 1010000), (5, 12, 6, 1, true, 1000000)`);
  await run(sql`insert into team_racers (team_id, racer_id, slot, price_paid) values
    (1, 101, 0, 300000), (1, 102, 1, 200000),
    (2, 101, 0, 300000), (2, 103, 1, 100000),
    (3, 201, 0, 300000), (3, 202, 1, 200000),
    (4, 201, 0, 300000), (4, 202, 1, 190000),
    (5, 202, 0, 190000)`);
  await run(sql`insert into frozen_team_racers (event_id, user_id, racer_id) values
    (5, 10, 101), (5, 10, 102), (5, 11, 101), (5, 11, 103)`);
  await run(sql`insert into frozen_teams (event_id, user_id, racer_ids) values
    (5, 10, '{101,102}'), (5, 11, '{101,103}')`);
  await run(sql`insert into race_results (event_id, racer_id, category, position, status, points) values
    (5, 101, 'Pro Men', 1, 'finished', 100)`);
  await run(sql`insert into event_scores (event_id, user_id, points, rank, position) values
    (5, 10, 100, 1, 1), (5, 11, 100, 1, 2)`);
  await run(sql`insert into leagues (id, name, owner_id, join_code, total_points, ranking) overriding system value values
    (1, 'Crew', 10, 'crew-code', 100, 1)`);
  await run(
    sql`insert into league_members (league_id, user_id, score) values (1, 10, 100), (1, 11, 100)`,
  );

  const facts = async () =>
    (
      await run(sql`select
        (select json_agg(json_build_object('id', id, 'round', round, 'status', status) order by id) from events) as events,
        (select count(*)::int from racers) as racers,
        (select count(*)::int from frozen_team_racers) as frozen,
        (select count(*)::int from frozen_teams) as frozen_teams,
        (select count(*)::int from race_results) as results,
        (select count(*)::int from event_scores) as scores,
        (select count(*)::int from league_members) as members,
        (select json_agg(points order by id) from users) as points`)
    )[0];
  const before = await facts();

  // Up to 0028: players' points leave `users` in 0029 (its own test).
  upTo0028 = migrationsBefore("0029_competition-standings");
  await migrate(upTo0028.folder);

  // Everything as it was; the one-off race is round 1 of its own competition.
  const events = (before!.events as { id: number; round: number | null }[]).map((e) =>
    e.id === 20 ? { ...e, round: 1 } : e,
  );
  expect(await facts()).toEqual({ ...before, events });

  const competitions = await run(sql`
    select c.slug, c.name, c.discipline, c.season, c.cover, c.rules->>'teamSize' as team_size,
      array_agg(e.id order by e.round) as rounds
    from competitions c join events e on e.competition_id = c.id
    group by c.id order by c.id`);
  expect(competitions).toEqual([
    {
      slug: "uci-downhill-world-cup-2024",
      name: "UCI Downhill World Cup 2024",
      discipline: "downhill",
      season: "2024",
      cover: "/c1",
      team_size: "6",
      rounds: [1, 2],
    },
    {
      slug: "freeride-2024",
      name: "Freeride 2024",
      discipline: "freeride",
      season: "2024",
      cover: "/c11",
      team_size: "6",
      rounds: [11, 12],
    },
    {
      slug: "crankworx-whistler-dh-2026",
      name: "Crankworx Whistler DH 2026",
      discipline: "downhill",
      season: "2026",
      cover: "/c20",
      team_size: "6",
      rounds: [20],
    },
    {
      slug: "pro-downhill-series-2027",
      name: "Pro Downhill Series 2027",
      discipline: "downhill",
      season: "2027",
      cover: "/c5",
      team_size: "6",
      rounds: [5, 6, 7],
    },
  ]);

  // One team per player per competition: the one they play round 2 with, its version, budget
  // and prices paid; its racers as people.
  const teams = await run(sql`
    select t.id, t.user_id, t.version, t.budget,
      json_agg(json_build_array(p.name_key, tr.slot, tr.price_paid) order by tr.slot) as slots
    from teams t join team_racers tr on tr.team_id = t.id join racer_people p on p.id = tr.person_id
    group by t.id order by t.id`);
  expect(teams).toEqual([
    {
      id: 3,
      user_id: 10,
      version: 1,
      budget: 1_000_000,
      slots: [
        ["ann|one", 0, 300000],
        ["bea|two", 1, 200000],
      ],
    },
    {
      id: 4,
      user_id: 11,
      version: 3,
      budget: 1_010_000,
      slots: [
        ["ann|one", 0, 300000],
        ["bea|two", 1, 190000],
      ],
    },
    { id: 5, user_id: 12, version: 1, budget: 1_000_000, slots: [["bea|two", 0, 190000]] },
  ]);
  // Round 1's teams, kept as they were.
  expect(
    await run(sql`select team_id, user_id, event_id, racer_id, price_paid
      from teams_before_0027 order by team_id, slot`),
  ).toEqual([
    { team_id: 1, user_id: 10, event_id: 5, racer_id: 101, price_paid: 300000 },
    { team_id: 1, user_id: 10, event_id: 5, racer_id: 102, price_paid: 200000 },
    { team_id: 2, user_id: 11, event_id: 5, racer_id: 101, price_paid: 300000 },
    { team_id: 2, user_id: 11, event_id: 5, racer_id: 103, price_paid: 100000 },
  ]);

  // After the migration: a new round of a competition is numbered after its last, new ids come
  // after the seed's, a racer entered again in the series is the same person.
  const [added] =
    await run(sql`insert into events (slug, name, competition_id, cover, logo, starts_at)
    select 'pro-4', 'Pro Round 4', id, '/c', '/l', '2027-07-18T16:00:00Z' from competitions
    where slug = 'pro-downhill-series-2027' returning id, round`);
  expect(added).toEqual({ id: 21, round: 4 });
  await run(sql`insert into racers (game_id, category, first_name, last_name, name_key)
    values (21, 'Pro Men', 'Ann', 'One', 'ann|one')`);
  const same = await run(
    sql`select count(distinct person_id)::int as n from racers where name_key = 'ann|one'`,
  );
  expect(same).toEqual([{ n: 1 }]);
  // A deleted player's kept teams go with them.
  await run(sql`delete from users where id = 11`);
  expect(
    await run(sql`select count(*)::int as n from teams_before_0027 where user_id = 11`),
  ).toEqual([{ n: 0 }]);
});
