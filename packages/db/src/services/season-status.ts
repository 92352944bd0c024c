/**
 * What changed for a player's team since the last round of the series (docs/decisions/0102):
 * each racer's price now against the price paid, who is out, and, for a team that does not fit
 * the rules any more (a carried draft, a racer withdrawn), what to fix in plain words.
 */
import { type CompetitionRules, formatPrice, teamInRound, validateTeam } from "@game/core";
import { and, desc, eq, inArray, isNotNull, lt } from "drizzle-orm";
import type { DbOrTx } from "../client.js";
import { events, frozenTeams, racers } from "../schema/index.js";
import type { TeamView } from "./teams.js";

export interface SeasonRacerChange {
  id: number;
  name: string;
  paid: number;
  now: number;
  /** Withdrawn from this round: scores nothing, must be replaced. */
  out: boolean;
}

export interface TeamSeasonStatus {
  /** The previous round of the series, when the player had a team there. */
  previous: { id: number; name: string } | null;
  draft: boolean;
  racers: SeasonRacerChange[];
  /** Racers of the previous round's team who do not start this round (dropped when carried). */
  gone: string[];
  /** What to do before the lock, in plain words; empty when the team plays as it is. */
  fixes: string[];
}

const fullName = (r: { firstName: string; lastName: string }) => `${r.firstName} ${r.lastName}`;

export async function teamSeasonStatus(
  db: DbOrTx,
  userId: number,
  /** The round, with its competition's rules (an `EventRow`). */
  event: { id: number; competitionId: number; round: number | null; rules: CompetitionRules },
  team: TeamView | null,
): Promise<TeamSeasonStatus | null> {
  // The round before, by the competition's explicit order (docs/decisions/0140).
  const [previous] =
    event.round !== null
      ? await db
          .select({ id: events.id, name: events.name })
          .from(events)
          .where(and(eq(events.competitionId, event.competitionId), lt(events.round, event.round)))
          .orderBy(desc(events.round))
          .limit(1)
      : [];
  const ids = team?.racers.map((r) => r.id) ?? [];
  const withdrawn = new Set(
    ids.length > 0
      ? (
          await db
            .select({ id: racers.id })
            .from(racers)
            .where(and(inArray(racers.id, ids), isNotNull(racers.withdrawnAt)))
        ).map((r) => r.id)
      : [],
  );
  // Whether the player played the round before (their team was frozen for it); who of the
  // team has no entry here (docs/decisions/0157: computed, nothing was copied).
  const hadTeam = previous
    ? (
        await db
          .select({ userId: frozenTeams.userId })
          .from(frozenTeams)
          .where(and(eq(frozenTeams.eventId, previous.id), eq(frozenTeams.userId, userId)))
          .limit(1)
      ).length > 0
    : false;
  const gone = (team?.gone ?? []).map((g) => g.name);
  if (!team && !hadTeam) return null;

  const list: SeasonRacerChange[] = (team?.racers ?? []).map((r) => ({
    id: r.id,
    name: fullName(r),
    paid: r.price,
    now: r.priceNow,
    out: withdrawn.has(r.id),
  }));
  // The one rule of a team in a round (core's teamInRound, which the freeze and the reminders
  // restate in SQL): the team's racers with an entry here are `list`, those without are gone.
  const standing = teamInRound<{ name: string }>(
    [...list, ...(team?.gone ?? [])],
    new Map(list.map((r) => [r, { withdrawn: r.out }])),
  );
  const fixes: string[] = [];
  for (const g of standing.missing) fixes.push(`Replace ${g.name}: not starting this round.`);
  for (const r of standing.withdrawn) fixes.push(`Replace ${r.name}: withdrawn from this round.`);
  if (team && (team.draft || standing.withdrawn.length > 0)) {
    // The rules, at the prices paid against the team's budget (what keeping the team counts).
    const check = validateTeam(ids, team.racers, {
      gameId: event.id,
      budget: team.budget,
      rules: event.rules,
    });
    for (const issue of check.issues) {
      if (issue.code === "budget") {
        fixes.push(
          `Bring the team within the ${formatPrice(team.budget)} budget (it costs ${formatPrice(issue.cost)}).`,
        );
      } else if (issue.code !== "unknown-racer" && issue.code !== "wrong-event") {
        fixes.push(issue.message);
      }
    }
    if (fixes.length > 0) {
      fixes.push(
        team.draft
          ? "Then save your team: until you do, it does not play this round."
          : "Then save your team: a withdrawn racer scores no points.",
      );
    }
  }
  return {
    previous: previous && hadTeam ? previous : null,
    draft: Boolean(team?.draft),
    racers: list,
    gone,
    fixes,
  };
}
