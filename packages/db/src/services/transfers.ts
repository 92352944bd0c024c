import type { CompetitionRules } from "@game/core";
import { and, desc, eq, isNotNull, lt, sql } from "drizzle-orm";
import { type DbOrTx, rowsOf } from "../client.js";
import { competitions, events, frozenTeams, teams } from "../schema/index.js";
import { parseRules } from "./events.js";

/*
 * A player's transfer account for an open round (docs/decisions/0170): what the team builder
 * needs to say what the changes will cost before the save. The freeze counts them for real
 * (scoring.ts `countTransfers`) from the same facts.
 */

export interface TransferStatus {
  /** The rules' transfer limits. */
  rules: NonNullable<CompetitionRules["transfers"]>;
  /**
   * This round's entries of the racers the team played the previous frozen round with: a draft
   * racer not among them is a change. Null: the team's first round (changes are free).
   */
  kept: number[] | null;
  /** Free transfers kept after the previous round (null: the team's first round). */
  leftBefore: number | null;
  wildcard: {
    /** The competition has a wildcard. */
    offered: boolean;
    /** The round the team plays it in, and its name, or null. */
    eventId: number | null;
    eventName: string | null;
  };
}

/** The transfer account of a player's team for `eventId`; null where changes are unlimited. */
export async function getTransferStatus(
  db: DbOrTx,
  userId: number,
  eventId: number,
): Promise<TransferStatus | null> {
  const [event] = await db
    .select({
      competitionId: events.competitionId,
      round: events.round,
      rules: competitions.rules,
    })
    .from(events)
    .innerJoin(competitions, eq(competitions.id, events.competitionId))
    .where(eq(events.id, eventId));
  if (!event) return null;
  const rules = parseRules(event.rules);
  if (!rules.transfers) return null;
  const [previous] = await db
    .select({ id: events.id })
    .from(events)
    .where(
      and(
        eq(events.competitionId, event.competitionId),
        isNotNull(events.frozenAt),
        lt(events.round, event.round ?? 0),
      ),
    )
    .orderBy(desc(events.round))
    .limit(1);
  const [account] = previous
    ? await db
        .select({ left: frozenTeams.transfersLeft })
        .from(frozenTeams)
        .where(and(eq(frozenTeams.eventId, previous.id), eq(frozenTeams.userId, userId)))
    : [];
  const kept = account
    ? rowsOf<{ id: number }>(
        await db.execute(sql`
          select r.id from frozen_team_racers f
          join racers p on p.id = f.racer_id
          join racers r on r.person_id = p.person_id and r.game_id = ${eventId}
          where f.event_id = ${previous!.id} and f.user_id = ${userId}`),
      ).map((r) => r.id)
    : null;
  const [team] = await db
    .select({ wildcardEventId: teams.wildcardEventId, name: events.name })
    .from(teams)
    .leftJoin(events, eq(events.id, teams.wildcardEventId))
    .where(and(eq(teams.userId, userId), eq(teams.competitionId, event.competitionId)));
  return {
    rules: rules.transfers,
    kept,
    leftBefore: account ? account.left : null,
    wildcard: {
      offered: rules.wildcard,
      eventId: team?.wildcardEventId ?? null,
      eventName: team?.name ?? null,
    },
  };
}
