/*
 * Freezing: at each round's lock moment every team of its competition is copied into
 * frozen_team_racers and frozen_teams (what the settlement reads, scoring.ts), with each team's
 * captain, bench rider, transfer account and its player's username key. Rules:
 * docs/decisions/0050-0053, 0157, 0168-0170, 0172.
 */
import { type CompetitionRules, lockTime } from "@game/core";
import { and, eq, isNull, sql } from "drizzle-orm";
import { type DbOrTx, rowsOf } from "../client.js";
import { competitions, events } from "../schema/index.js";
import { parseRules } from "./events.js";
import { countFrozenPicks } from "./picks.js";

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
    const [competition] = await tx
      .select({ rules: competitions.rules })
      .from(competitions)
      .where(eq(competitions.id, claimed.competitionId));
    // Leftovers of an earlier freeze (an event re-opened by an admin) make way for this one;
    // after that a plain insert (ON CONFLICT would double the cost of the copy).
    await tx.execute(sql`delete from frozen_team_racers where event_id = ${eventId}`);
    await tx.execute(sql`delete from frozen_teams where event_id = ${eventId}`);
    // Every team of the competition as it stands in this round: its racers' entries here. A
    // team with a racer who has no entry here does not play until the player fixes it
    // (docs/decisions/0157): it met the rules when saved, and only who starts changes between
    // rounds (the rules are fixed from the first lock, prices paid and budgets stay). Core's
    // `teamInRound(...).plays` in SQL; round-entries.property.test.ts holds them equal.
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
    // Where the rules have captains or a bench, with each team's captain and bench rider in this
    // round: the bench rider (the slot after the starters) is kept apart from the starters.
    const rules = parseRules(competition!.rules);
    const size = sql.raw(String(Math.trunc(rules.teamSize)));
    const starter = rules.bench ? sql`tr.slot < ${size}` : sql`true`;
    const teams =
      rules.captain || rules.bench
        ? sql`
      select f.event_id, f.user_id,
        array_agg(f.racer_id order by f.racer_id) filter (where ${starter}) as racer_ids,
        ${rules.captain ? sql`max(f.racer_id) filter (where tr.person_id = t.captain_person_id and ${starter})` : sql`null::int`} as captain_racer_id,
        ${rules.bench ? sql`max(f.racer_id) filter (where not (${starter}))` : sql`null::int`} as bench_racer_id
      from frozen_team_racers f
      join racers r on r.id = f.racer_id
      join teams t on t.user_id = f.user_id and t.competition_id = ${claimed.competitionId}
      join team_racers tr on tr.team_id = t.id and tr.person_id = r.person_id
      where f.event_id = ${eventId}
      group by f.event_id, f.user_id`
        : sql`
      select event_id, user_id, array_agg(racer_id order by racer_id) as racer_ids,
        null::int as captain_racer_id, null::int as bench_racer_id
      from frozen_team_racers where event_id = ${eventId}
      group by event_id, user_id`;
    // With each player's username key, which orders ties at the settlement (decision 0172).
    await tx.execute(sql`
      insert into frozen_teams
        (event_id, user_id, racer_ids, captain_racer_id, bench_racer_id, username_key)
      select g.event_id, g.user_id, g.racer_ids, g.captain_racer_id, g.bench_racer_id,
        u.username_key
      from (${teams}) g join users u on u.id = g.user_id`);
    if (rules.transfers) await countTransfers(tx, eventId, claimed.competitionId, rules);
    await countFrozenPicks(tx, eventId, now);
    const [copied] = rowsOf<{ teams: number }>(
      await tx.execute(
        sql`select count(*)::int as teams from frozen_teams where event_id = ${eventId}`,
      ),
    );
    // Fresh statistics for the settlement that scores these rows: on the stale ones (a few
    // thousand rows) PostgreSQL joins a million teams to their players by a million index
    // lookups instead of one hash join. A round without teams (a past round nobody played,
    // frozen by the first results import) changes nothing to analyse: a million rows sampled
    // for nothing cost that import a second.
    if ((copied?.teams ?? 0) > 0) await tx.execute(sql`analyze frozen_teams`);
    return { eventId, teams: copied?.teams ?? 0 };
  });
}

/**
 * Where the rules limit transfers (docs/decisions/0170): each frozen team's changes against its
 * frozen team of the competition's previous frozen round (racers as people), and its account:
 * core's `transferRound` in SQL (round-entries' and this file's property tests hold them equal).
 * A team without a frozen team there plays its first round: its changes are free.
 */
async function countTransfers(
  tx: DbOrTx,
  eventId: number,
  competitionId: number,
  rules: CompetitionRules,
) {
  const t = rules.transfers!;
  const n = (v: number) => sql.raw(String(Math.trunc(v)));
  await tx.execute(sql`
    with prev as (
      select o.id from events o
      where o.competition_id = ${competitionId} and o.frozen_at is not null and o.id <> ${eventId}
        and o.round < (select round from events where id = ${eventId})
      order by o.round desc limit 1
    ), changes as (
      select f.user_id, count(*) filter (where p.person_id is null)::int as n
      from frozen_team_racers f join racers r on r.id = f.racer_id
      left join (
        select pf.user_id, pr.person_id from frozen_team_racers pf
        join racers pr on pr.id = pf.racer_id
        where pf.event_id = (select id from prev)
      ) p on p.user_id = f.user_id and p.person_id = r.person_id
      where f.event_id = ${eventId}
      group by f.user_id
    ), account as (
      select c.user_id, c.n, pt.transfers_left as left_before,
        ${rules.wildcard ? sql`coalesce(t.wildcard_event_id = ${eventId}, false)` : sql`false`} as wildcard,
        least(${n(t.bank)}, pt.transfers_left + ${n(t.free)}) as available
      from changes c
      join teams t on t.user_id = c.user_id and t.competition_id = ${competitionId}
      left join frozen_teams pt on pt.event_id = (select id from prev) and pt.user_id = c.user_id
    )
    update frozen_teams f set
      transfer_changes = a.n,
      wildcard = a.wildcard,
      transfer_cost = case when a.left_before is null or a.wildcard then 0
        else greatest(0, a.n - a.available) * ${n(t.cost)} end,
      transfers_left = case when a.left_before is null then 0
        when a.wildcard then a.available
        else a.available - least(a.n, a.available) end
    from account a
    where f.event_id = ${eventId} and f.user_id = a.user_id`);
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
