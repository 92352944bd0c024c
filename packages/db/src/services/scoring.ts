import { LEAGUE_RANKING_MIN_MEMBERS, lockTime, POINTS, type PointsTable } from "@game/core";
import { and, eq, isNotNull, isNull, type SQL, sql } from "drizzle-orm";
import { type DbOrTx, rowsOf } from "../client.js";
import { auditLog, competitions, events, raceResults } from "../schema/index.js";
import type { AuditAction } from "./audit.js";
import { SEASON_COMPETITION_SQL } from "./competitions.js";
import { parseRules } from "./events.js";

/*
 * Freezing and settlement. Teams are copied into frozen_team_racers at the lock moment; scoring
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

/**
 * Puts the settlement's fresh tables in place of the old ones, inside its transaction: the
 * season table by drop and rename, the event's scores as the event's partition of event_scores
 * (migration 0019). Constraint and index names end as the migrations made them, so the next
 * settlement (and the next migration) finds the same names. Both tables carry no triggers,
 * grants or foreign keys (migrations 0003, 0005, 0016).
 */
async function swapInFreshTables(tx: DbOrTx, eventId: number): Promise<void> {
  const id = Math.trunc(eventId);
  const partition = `event_scores_${id}`;
  for (const statement of [
    "drop table season_standings",
    `alter table ${NEXT_STANDINGS} rename to season_standings`,
    `alter table season_standings rename constraint ${NEXT_STANDINGS}_pkey to season_standings_pkey`,
    `drop table if exists ${partition}`,
    // Rows stored before migration 0019 (or written around the settlement) for this event.
    `delete from event_scores_default where event_id = ${id}`,
    `alter table ${NEXT_EVENT_SCORES} rename to ${partition}`,
    `alter table ${partition} rename constraint ${NEXT_EVENT_SCORES}_pk to ${partition}_pkey`,
    `alter index ${NEXT_EVENT_SCORES}_position_idx rename to ${partition}_position_idx`,
    // The check constraint proves the bound: no scan of the new rows to attach them.
    `alter table event_scores attach partition ${partition} for values in (${id})`,
  ]) {
    await tx.execute(sql.raw(statement));
  }
}

export interface AuditActor {
  /** "web:alice@example.com", "cli". */
  actor: string;
  actorId?: number | null;
}

export interface FrozenEvent {
  eventId: number;
  /** Teams copied. */
  teams: number;
}

/**
 * Freezes, settlements and season advances copy and add up every team (a million in the
 * benchmarks, single statements of 10-40 s) and may wait for another settlement: they get a longer
 * statement timeout than requests' 30 s (docs/decisions/0071), for their transaction only.
 */
export const LONG_JOB = sql`set local statement_timeout = '10min'`;

/**
 * Freezes one event's teams now, whatever the clock says (results are in, so the race ran).
 * Idempotent: an event is frozen once; the claim on `frozen_at` waits for team saves in
 * flight (they hold a share lock on the event row) and every later save sees it and is refused.
 */
export async function freezeEvent(
  db: DbOrTx,
  eventId: number,
  now: Date,
): Promise<FrozenEvent | null> {
  return db.transaction(async (tx) => {
    await tx.execute(LONG_JOB);
    const [claimed] = await tx
      .update(events)
      .set({ frozenAt: now })
      .where(and(eq(events.id, eventId), isNull(events.frozenAt)))
      .returning({ id: events.id, competitionId: events.competitionId });
    if (!claimed) return null;
    // Leftovers of an earlier freeze (an event re-opened by an admin) make way for this one;
    // after that a plain insert (ON CONFLICT would double the cost of the copy).
    await tx.execute(sql`delete from frozen_team_racers where event_id = ${eventId}`);
    await tx.execute(sql`delete from frozen_teams where event_id = ${eventId}`);
    // Every team of the competition as it stands in this round: its racers' entries here. A
    // team with a racer who has no entry here does not play until the player fixes it
    // (docs/decisions/0157): it met the rules when saved, and only who starts changes between
    // rounds (the rules are fixed from the first lock, prices paid and budgets stay).
    await tx.execute(sql`
      with src as (
        select t.user_id, r.id as racer_id
        from teams t join team_racers tr on tr.team_id = t.id
        left join racers r on r.game_id = ${eventId} and r.person_id = tr.person_id
        where t.competition_id = ${claimed.competitionId}
      ), plays as (
        select user_id from src group by user_id having count(racer_id) = count(*)
      )
      insert into frozen_team_racers (event_id, user_id, racer_id)
      select ${eventId}::int, s.user_id, s.racer_id from src s join plays p on p.user_id = s.user_id`);
    // The same teams, one row each (what the settlement adds up); same transaction, same rows.
    await tx.execute(sql`
      insert into frozen_teams (event_id, user_id, racer_ids)
      select event_id, user_id, array_agg(racer_id order by racer_id)
      from frozen_team_racers where event_id = ${eventId}
      group by event_id, user_id`);
    const [copied] = rowsOf<{ teams: number }>(
      await tx.execute(
        sql`select count(*)::int as teams from frozen_teams where event_id = ${eventId}`,
      ),
    );
    return { eventId, teams: copied?.teams ?? 0 };
  });
}

/**
 * Freezes every event whose lock moment (its competition's lock hours before the start) has
 * come. Run every minute.
 */
export async function freezeDueEvents(db: DbOrTx, now: Date): Promise<FrozenEvent[]> {
  const due = await db
    .select({ id: events.id, startsAt: events.startsAt, rules: competitions.rules })
    .from(events)
    .innerJoin(competitions, eq(competitions.id, events.competitionId))
    .where(isNull(events.frozenAt));
  const frozen: FrozenEvent[] = [];
  for (const e of due) {
    if (lockTime(e, parseRules(e.rules).lockHours) > now) continue;
    const done = await freezeEvent(db, e.id, now);
    if (done) frozen.push(done);
  }
  return frozen;
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
function teamPointsSql(size: number) {
  const slots = Array.from({ length: size }, (_, i) =>
    sql.raw(`coalesce(p.by_racer[f.racer_ids[${i + 1}]], 0)`),
  );
  return sql`${sql.join(slots, sql` + `)} + case when cardinality(f.racer_ids) > ${sql.raw(String(size))}
      then (select coalesce(sum(coalesce(p.by_racer[x], 0)), 0)
            from unnest(f.racer_ids[${sql.raw(String(size + 1))}:]) x)
      else 0 end`;
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
  /** True when this settlement froze the event's teams (it was not frozen yet). */
  frozeNow: boolean;
  results: number;
  /** Frozen teams scored in this event. */
  teams: number;
  /** Players in the season ranking. */
  rankedPlayers: number;
  leagues: number;
  ms: number;
  /** Milliseconds per step: where the time goes at scale. */
  steps: Record<"results" | "eventScores" | "season" | "members" | "leagues" | "swap", number>;
}

/**
 * Settles an event: freezes what is due first, then in ONE transaction scores every frozen team
 * of the event and rewrites the season ranking, league member scores and the league ranking.
 */
export async function settleEvent(
  db: DbOrTx,
  eventId: number,
  opts: { now?: Date; audit?: AuditActor } = {},
): Promise<SettlementSummary> {
  const now = opts.now ?? new Date();
  await freezeDueEvents(db, now);
  return db.transaction((tx) => settleInTransaction(tx, eventId, now, opts.audit));
}

/** The settlement itself, inside the caller's transaction (results import writes then settles). */
export async function settleInTransaction(
  tx: DbOrTx,
  eventId: number,
  now: Date,
  audit?: AuditActor,
): Promise<SettlementSummary> {
  const started = performance.now();
  await tx.execute(LONG_JOB);
  await tx.execute(sql`select pg_advisory_xact_lock(${SETTLEMENT_LOCK})`);
  // The joins and sorts below touch every team: give them memory instead of temp files.
  await tx.execute(sql`set local work_mem = '256MB'`);

  const [event] = await tx
    .select({ id: events.id, frozenAt: events.frozenAt, rules: competitions.rules })
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

  const steps = {} as SettlementSummary["steps"];
  let mark = performance.now();
  const lap = (step: keyof SettlementSummary["steps"]) => {
    const at = performance.now();
    steps[step] = Math.round(at - mark);
    mark = at;
  };

  // 1. Each racer's contribution and how many frozen teams picked them.
  await tx.execute(sql`
    update race_results rr set
      points = ${pointsSql("rr", rules.points)},
      picked_by = coalesce(p.n, 0)
    from race_results r
    left join (
      select racer_id, count(*)::int as n from frozen_team_racers
      where event_id = ${eventId} group by racer_id
    ) p on p.racer_id = r.racer_id
    where rr.event_id = ${eventId} and r.event_id = rr.event_id and r.racer_id = rr.racer_id`);

  lap("results");

  // 2. Every frozen team's score, shared rank (1, 1, 3) and unique place (ties by username),
  //    written in place order into a FRESH table: indexed once at the end (a sorted build, not
  //    a million random inserts into the key) and swapped in at commit as the event's partition
  //    of event_scores (step 5), so no settlement leaves dead rows (docs/decisions/0137).
  await tx.execute(
    sql.raw(`create table ${NEXT_EVENT_SCORES} (like event_scores including defaults,
      check (event_id = ${Math.trunc(eventId)}))`),
  );
  const scored = await tx.execute(sql`
    insert into ${sql.raw(NEXT_EVENT_SCORES)} (event_id, user_id, points, rank, position)
    select ${eventId}, s.user_id, s.points,
      rank() over (order by s.points desc),
      row_number() over (order by s.points desc, u.username_key collate "C", u.id)
    from (
      select f.user_id, (${teamPointsSql(rules.teamSize)})::int as points
      from frozen_teams f cross join (
        -- Points by racer id, as an array the team's ids index into (a lookup per racer).
        select array_agg(coalesce(r.points, 0) order by g) as by_racer
        from generate_series(
          1, (select coalesce(max(racer_id), 0) from race_results where event_id = ${eventId})
        ) g
        left join race_results r on r.event_id = ${eventId} and r.racer_id = g
      ) p
      where f.event_id = ${eventId}
    ) s
    join users u on u.id = s.user_id
    order by s.points desc, u.username_key collate "C", u.id`);
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

  lap("eventScores");

  // 3. The season: totals over the settled events of one competition, the latest settled
  //    event's (by start time: a correction to last year's round leaves this year's table this
  //    year's, docs/decisions/0156); the previous ranking is the same table without that latest
  //    event, so arrows show the move that event caused.
  //    Stored twice: season_standings (keyed by place, what pages read; written fresh and
  //    swapped in at commit like the event's scores) and the players' own columns (unindexed,
  //    so this update stays heap-only). With one settled event there is no "before" and no sum
  //    to make: the event's table is the season's.
  const seasonCompetition = SEASON_COMPETITION_SQL;
  const [{ n: settledEvents } = { n: 1 }] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(events)
    .where(and(isNotNull(events.settledAt), sql`${events.competitionId} = ${seasonCompetition}`));
  const [{ inSeason } = { inSeason: true }] = rowsOf<{ inSeason: boolean }>(
    await tx.execute(
      sql`select (select competition_id from events where id = ${eventId}) = ${seasonCompetition} as "inSeason"`,
    ),
  );
  await tx.execute(
    sql.raw(`create table ${NEXT_STANDINGS} (like season_standings including defaults)`),
  );
  if (settledEvents > 1 || !inSeason) {
    await tx.execute(sql`
      insert into ${sql.raw(NEXT_STANDINGS)} (position, user_id, points, rank, previous_rank, previous_points)
      with latest as (
        select id, competition_id from events where settled_at is not null
        order by starts_at desc, id desc limit 1
      ), scores as (
        -- The competition's other settled events' stored scores and this event's new ones.
        select es.event_id, es.user_id, es.points
        from event_scores es join events e on e.id = es.event_id and e.settled_at is not null
          and e.competition_id = (select competition_id from latest)
        where es.event_id <> ${eventId}
        union all
        select n.event_id, n.user_id, n.points from ${sql.raw(NEXT_EVENT_SCORES)} n
        where (select competition_id from events where id = ${eventId})
          = (select competition_id from latest)
      ), totals as (
        select es.user_id,
          sum(es.points)::int as points,
          coalesce(sum(es.points) filter (where es.event_id <> (select id from latest)), 0)::int as previous,
          bool_or(es.event_id <> (select id from latest)) as had_previous
        from scores es
        group by es.user_id
      )
      select
        row_number() over (order by t.points desc, u.username_key collate "C", u.id)::int,
        t.user_id, t.points,
        rank() over (order by t.points desc)::int,
        case when t.had_previous
          then rank() over (partition by t.had_previous order by t.previous desc)::int end,
        t.previous
      from totals t join users u on u.id = t.user_id
      order by t.points desc, u.username_key collate "C", u.id`);
  } else {
    // The season's one settled event is this one. Same players, same order, same ranks: a
    // copy, with no join or sort to repeat.
    await tx.execute(sql`
      insert into ${sql.raw(NEXT_STANDINGS)} (position, user_id, points, rank, previous_rank, previous_points)
      select position, user_id, points, rank, null, 0
      from ${sql.raw(NEXT_EVENT_SCORES)}
      order by position`);
  }
  await tx.execute(
    sql.raw(
      `alter table ${NEXT_STANDINGS} add constraint ${NEXT_STANDINGS}_pkey primary key (position)`,
    ),
  );
  await tx.execute(sql.raw(`analyze ${NEXT_STANDINGS}`));
  await tx.execute(sql`
    update users u set
      points = s.points, ranking = s.rank,
      previous_ranking = s.previous_rank, ranking_position = s.position
    from ${sql.raw(NEXT_STANDINGS)} s
    where u.id = s.user_id
      and (u.points, u.ranking, u.previous_ranking, u.ranking_position)
        is distinct from (s.points, s.rank, s.previous_rank, s.position)`);
  // Players of an earlier competition who have not played this one leave the table. Only the
  // season competition's first settled round can follow another competition's table (within
  // one competition players only join); the old table less the new one is a hash set-operation
  // whatever the statistics say (an anti-join on users' stale estimate ran for hours).
  if (settledEvents <= 1) {
    await tx.execute(sql`
      update users u set points = 0, ranking = null, previous_ranking = null, ranking_position = null
      from (
        select user_id from season_standings
        except
        select user_id from ${sql.raw(NEXT_STANDINGS)}
      ) gone
      where u.id = gone.user_id`);
  }
  lap("season");

  // 4. A member's score is their season total; a league's is the average of its members'
  //    (a member without a scored event counts 0; a league without members averages 0).
  //    Only leagues of LEAGUE_RANKING_MIN_MEMBERS get a place; the others' places are cleared.
  //    Only the season competition's leagues: another competition's keep their final table
  //    (docs/decisions/0158).
  await tx.execute(sql`
    update league_members m set score = u.points
    from users u, leagues l
    where u.id = m.user_id and l.id = m.league_id and l.competition_id = ${seasonCompetition}
      and m.score <> u.points`);
  lap("members");
  const averages =
    settledEvents > 1
      ? sql`
        select l.id, count(m.user_id)::int as members,
          coalesce(round(avg(m.score), 2), 0)::float8 as total,
          coalesce(round(avg(case when m.user_id is not null then coalesce(s.previous_points, 0) end), 2), 0)::float8 as previous
        from leagues l
        left join league_members m on m.league_id = l.id and m.status = 'accepted'
        left join ${sql.raw(NEXT_STANDINGS)} s on s.user_id = m.user_id
        where l.competition_id = ${seasonCompetition}
        group by l.id`
      : sql`
        select l.id, count(m.user_id)::int as members,
          coalesce(round(avg(m.score), 2), 0)::float8 as total, 0::float8 as previous
        from leagues l
        left join league_members m on m.league_id = l.id and m.status = 'accepted'
        where l.competition_id = ${seasonCompetition}
        group by l.id`;
  const listed = sql`members >= ${LEAGUE_RANKING_MIN_MEMBERS}`;
  const place = (order: SQL) =>
    sql`case when ${listed} then row_number() over (partition by ${listed} order by ${order})::int end`;
  const previousPlace = settledEvents > 1 ? place(sql`previous desc, id`) : sql`null::int`;
  const leagues = await tx.execute(sql`
    with ranked as (
      select id, total,
        ${place(sql`total desc, id`)} as ranking,
        ${previousPlace} as previous_ranking
      from (${averages}) agg
    )
    update leagues l set
      total_points = r.total, ranking = r.ranking, previous_ranking = r.previous_ranking
    from ranked r
    where l.id = r.id
      and (l.total_points, l.ranking, l.previous_ranking)
        is distinct from (r.total, r.ranking, r.previous_ranking)`);
  // The ranking pages count the leagues not ranked yet with an index: keep the planner's
  // picture of the ranking column current (it goes from all-null to none-null here).
  await tx.execute(sql`analyze leagues`);
  lap("leagues");

  // 5. The swap, last, so the exclusive locks it takes on the two tables last only until the
  //    commit: readers see the old tables until then and the new ones after, never a mix.
  await swapInFreshTables(tx, eventId);
  lap("swap");

  const [counts] = rowsOf<{ ranked: number | null; leagues: number }>(
    await tx.execute(sql`
      select (select max(position) from season_standings)::int as ranked,
             (select count(*) from leagues)::int as leagues`),
  );
  const summary: SettlementSummary = {
    eventId,
    frozeNow,
    results,
    teams: affected(scored),
    rankedPlayers: counts?.ranked ?? 0,
    leagues: counts?.leagues ?? affected(leagues),
    ms: Math.round(performance.now() - started),
    steps,
  };
  if (audit) {
    await tx.insert(auditLog).values({
      actor: audit.actor,
      actorId: audit.actorId ?? null,
      action: "scores.settle" satisfies AuditAction,
      target: `event:${eventId}`,
      detail: { ...summary },
    });
  }
  return summary;
}

/** Rows changed by a raw statement: postgres-js reports `count`, PGlite `affectedRows`. */
function affected(result: unknown): number {
  const r = result as { count?: number; affectedRows?: number };
  return Number(r.count ?? r.affectedRows ?? 0);
}
