/**
 * A settlement writes the season table and the event's scores into fresh tables and swaps them
 * in at commit (docs/decisions/0137): the swapped tables keep the migrations' keys, indexes and
 * names, and a reader on another connection sees the old tables or the new ones, never a mix.
 */
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type DbHandle, rowsOf } from "../client.js";
import { events, racers } from "../schema/index.js";
import { createTestDb } from "../testing.js";
import { makePlayers, putResults, putTeam } from "./scoring.fixtures.js";
import { settleEvent } from "./scoring.js";

let h: DbHandle;
let after: Date;
let men: { id: number }[];
beforeAll(async () => {
  h = await createTestDb({ seed: true, max: 4 });
  men = await h.db
    .select({ id: racers.id })
    .from(racers)
    .where(eq(racers.gameId, 5))
    .then((rs) => rs.filter((_, i) => i % 2 === 0));
  const [e5] = await h.db.select().from(events).where(eq(events.id, 5));
  after = new Date(e5!.startsAt.getTime() + 3_600_000);
  const players = await makePlayers(
    h.db,
    Array.from({ length: 60 }, (_, i) => `swap_${i}`),
  );
  for (const [i, p] of players.entries()) {
    await putTeam(h.db, p.id, 5, [men[i % 5]!.id, men[5 + (i % 3)]!.id]);
  }
});
afterAll(() => h.close());

const q = async <T>(text: string) => rowsOf<T>(await h.db.execute(sql.raw(text)));

/** Places 1..5 to the first five racers, in the given order. */
const results = (order: number[]) =>
  putResults(
    h.db,
    5,
    order.map((i, place) => ({
      racerId: men[i]!.id,
      category: "Pro Men" as const,
      status: "finished" as const,
      position: place + 1,
    })),
  );

/** What a ranking page reads, in one statement (one snapshot). */
const READ = `select
  (select count(*)::int from season_standings) as standings,
  (select coalesce(sum(points), 0)::int from season_standings) as season,
  (select coalesce(sum(points), 0)::int from event_scores where event_id = 5) as event,
  (select coalesce(max(position), 0)::int from event_scores where event_id = 5) as places`;

it("swaps in fresh tables that keep the migrations' keys, indexes and names", async () => {
  await results([0, 1, 2, 3, 4]);
  await settleEvent(h.db, 5, { now: after });
  const [{ c } = { c: 0 }] = await q<{ c: number }>(
    "select competition_id as c from events where id = 5",
  );
  const table = `season_standings_${c}`;
  const oid = `select '${table}'::regclass::oid::int as oid`;
  const [before] = await q<{ oid: number }>(oid);
  await settleEvent(h.db, 5, { now: after });
  const [then] = await q<{ oid: number }>(oid);
  // A new table each time: the old rows went with the old table, none are left dead.
  expect(then!.oid).not.toBe(before!.oid);

  const indexes = await q<{ tablename: string; indexname: string; indexdef: string }>(`
    select tablename, indexname, indexdef from pg_indexes
    where tablename in ('season_standings', '${table}', 'event_scores', 'event_scores_5')
    order by tablename, indexname`);
  expect(indexes.map((i) => `${i.tablename}.${i.indexname}`)).toEqual([
    "event_scores.event_scores_event_id_user_id_pk",
    "event_scores.event_scores_position_idx",
    "event_scores_5.event_scores_5_pkey",
    "event_scores_5.event_scores_5_position_idx",
    "season_standings.season_standings_competition_id_position_pk",
    "season_standings.season_standings_user_idx",
    `${table}.${table}_pkey`,
    `${table}.${table}_user_idx`,
  ]);
  // The competition's partition's indexes are the partitioned key and index's (migration 0029).
  const standings = await q<{ child: string; parent: string }>(`
    select c.relname as child, p.relname as parent from pg_inherits i
    join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent
    where p.relname like 'season_standings%' and c.relname like '${table}%'
    order by c.relname collate "C"`);
  expect(standings).toEqual([
    { child: table, parent: "season_standings" },
    { child: `${table}_pkey`, parent: "season_standings_competition_id_position_pk" },
    { child: `${table}_user_idx`, parent: "season_standings_user_idx" },
  ]);
  // The event's partition's indexes are the partitioned key and index's, as migration 0019's.
  const attached = await q<{ child: string; parent: string }>(`
    select c.relname as child, p.relname as parent from pg_inherits i
    join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent
    where p.relname like 'event_scores%' order by c.relname collate "C"`);
  expect(attached).toEqual([
    { child: "event_scores_5", parent: "event_scores" },
    { child: "event_scores_5_pkey", parent: "event_scores_event_id_user_id_pk" },
    { child: "event_scores_5_position_idx", parent: "event_scores_position_idx" },
    { child: "event_scores_default", parent: "event_scores" },
    { child: "event_scores_default_event_id_position_idx", parent: "event_scores_position_idx" },
    { child: "event_scores_default_pkey", parent: "event_scores_event_id_user_id_pk" },
  ]);
  expect(await q("select relname from pg_class where relname like '%\\_next%'")).toEqual([]);
  // The key still refuses a second row for a place.
  await expect(
    h.db.execute(
      sql`insert into season_standings (competition_id, position, user_id, points, rank)
        values (${c}, 1, 1, 0, 1)`,
    ),
  ).rejects.toThrow();
});

it("a reader sees the old tables or the new ones, never a half-settled state", async () => {
  await results([0, 1, 2, 3, 4]);
  await settleEvent(h.db, 5, { now: after });
  const [old] = await q<Record<string, number>>(READ);
  // Corrected: two racers placed, so the totals a page shows change.
  await results([4, 3]);
  let settling = true;
  const seen: Record<string, number>[] = [];
  const reader = (async () => {
    while (settling) seen.push(...(await q<Record<string, number>>(READ)));
  })();
  try {
    await settleEvent(h.db, 5, { now: after });
  } finally {
    settling = false;
  }
  await reader;
  expect(seen.length).toBeGreaterThan(0);
  const [fresh] = await q<Record<string, number>>(READ);
  expect(fresh).not.toEqual(old);
  expect(fresh!.standings).toBe(60);
  for (const s of seen) expect([old, fresh]).toContainEqual(s);
});
