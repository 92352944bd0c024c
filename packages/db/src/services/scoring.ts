import {
  autoSub,
  type Category,
  type CompetitionRules,
  LEAGUE_RANKING_MIN_MEMBERS,
  POINTS,
  type PointsTable,
} from "@game/core";
import { and, desc, eq, isNotNull, type SQL, sql } from "drizzle-orm";
import { PgTransaction } from "drizzle-orm/pg-core";
import { type Db, type DbOrTx, rowsOf } from "../client.js";
import { competitions, events, raceResults } from "../schema/index.js";
import { type AdminActor, recordAudit } from "./audit.js";
import { parseRules } from "./events.js";
import { freezeDueEvents, freezeEvent, LONG_JOB } from "./freeze.js";
import { countFrozenPicks } from "./picks.js";

/*
 * Settlement. Teams are copied into frozen_team_racers at the lock moment (freeze.ts); scoring
 * reads ONLY those copies. Settlement is a handful of set-based statements in one transaction:
 * it recomputes everything that depends on results from the stored facts (results, frozen teams,
 * memberships), so running it again gives the same tables, and corrected results simply
 * replace the old ones. Rules: docs/decisions/0050-0053.
 */

/** Serialises settlements: each one rewrites the season tables. */
const SETTLEMENT_LOCK = 727_275;

/** The fresh tables a settlement fills, swapped in at its commit (docs/decisions/0137). */
const NEXT_EVENT_SCORES = "event_scores_next";
const NEXT_STANDINGS = "season_standings_next";
const NEXT_PLACES = "league_places_next";
/** The competition's table built on another connection, committed, then renamed to NEXT_STANDINGS. */
const BUILT_STANDINGS = "season_standings_built";

/**
 * Puts the settlement's fresh tables in place of the old ones, inside its transaction: the
 * competition's table as its partition of season_standings (migration 0029), the event's scores
 * as the event's partition of event_scores (migration 0019). Constraint and index names end as
 * the migrations made them, so the next settlement (and the next migration) finds the same
 * names. Neither table carries triggers, grants or foreign keys (migrations 0003, 0005, 0016).
 */
async function swapInFreshTables(tx: DbOrTx, eventId: number, competitionId: number) {
  const id = Math.trunc(eventId);
  const partition = `event_scores_${id}`;
  const c = Math.trunc(competitionId);
  const table = `season_standings_${c}`;
  const places = `league_places_${c}`;
  for (const statement of [
    `drop table if exists ${places}`,
    `delete from league_places_default where competition_id = ${c}`,
    `alter table ${NEXT_PLACES} rename to ${places}`,
    `alter table ${places} rename constraint ${NEXT_PLACES}_pk to ${places}_pkey`,
    `alter table league_places attach partition ${places} for values in (${c})`,
    `drop table if exists ${table}`,
    // Rows stored before migration 0029 for this competition.
    `delete from season_standings_default where competition_id = ${c}`,
    `alter table ${NEXT_STANDINGS} rename to ${table}`,
    `alter table ${table} rename constraint ${NEXT_STANDINGS}_pk to ${table}_pkey`,
    `alter index ${NEXT_STANDINGS}_user_idx rename to ${table}_user_idx`,
    `alter table season_standings attach partition ${table} for values in (${c})`,
    `drop table if exists ${partition}`,
    // Rows stored before migration 0019 (or written around the settlement) for this event.
    `delete from event_scores_default where event_id = ${id}`,
    `alter table ${NEXT_EVENT_SCORES} rename to ${partition}`,
    `alter table ${partition} rename constraint ${NEXT_EVENT_SCORES}_pk to ${partition}_pkey`,
    `alter index ${NEXT_EVENT_SCORES}_position_idx rename to ${partition}_position_idx`,
    // The check constraints prove the bounds: no scan of the new rows to attach them.
    `alter table event_scores attach partition ${partition} for values in (${id})`,
  ]) {
    await tx.execute(sql.raw(statement));
  }
}

/**
 * Points for a result row `alias`, in SQL: the same table as `pointsForPosition` in @game/core
 * (the competition's own, from its rules).
 */
export function pointsSql(alias: string, table: PointsTable = POINTS) {
  const a = sql.raw(alias);
  const n = (v: number) => sql.raw(String(Math.trunc(v)));
  return sql`case
    when ${a}.status <> 'finished' or ${a}.position is null or ${a}.position < 1 then ${n(table.none)}
    when ${a}.position = 1 then ${n(table.first)}
    when ${a}.position = 2 then ${n(table.second)}
    when ${a}.position = 3 then ${n(table.third)}
    when ${a}.position <= 10 then ${n(table.topTen)}
    else ${n(table.finisher)} end`;
}

/**
 * A frozen team's points from `p.by_racer` in SQL: `size` array lookups written out (a team has
 * six racers), plus a sum over any racer beyond them, so a team of another size still adds up.
 */
function teamPointsSql(size: number, captain: boolean) {
  const slots = Array.from({ length: size }, (_, i) =>
    sql.raw(`coalesce(p.by_racer[f.racer_ids[${i + 1}]], 0)`),
  );
  // Core's `captainBonus`: the captain (one of the team, frozen as such) counts once more.
  const bonus = captain ? sql` + coalesce(p.by_racer[f.captain_racer_id], 0)` : sql``;
  return sql`${sql.join(slots, sql` + `)} + case when cardinality(f.racer_ids) > ${sql.raw(String(size))}
      then (select coalesce(sum(coalesce(p.by_racer[x], 0)), 0)
            from unnest(f.racer_ids[${sql.raw(String(size + 1))}:]) x)
      else 0 end${bonus}`;
}

export class SettlementError extends Error {
  constructor(
    readonly code: "not-found" | "no-results",
    message: string,
  ) {
    super(message);
  }
}

export interface SettlementSummary {
  eventId: number;
  /** True when the round's results are provisional (decision 0171). */
  provisional: boolean;
  /** True when this settlement froze the event's teams (it was not frozen yet). */
  frozeNow: boolean;
  results: number;
  /** Frozen teams scored in this event. */
  teams: number;
  /** Players in the competition's table. */
  rankedPlayers: number;
  leagues: number;
  ms: number;
  /**
   * The competition's table was built on a second connection while the round's scores were
   * (PostgreSQL; decision 0172), rather than after them.
   */
  builtElsewhere: boolean;
  /** Milliseconds per step: where the time goes at scale. */
  steps: Record<"results" | "eventScores" | "season" | "leagues" | "swap", number>;
}

/**
 * Settles an event: freezes what is due first, then in ONE transaction scores every frozen team
 * of the event and rewrites its competition's table and its competition's league ranking.
 */
export async function settleEvent(
  db: DbOrTx,
  eventId: number,
  opts: { now?: Date; audit?: AdminActor } = {},
): Promise<SettlementSummary> {
  const now = opts.now ?? new Date();
  await freezeDueEvents(db, now);
  const helper = settlementHelper(db);
  return db.transaction((tx) => settleInTransaction(tx, eventId, now, opts.audit, helper));
}

/**
 * The connection pool a settlement may build its competition table on, beside its own
 * transaction: PostgreSQL's, with room for a second connection. None on the embedded database
 * (one connection) or when `db` is already a transaction.
 */
export function settlementHelper(db: DbOrTx): Db | undefined {
  if (db instanceof PgTransaction) return undefined;
  const client = (db as { $client?: { options?: { max?: unknown } } }).$client;
  const max = client?.options?.max;
  return typeof max === "number" && max >= 2 ? (db as Db) : undefined;
}

/**
 * Takes the settlement's locks, reads the event and its rules, checks it has results, freezes its
 * teams when the lock has not come yet (the race ran) and marks it settled.
 */
async function claimEvent(tx: DbOrTx, eventId: number, now: Date) {
  await tx.execute(LONG_JOB);
  await tx.execute(sql`select pg_advisory_xact_lock(${SETTLEMENT_LOCK})`);
  // The joins and sorts below touch every team: give them memory instead of temp files.
  await tx.execute(sql`set local work_mem = '256MB'`);

  const [event] = await tx
    .select({
      id: events.id,
      frozenAt: events.frozenAt,
      settledAt: events.settledAt,
      provisional: events.provisional,
      competitionId: events.competitionId,
      rules: competitions.rules,
    })
    .from(events)
    .innerJoin(competitions, eq(competitions.id, events.competitionId))
    .where(eq(events.id, eventId))
    .for("update", { of: events });
  if (!event) throw new SettlementError("not-found", `There is no event ${eventId}.`);
  const rules = parseRules(event.rules);
  const [{ n: results } = { n: 0 }] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(raceResults)
    .where(eq(raceResults.eventId, eventId));
  if (results === 0) {
    throw new SettlementError(
      "no-results",
      `Event ${eventId} has no results yet: import them first.`,
    );
  }

  let frozeNow = false;
  if (!event.frozenAt) {
    // Results before the lock moment: the race ran, so the teams as they stand are final.
    frozeNow = (await freezeEvent(tx, eventId, now)) !== null;
  }
  await tx.update(events).set({ settledAt: now }).where(eq(events.id, eventId));

  return { event, rules, results, frozeNow };
}

/**
 * Step 1 of a settlement: each racer's contribution and how many frozen teams picked them (counted
 * at the freeze; a round frozen before those counts were kept is counted now, once).
 */
async function scoreRacers(tx: DbOrTx, eventId: number, now: Date, points: PointsTable) {
  const [uncounted] = rowsOf<{ n: number }>(
    await tx.execute(
      sql`select count(*)::int as n from racers where game_id = ${eventId} and picked_by is null`,
    ),
  );
  if ((uncounted?.n ?? 0) > 0) await countFrozenPicks(tx, eventId, now);
  await tx.execute(sql`
    update race_results rr set
      points = ${pointsSql("rr", points)},
      picked_by = coalesce(r.picked_by, 0)
    from racers r
    where rr.event_id = ${eventId} and r.id = rr.racer_id`);
}

/**
 * The round's points of every frozen team, as a subquery of `(user_id, points)`: the racers'
 * points as an array the team's ids index into (a lookup per racer), given as a literal so the
 * same statement runs on another connection (step 3 may run there, see `settleInTransaction`).
 * The bench rider's points replace the starter's they came on for (`subs`, core's `autoSub`);
 * extra transfers cost points.
 */
function roundScoresSql(
  eventId: number,
  rules: CompetitionRules,
  byRacer: readonly number[],
  subs: readonly AutoSubRow[],
): SQL {
  const list = (values: readonly number[]) => `{${values.join(",")}}`;
  const bench = rules.bench && subs.length > 0;
  const extra = sql`${
    bench
      ? sql` + coalesce(p.by_racer[a.in_racer_id], 0) - coalesce(p.by_racer[a.out_racer_id], 0)`
      : sql``
  }${rules.transfers ? sql` - f.transfer_cost` : sql``}`;
  return sql`
    select f.user_id, (${teamPointsSql(rules.teamSize, rules.captain)}${extra})::int as points,
      ${usernameKeyOf("f")} as username_key
    from frozen_teams f
    ${
      bench
        ? sql`left join unnest(${list(subs.map((r) => r[0]))}::int[],
            ${list(subs.map((r) => r[1]))}::int[], ${list(subs.map((r) => r[2]))}::int[])
            as a(user_id, in_racer_id, out_racer_id) on a.user_id = f.user_id`
        : sql``
    }
    cross join (select ${list(byRacer)}::int[] as by_racer) p
    where f.event_id = ${eventId}`;
}

/**
 * The username key of the row `alias` (what orders ties), from its own copy (decision 0172); a
 * row stored without one (written by hand, or by an older version) looks it up, row by row.
 */
function usernameKeyOf(alias: string): SQL {
  const a = sql.raw(alias);
  return sql`coalesce(${a}.username_key,
    (select u.username_key from users u where u.id = ${a}.user_id))`;
}

/** Each racer id's points in the round (index racer id - 1; 0 for racers without a result). */
async function pointsByRacer(tx: DbOrTx, eventId: number): Promise<number[]> {
  const [row] = rowsOf<{ by_racer: number[] | null }>(
    await tx.execute(sql`
      select array_agg(coalesce(r.points, 0) order by g) as by_racer
      from generate_series(
        1, (select coalesce(max(racer_id), 0) from race_results where event_id = ${eventId})
      ) g
      left join race_results r on r.event_id = ${eventId} and r.racer_id = g`),
  );
  return row?.by_racer ?? [];
}

/**
 * Step 2 of a settlement: every frozen team's score (`round`, from `roundScoresSql`), shared rank
 * (1, 1, 3) and unique place (ties by username), written in place order into a FRESH table:
 * indexed once at the end (a sorted build, not a million random inserts into the key) and swapped
 * in at commit as the event's partition of event_scores (step 5), so no settlement leaves dead
 * rows (docs/decisions/0137).
 * Answers the teams scored.
 */
async function scoreTeams(tx: DbOrTx, eventId: number, round: SQL): Promise<number> {
  await tx.execute(
    sql.raw(`create table ${NEXT_EVENT_SCORES} (like event_scores including defaults,
      check (event_id = ${Math.trunc(eventId)}))`),
  );
  const order = sql`order by s.points desc, s.username_key collate "C", s.user_id`;
  const scored = await tx.execute(sql`
    insert into ${sql.raw(NEXT_EVENT_SCORES)}
      (event_id, user_id, points, rank, position, username_key)
    select ${eventId}, s.user_id, s.points,
      rank() over (order by s.points desc),
      row_number() over (${order}),
      s.username_key
    from (${round}) s
    ${order}`);
  await tx.execute(
    sql.raw(
      `alter table ${NEXT_EVENT_SCORES} add constraint ${NEXT_EVENT_SCORES}_pk primary key (event_id, user_id)`,
    ),
  );
  await tx.execute(
    sql.raw(
      `create index ${NEXT_EVENT_SCORES}_position_idx on ${NEXT_EVENT_SCORES} (event_id, position)`,
    ),
  );
  // Fresh statistics for the statements below, which join these rows (without them the planner
  // guesses a handful of rows and picks nested loops over a million).
  await tx.execute(sql.raw(`analyze ${NEXT_EVENT_SCORES}`));
  return affected(scored);
}

/** A bench rider who came on: `[userId, inRacerId, outRacerId]`. */
type AutoSubRow = [number, number, number];

/**
 * Step 2a where the rules have a bench (docs/decisions/0169): which teams' bench riders come on,
 * and for whom. Core's `autoSub` decides, for the teams with
 * a bench rider and a starter who did not start (no result, or DNS): a few, read by an overlap
 * with the round's non-starters rather than every team. While the results are provisional a
 * racer without a result has not run yet: only a DNS brings the bench rider on (decision 0171).
 */
async function findAutoSubs(
  tx: DbOrTx,
  eventId: number,
  rules: CompetitionRules,
  provisional: boolean,
): Promise<AutoSubRow[]> {
  if (!rules.bench) return [];
  const entries = rowsOf<{ id: number; category: Category; started: boolean }>(
    await tx.execute(sql`
      select r.id, r.category,
        (${provisional ? sql`rr.racer_id is null or` : sql``}
          (rr.racer_id is not null and rr.status <> 'DNS')) as started
      from racers r left join race_results rr on rr.event_id = r.game_id and rr.racer_id = r.id
      where r.game_id = ${eventId}`),
  );
  const started = new Set(entries.filter((e) => e.started).map((e) => e.id));
  const category = new Map(entries.map((e) => [e.id, e.category]));
  const absent = entries.filter((e) => !e.started).map((e) => e.id);
  if (absent.length === 0) return [];
  const teams = rowsOf<{ user_id: number; racer_ids: number[]; bench_racer_id: number }>(
    await tx.execute(sql`
      select user_id, racer_ids, bench_racer_id from frozen_teams
      where event_id = ${eventId} and bench_racer_id is not null
        and racer_ids && ${`{${absent.join(",")}}`}::int[]`),
  );
  const sub = (id: number) => ({ id, category: category.get(id)! });
  const rows: AutoSubRow[] = [];
  for (const t of teams) {
    const out = autoSub(
      t.racer_ids.map(sub),
      sub(t.bench_racer_id),
      (id) => started.has(id),
      rules,
    );
    if (out !== null) rows.push([t.user_id, t.bench_racer_id, out]);
  }
  return rows;
}

/** What step 3 needs to know of the competition's settled rounds, read in the settlement. */
interface TablePlan {
  eventId: number;
  competitionId: number;
  /** The competition's settled rounds, this one included. */
  settledIds: number[];
  /** Its latest settled round by start time (usually this one). */
  latestId: number;
  /** This round was settled before (its table's "before" columns hold the table without it). */
  again: boolean;
}

async function tablePlan(
  tx: DbOrTx,
  event: { id: number; competitionId: number; settledAt: Date | null },
): Promise<TablePlan> {
  const settled = await tx
    .select({ id: events.id })
    .from(events)
    .where(and(isNotNull(events.settledAt), eq(events.competitionId, event.competitionId)))
    .orderBy(desc(events.startsAt), desc(events.id));
  return {
    eventId: event.id,
    competitionId: event.competitionId,
    settledIds: settled.map((e) => e.id),
    latestId: settled[0]?.id ?? event.id,
    again: event.settledAt !== null,
  };
}

/**
 * Step 3 of a settlement: the competition's table: totals over its settled rounds; the previous
 * ranking is the same table without its latest settled round (by start time), so arrows show the
 * move that round caused. Written fresh, in place order, into the table `name` (with its key and
 * index named after it), swapped in at commit as the competition's partition of
 * season_standings: the only place a player's season figures are stored (docs/decisions/0159).
 * Other competitions' tables stay as they are (a finished one keeps its final table).
 * `round` is this round's scores, `(user_id, points)`: step 2's fresh table, or the same scores
 * computed again on another connection (`roundScoresSql`), which reads only committed rows.
 * With one settled round there is no "before" and no sum to make: the round's table is the
 * competition's (a copy of step 2's table when it is at hand).
 */
async function buildCompetitionTable(
  conn: DbOrTx,
  name: string,
  plan: TablePlan,
  round: { scores: SQL; ranked: boolean },
): Promise<void> {
  const { eventId, competitionId } = plan;
  const table = sql.raw(name);
  await conn.execute(
    sql.raw(`create table ${name} (like season_standings including defaults,
      check (competition_id = ${Math.trunc(competitionId)}))`),
  );
  const ids = `{${plan.settledIds.join(",")}}`;
  // Every path's totals carry each player's username key (decision 0172): no join to users.
  const order = sql`order by t.points desc, t.username_key collate "C", t.user_id`;
  const ranked = (totals: SQL, previous: SQL) => sql`
    insert into ${table}
      (competition_id, position, user_id, points, rank, previous_rank, previous_points,
        username_key)
    with ${totals}
    select ${competitionId}::int,
      row_number() over (${order})::int,
      t.user_id, t.points,
      rank() over (order by t.points desc)::int,
      ${previous},
      t.username_key
    from totals t
    ${order}`;
  if (plan.settledIds.length <= 1 && round.ranked) {
    // Step 2's table, in place order: a copy, with no join or sort to repeat.
    await conn.execute(sql`
      insert into ${table}
        (competition_id, position, user_id, points, rank, previous_rank, previous_points,
          username_key)
      select ${competitionId}::int, position, user_id, points, rank, null, 0, username_key
      from ${sql.raw(NEXT_EVENT_SCORES)}
      order by position`);
  } else if (plan.settledIds.length <= 1) {
    await conn.execute(
      ranked(
        sql`totals as (select n.user_id, n.points, n.username_key from (${round.scores}) n)`,
        sql`null::int, 0`,
      ),
    );
  } else if (plan.latestId === eventId) {
    // This round is the latest: the table before it is stored already (the current table when
    // this round is settled for the first time; the current table's "before" columns when it
    // is settled again), so the new table is that plus this round's scores, and its ranks are
    // the previous ranks. No earlier round's scores are read again.
    const again = plan.again;
    await conn.execute(
      ranked(
        sql`before as (
          select user_id,
            ${again ? sql`previous_points` : sql`points`} as points,
            ${again ? sql`previous_rank` : sql`rank`} as rank,
            ${usernameKeyOf("season_standings")} as username_key
          from season_standings
          where competition_id = ${competitionId}
            ${again ? sql`and previous_rank is not null` : sql``}
        ), totals as (
          select coalesce(b.user_id, n.user_id) as user_id,
            (coalesce(b.points, 0) + coalesce(n.points, 0))::int as points,
            coalesce(b.points, 0)::int as previous,
            b.rank as previous_rank,
            coalesce(n.username_key, b.username_key) as username_key
          from before b full join (${round.scores}) n on n.user_id = b.user_id
        )`,
        sql`t.previous_rank, t.previous`,
      ),
    );
  } else {
    // A correction to an earlier round: every round's scores added up again.
    await conn.execute(
      ranked(
        sql`scores as (
          -- The competition's other settled rounds' stored scores and this round's new ones.
          select es.event_id, es.user_id, es.points, ${usernameKeyOf("es")} as username_key
          from event_scores es
          where es.event_id = any(${ids}::int[]) and es.event_id <> ${eventId}
          union all
          select ${eventId}::int, n.user_id, n.points, n.username_key from (${round.scores}) n
        ), totals as (
          select es.user_id,
            max(es.username_key) as username_key,
            sum(es.points)::int as points,
            coalesce(sum(es.points) filter (where es.event_id <> ${plan.latestId}), 0)::int as previous,
            bool_or(es.event_id <> ${plan.latestId}) as had_previous
          from scores es
          group by es.user_id
        )`,
        sql`case when t.had_previous
          then rank() over (partition by t.had_previous order by t.previous desc)::int end,
          t.previous`,
      ),
    );
  }
  await conn.execute(
    sql.raw(`alter table ${name} add constraint ${name}_pk primary key (competition_id, position)`),
  );
  await conn.execute(sql.raw(`create index ${name}_user_idx on ${name} (competition_id, user_id)`));
  await conn.execute(sql.raw(`analyze ${name}`));
}

/**
 * Step 3 on another connection (PostgreSQL), at the same time as step 2 on the settlement's own:
 * both sort a million rows, one core each (docs/decisions/0172). It reads only committed rows
 * (the frozen teams, the table before, earlier rounds' scores), with this round's points given
 * as literals, and commits its table under a name of its own; the settlement renames it into
 * place. A build left by a settlement that failed later is dropped by the next one.
 *
 * The connection is taken first, before the settlement locks anything: requests waiting on the
 * settlement's locks could otherwise hold every pooled connection while it waits for one. The
 * build starts when `go` gives it the work (or ends, building nothing, on `go(null)`).
 */
function tableBuilder(helper: Db) {
  let go!: (work: { plan: TablePlan; scores: SQL } | null) => void;
  const work = new Promise<{ plan: TablePlan; scores: SQL } | null>((resolve) => {
    go = resolve;
  });
  const built = helper.transaction(async (h) => {
    const job = await work;
    if (!job) return false;
    await h.execute(LONG_JOB);
    await h.execute(sql`set local work_mem = '256MB'`);
    await h.execute(sql.raw(`drop table if exists ${BUILT_STANDINGS}`));
    await buildCompetitionTable(h, BUILT_STANDINGS, job.plan, {
      scores: job.scores,
      ranked: false,
    });
    return true;
  });
  // Awaited by the settlement; a failure meanwhile must not go unhandled.
  built.catch(() => {});
  return { go, built };
}

/** The table `buildTableElsewhere` committed, renamed to what steps 4 and 5 read. */
async function adoptBuiltTable(tx: DbOrTx): Promise<void> {
  for (const statement of [
    `alter table ${BUILT_STANDINGS} rename to ${NEXT_STANDINGS}`,
    `alter table ${NEXT_STANDINGS} rename constraint ${BUILT_STANDINGS}_pk to ${NEXT_STANDINGS}_pk`,
    `alter index ${BUILT_STANDINGS}_user_idx rename to ${NEXT_STANDINGS}_user_idx`,
  ]) {
    await tx.execute(sql.raw(statement));
  }
}

/**
 * The leagues' figures from the competition's table `standings`, as a query for the settlement's
 * scratch table (100,000 rows at most in the benchmarks): the update of every league reads them,
 * and so do the league places.
 */
function leagueTotalsSql(competitionId: number, settledEvents: number, standings: string): SQL {
  const averages = sql`
    select l.id, count(m.user_id)::int as members,
      coalesce(round(avg(case when m.user_id is not null then coalesce(s.points, 0) end), 2), 0)::float8 as total,
      coalesce(round(avg(case when m.user_id is not null then coalesce(s.previous_points, 0) end), 2), 0)::float8 as previous
    from leagues l
    left join league_members m on m.league_id = l.id and m.status = 'accepted'
    left join ${sql.raw(standings)} s on s.user_id = m.user_id
    where l.competition_id = ${competitionId}
    group by l.id`;
  const listed = sql`members >= ${LEAGUE_RANKING_MIN_MEMBERS}`;
  const place = (order: SQL) =>
    sql`case when ${listed} then row_number() over (partition by ${listed} order by ${order})::int end`;
  const previousPlace = settledEvents > 1 ? place(sql`previous desc, id`) : sql`null::int`;
  return sql`
    select id, total,
      ${place(sql`total desc, id`)} as ranking,
      ${previousPlace} as previous_ranking
    from (${averages}) agg`;
}

/**
 * Step 4 of a settlement: a league's total is the average of its members' points in its competition
 * (a member without a scored round counts 0; a league without members averages 0). Only leagues of
 * LEAGUE_RANKING_MIN_MEMBERS get a place; the others' places are cleared. Only this competition's
 * leagues: another competition's keep their tables (docs/decisions/0158).
 * Answers the leagues whose figures changed.
 */
async function rankLeagues(
  tx: DbOrTx,
  competitionId: number,
  settledEvents: number,
): Promise<number> {
  await tx.execute(sql`
    create temp table league_totals_next on commit drop as
    ${leagueTotalsSql(competitionId, settledEvents, NEXT_STANDINGS)}`);
  // Unindexed columns (migration 0032): a heap-only update of each league.
  const leagues = await tx.execute(sql`
    update leagues l set
      total_points = r.total, ranking = r.ranking, previous_ranking = r.previous_ranking
    from league_totals_next r
    where l.id = r.id
      and (l.total_points, l.ranking, l.previous_ranking)
        is distinct from (r.total, r.ranking, r.previous_ranking)`);
  // The places, in place order, into a fresh table swapped in at commit (as the standings).
  await tx.execute(
    sql.raw(`create table ${NEXT_PLACES} (like league_places including defaults,
      check (competition_id = ${Math.trunc(competitionId)}))`),
  );
  await tx.execute(sql`
    insert into ${sql.raw(NEXT_PLACES)} (competition_id, place, league_id)
    select ${competitionId}::int, ranking, id from league_totals_next
    where ranking is not null order by ranking`);
  await tx.execute(
    sql.raw(
      `alter table ${NEXT_PLACES} add constraint ${NEXT_PLACES}_pk primary key (competition_id, place)`,
    ),
  );
  // The ranking pages count the leagues not placed yet: keep the planner's picture of the
  // ranking column current (it goes from all-null to none-null here).
  await tx.execute(sql`analyze leagues`);
  return affected(leagues);
}

/**
 * The settlement itself, inside the caller's transaction (results import writes then settles):
 * the event claimed, then five steps, each timed.
 */
export async function settleInTransaction(
  tx: DbOrTx,
  eventId: number,
  now: Date,
  audit?: AdminActor,
  /**
   * A second connection (PostgreSQL's pool, `settlementHelper`): step 3 is built there while
   * step 2 runs here. Without one (the embedded database, or inside a caller's transaction
   * that is not a settlement's), the steps run one after the other.
   */
  helper?: Db,
): Promise<SettlementSummary> {
  const started = performance.now();
  const builder = helper ? tableBuilder(helper) : undefined;
  try {
    return await settleSteps(tx, eventId, now, started, audit, builder);
  } finally {
    // Whatever happened, the other connection's work ends with this settlement.
    builder?.go(null);
    await builder?.built.catch(() => {});
  }
}

async function settleSteps(
  tx: DbOrTx,
  eventId: number,
  now: Date,
  started: number,
  audit: AdminActor | undefined,
  builder: ReturnType<typeof tableBuilder> | undefined,
): Promise<SettlementSummary> {
  const { event, rules, results, frozeNow } = await claimEvent(tx, eventId, now);
  const competitionId = event.competitionId;

  const steps = {} as SettlementSummary["steps"];
  let mark = performance.now();
  const lap = (step: keyof SettlementSummary["steps"]) => {
    const at = performance.now();
    steps[step] = Math.round(at - mark);
    mark = at;
  };

  // 1. Each racer's points and picks.
  await scoreRacers(tx, eventId, now, rules.points);
  lap("results");
  // The round's points (and the bench riders who came on), as the literals steps 2 and 3 use.
  const round = roundScoresSql(
    eventId,
    rules,
    await pointsByRacer(tx, eventId),
    await findAutoSubs(tx, eventId, rules, event.provisional),
  );
  const plan = await tablePlan(tx, event);
  // 3, started first when another connection builds it: it reads only committed rows, so not
  // when this settlement froze the teams (they are not committed yet).
  const elsewhere = builder && !frozeNow ? builder : undefined;
  elsewhere?.go({ plan, scores: round });
  // 2. Every frozen team's score, rank and place, into a fresh table.
  const teams = await scoreTeams(tx, eventId, round);
  lap("eventScores");
  // 3. The competition's table, fresh.
  const builtElsewhere = elsewhere !== undefined && (await elsewhere.built);
  if (builtElsewhere) {
    await adoptBuiltTable(tx);
  } else {
    await buildCompetitionTable(tx, NEXT_STANDINGS, plan, { scores: round, ranked: true });
  }
  lap("season");
  // 4. The leagues' totals, rankings and places.
  const leagues = await rankLeagues(tx, competitionId, plan.settledIds.length);
  lap("leagues");
  // 5. The swap, last, so the exclusive locks it takes on the two tables last only until the
  //    commit: readers see the old tables until then and the new ones after, never a mix.
  await swapInFreshTables(tx, eventId, competitionId);
  lap("swap");

  const [counts] = rowsOf<{ ranked: number | null; leagues: number }>(
    await tx.execute(sql`
      select (select max(position) from season_standings
               where competition_id = ${competitionId})::int as ranked,
             (select count(*) from leagues)::int as leagues`),
  );
  const summary: SettlementSummary = {
    eventId,
    provisional: event.provisional,
    frozeNow,
    results,
    teams,
    rankedPlayers: counts?.ranked ?? 0,
    leagues: counts?.leagues ?? leagues,
    ms: Math.round(performance.now() - started),
    builtElsewhere,
    steps,
  };
  if (audit) {
    await recordAudit(tx, audit, "scores.settle", `event:${eventId}`, { ...summary });
  }
  return summary;
}

/** Rows changed by a raw statement: postgres-js reports `count`, PGlite `affectedRows`. */
function affected(result: unknown): number {
  const r = result as { count?: number; affectedRows?: number };
  return Number(r.count ?? r.affectedRows ?? 0);
}
