/**
 * "Picked by": how many of a round's teams hold each racer (docs/decisions/0160). Counted, never
 * computed per request: at the round's freeze from its frozen teams (exact and final: they never
 * change), and every 10 minutes while it is open from its competition's teams (a group over
 * every team's racers: seconds at 1,000,000 players, too dear for a page, cheap for a job). The
 * counts sit on the round's entries (`racers.picked_by`), the team total in `event_picks`.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import type { DbOrTx } from "../client.js";
import { eventPicks, events } from "../schema/index.js";

/** Counts a frozen round's picks from its frozen teams (in the freeze's transaction). */
export async function countFrozenPicks(tx: DbOrTx, eventId: number, now: Date): Promise<void> {
  await tx.execute(sql`
    update racers r set picked_by = coalesce(c.n, 0)
    from racers x left join (
      select racer_id, count(*)::int as n from frozen_team_racers
      where event_id = ${eventId} group by racer_id
    ) c on c.racer_id = x.id
    where x.game_id = ${eventId} and r.id = x.id`);
  await tx.execute(sql`
    insert into event_picks (event_id, teams, counted_at, final)
    values (${eventId}, (select count(*)::int from frozen_teams where event_id = ${eventId}),
      ${now.toISOString()}::timestamptz, true)
    on conflict (event_id) do update
      set teams = excluded.teams, counted_at = excluded.counted_at, final = true`);
}

export interface CountedPicks {
  eventId: number;
  teams: number;
}

/**
 * Counts the picks of every open round not frozen yet from its competition's teams as they stand
 * now (a team holds racers as people: its pick of a person counts for that person's entry in the
 * round). Run every 10 minutes by the app; each round in its own short transaction.
 */
export async function countOpenPicks(db: DbOrTx, now: Date): Promise<CountedPicks[]> {
  const open = await db
    .select({ id: events.id, competitionId: events.competitionId })
    .from(events)
    .where(and(eq(events.status, "open"), isNull(events.frozenAt)));
  const out: CountedPicks[] = [];
  for (const e of open) {
    const teams = await db.transaction(async (tx) => {
      // The freeze may have claimed the round meanwhile: its counts are the final ones.
      const [still] = await tx
        .select({ id: events.id })
        .from(events)
        .where(and(eq(events.id, e.id), isNull(events.frozenAt)))
        .for("share");
      if (!still) return null;
      await tx.execute(sql`
        update racers r set picked_by = coalesce(c.n, 0)
        from racers x left join (
          select tr.person_id, count(*)::int as n
          from team_racers tr join teams t on t.id = tr.team_id
          where t.competition_id = ${e.competitionId}
          group by tr.person_id
        ) c on c.person_id = x.person_id
        where x.game_id = ${e.id} and r.id = x.id
          and r.picked_by is distinct from coalesce(c.n, 0)`);
      const [row] = await tx
        .insert(eventPicks)
        .values({
          eventId: e.id,
          teams: sql`(select count(*)::int from teams where competition_id = ${e.competitionId})`,
          countedAt: now,
          final: false,
        })
        .onConflictDoUpdate({
          target: eventPicks.eventId,
          set: {
            teams: sql`excluded.teams`,
            countedAt: sql`excluded.counted_at`,
            final: false,
          },
        })
        .returning({ teams: eventPicks.teams });
      return row?.teams ?? 0;
    });
    if (teams !== null) out.push({ eventId: e.id, teams });
  }
  return out;
}

/**
 * A racer entry's share of its round's teams, in percent with one decimal, as SQL over the
 * outer `racers` row (null before the round's first count, or with no team).
 */
export const pickedByPercentSql = sql<number | null>`(
  select case when ep.teams > 0 and "racers"."picked_by" is not null
    then round(100.0 * "racers"."picked_by" / ep.teams, 1)::float8 end
  from event_picks ep where ep.event_id = "racers"."game_id")`;
