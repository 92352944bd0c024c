import {
  budgetAfterSave,
  type CompetitionRules,
  canEditTeam,
  draftPrice,
  type HeldRacer,
  MAX_TEAM_SIZE,
  splitBench,
  type TeamIssue,
  teamWorth,
  validateTeam,
} from "@game/core";
import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import { type DbOrTx, rowsOf } from "../client.js";
import {
  competitions,
  events,
  frozenTeamRacers,
  frozenTeams,
  racers,
  teamRacers,
  teams,
} from "../schema/index.js";
import { parseRules } from "./events.js";
import { type PublicRacer, publicRacerColumns } from "./racers.js";

/** A racer as the team builder shows it (table row, grid slot, detail modal). */
export type TeamRacerView = PublicRacer;

/**
 * A racer on a player's team: `price` is what the player paid (what the bank counts), `priceNow`
 * the racer's price today. Selling refunds `sellingPrice(price, priceNow)` (docs/decisions/0141).
 */
export interface TeamSlotView extends TeamRacerView {
  priceNow: number;
}

/**
 * A player's team for a competition as it stands in one of its rounds (`eventId`), racers in slot
 * order: their entries in that round. For a round already frozen, the team that played it.
 */
export interface TeamView {
  id: number;
  userId: number;
  eventId: number;
  version: number;
  /**
   * A racer of the team has no entry in this round: the team does not play it until the player
   * saves it without them (docs/decisions/0157).
   */
  draft: boolean;
  /** Racers of the team without an entry in this round (they do not start here). */
  gone: { personId: number; name: string; paid: number }[];
  /** The team's budget: the bank is this minus the prices paid (docs/decisions/0141). */
  budget: number;
  /**
   * The racer (this round's entry) the team names captain, where the competition's rules have
   * captains (docs/decisions/0168); null without one.
   */
  captainId: number | null;
  /**
   * The racer on the bench (this round's entry): the slot after the starters, where the
   * competition's rules have a bench (docs/decisions/0169); null without one.
   */
  benchId: number | null;
  createdAt: Date;
  updatedAt: Date;
  racers: TeamSlotView[];
}

const racerColumns = publicRacerColumns;

/** The racers a team for `eventId` can be built from, best 2024 rank first (unranked last). */
export function listTeamRacers(db: DbOrTx, eventId: number): Promise<TeamRacerView[]> {
  // A withdrawn racer is no longer pickable (teams holding them keep them: see getTeam).
  return db
    .select(racerColumns)
    .from(racers)
    .where(and(eq(racers.gameId, eventId), isNull(racers.withdrawnAt)))
    .orderBy(
      racers.category,
      sql`case when ${racers.rank2024} > 0 then 0 else 1 end`,
      asc(racers.rank2024),
      asc(racers.lastName),
      asc(racers.id),
    );
}

/** One racer of an event (the detail view), or undefined. */
export async function getTeamRacer(
  db: DbOrTx,
  eventId: number,
  racerId: number,
): Promise<TeamRacerView | undefined> {
  if (!Number.isSafeInteger(racerId)) return undefined;
  const [row] = await db
    .select(racerColumns)
    .from(racers)
    .where(and(eq(racers.id, racerId), eq(racers.gameId, eventId)));
  return row;
}

/** Racers by id, whatever their event (the rules report racers of other events). */
export function getRacersByIds(db: DbOrTx, ids: readonly number[]): Promise<TeamRacerView[]> {
  const wanted = [...new Set(ids)].filter((id) => Number.isSafeInteger(id) && id > 0);
  if (wanted.length === 0) return Promise.resolve([]);
  return db.select(racerColumns).from(racers).where(inArray(racers.id, wanted));
}

/** Whether the player has ever saved a team (any event): a returning player, not a new one. */
export async function hasAnyTeam(db: DbOrTx, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: teams.id })
    .from(teams)
    .where(eq(teams.userId, userId))
    .limit(1);
  return row !== undefined;
}

/**
 * The player's own team for an event (racers in slot order), or null when there is none yet.
 * Owner-scoped on purpose: teams are private until the event locks. The team is the player's
 * team for the event's competition, seen through the event's entries; once the event has been
 * frozen, the team that played it (docs/decisions/0157).
 */
export async function getTeam(
  db: DbOrTx,
  userId: number,
  eventId: number,
): Promise<TeamView | null> {
  if (!Number.isSafeInteger(eventId)) return null;
  const [event] = await db
    .select({
      id: events.id,
      competitionId: events.competitionId,
      frozenAt: events.frozenAt,
      // A frozen copy of this player's team for the round, with its captain and bench rider,
      // read in the same round trip.
      frozenTeam: sql<boolean>`${frozenTeams.userId} is not null`,
      frozenCaptain: frozenTeams.captainRacerId,
      frozenBench: frozenTeams.benchRacerId,
      rules: competitions.rules,
    })
    .from(events)
    .innerJoin(competitions, eq(competitions.id, events.competitionId))
    .leftJoin(frozenTeams, and(eq(frozenTeams.eventId, events.id), eq(frozenTeams.userId, userId)))
    .where(eq(events.id, eventId));
  if (!event) return null;
  const rows = await db
    .select({
      team: teams,
      personId: teamRacers.personId,
      slot: teamRacers.slot,
      paid: teamRacers.pricePaid,
      racer: racerColumns,
    })
    .from(teams)
    .leftJoin(teamRacers, eq(teamRacers.teamId, teams.id))
    .leftJoin(racers, and(eq(racers.personId, teamRacers.personId), eq(racers.gameId, eventId)))
    .where(and(eq(teams.userId, userId), eq(teams.competitionId, event.competitionId)))
    .orderBy(asc(teamRacers.slot));
  // The team that played a frozen round is its frozen copy, whatever the team is now.
  if (event.frozenAt || event.frozenTeam) {
    return frozenTeamView(db, userId, eventId, rows, event.frozenCaptain, event.frozenBench);
  }
  const first = rows[0];
  if (!first) return null;
  const slots = rows.filter((r) => r.personId !== null);
  const playing: TeamSlotView[] = slots.flatMap((r) =>
    r.racer?.id != null
      ? [{ ...(r.racer as TeamRacerView), price: r.paid!, priceNow: r.racer.price! }]
      : [],
  );
  const missing = slots.filter((r) => r.racer?.id == null);
  const names = await personNames(
    db,
    missing.map((r) => r.personId!),
  );
  return {
    id: first.team.id,
    userId: first.team.userId,
    eventId,
    version: first.team.version,
    // The freeze's rule: a team plays a round when every racer on it has an entry there.
    draft: missing.length > 0,
    gone: missing.map((r) => ({
      personId: r.personId!,
      name: names.get(r.personId!) ?? "A racer",
      paid: r.paid!,
    })),
    budget: first.team.budget,
    captainId: slots.find((r) => r.personId === first.team.captainPersonId)?.racer?.id ?? null,
    benchId: benchOf(slots, parseRules(event.rules)),
    createdAt: first.team.createdAt,
    updatedAt: first.team.updatedAt,
    racers: playing,
  };
}

/**
 * The team's wildcard round after this save (docs/decisions/0170): `undefined` leaves it as it
 * is. Refused where the rules have none, or once it was played in a round already frozen.
 */
async function wildcardAfterSave(
  tx: DbOrTx,
  input: SaveTeamInput,
  event: { id: number; competitionId: number },
  rules: CompetitionRules,
): Promise<number | null | undefined> {
  if (input.wildcard === undefined) return undefined;
  const refuse = (message: string) =>
    new Refused({ ok: false, reason: "invalid", issues: [{ code: "wildcard", message }] });
  const [team] = await tx
    .select({ at: teams.wildcardEventId, name: events.name, frozenAt: events.frozenAt })
    .from(teams)
    .leftJoin(events, eq(events.id, teams.wildcardEventId))
    .where(and(eq(teams.userId, input.userId), eq(teams.competitionId, event.competitionId)));
  const played = team?.at != null && team.at !== event.id && team.frozenAt !== null;
  if (!input.wildcard) return team?.at === event.id ? null : (team?.at ?? null);
  if (!rules.wildcard) throw refuse("This competition has no wildcard.");
  if (played)
    throw refuse(`You played your wildcard in ${team!.name}: it is once per competition.`);
  return event.id;
}

/** The bench rider's entry: the slot after the starters, where the rules have a bench. */
function benchOf(
  slots: readonly { slot: number | null; racer: { id: number | null } | null }[],
  rules: CompetitionRules,
): number | null {
  if (!rules.bench) return null;
  return slots.find((r) => r.slot === rules.teamSize)?.racer?.id ?? null;
}

/** A person's name as their latest entry gives it. */
async function personNames(db: DbOrTx, personIds: number[]): Promise<Map<number, string>> {
  if (personIds.length === 0) return new Map();
  const rows = rowsOf<{ person_id: number; first_name: string; last_name: string }>(
    await db.execute(sql`
      select distinct on (person_id) person_id, first_name, last_name from racers
      where person_id in ${personIds} order by person_id, game_id desc`),
  );
  return new Map(rows.map((r) => [r.person_id, `${r.first_name} ${r.last_name}`]));
}

/**
 * The team that played a frozen round: its frozen racers, at the price the team paid for them
 * when it still holds them (else their price in that round), in the team's slot order.
 */
async function frozenTeamView(
  db: DbOrTx,
  userId: number,
  eventId: number,
  teamRows: {
    team: typeof teams.$inferSelect;
    personId: number | null;
    slot: number | null;
    paid: number | null;
  }[],
  captainId: number | null,
  benchId: number | null,
): Promise<TeamView | null> {
  const frozen = await db
    .select({ racer: racerColumns, personId: racers.personId })
    .from(frozenTeamRacers)
    .innerJoin(racers, eq(racers.id, frozenTeamRacers.racerId))
    .where(and(eq(frozenTeamRacers.eventId, eventId), eq(frozenTeamRacers.userId, userId)));
  const team = teamRows[0]?.team;
  if (frozen.length === 0 || !team) return null;
  const held = new Map(
    teamRows.flatMap((r) => (r.personId !== null ? [[r.personId, r] as const] : [])),
  );
  const order = (p: number | null, id: number) => held.get(p!)?.slot ?? 1_000 + id;
  frozen.sort((a, b) => order(a.personId, a.racer.id) - order(b.personId, b.racer.id));
  return {
    id: team.id,
    userId,
    eventId,
    version: team.version,
    draft: false,
    gone: [],
    budget: team.budget,
    captainId,
    benchId,
    createdAt: team.createdAt,
    updatedAt: team.updatedAt,
    racers: frozen.map((f) => ({
      ...(f.racer as TeamRacerView),
      price: held.get(f.personId!)?.paid ?? f.racer.price,
      priceNow: f.racer.price,
    })),
  };
}

export type SaveTeamFailure = "not-found" | "not-open" | "locked" | "invalid";

export type SaveTeamResult =
  | { ok: true; team: TeamView; cost: number; bank: number }
  | { ok: false; reason: SaveTeamFailure; issues: TeamIssue[] };

export interface SaveTeamInput {
  userId: number;
  eventId: number;
  /** As submitted: untrusted (may repeat ids, name other events' racers, be any length). */
  racerIds: readonly number[];
  /**
   * The clock. A function is read inside the transaction, after the event row is locked, so a
   * save that waited behind others is judged at the moment it actually writes.
   */
  now: Date | (() => Date);
  /** The budget of a team saved for the first time (default 1,000,000); a saved team has its own. */
  budget?: number;
  /** The racer named captain (docs/decisions/0168): one of `racerIds`; null or absent: none. */
  captainId?: number | null;
  /**
   * Play the wildcard in this round (true), take it back (false), or leave it as it is (absent):
   * docs/decisions/0170.
   */
  wildcard?: boolean;
}

/** Thrown inside the transaction to roll it back with a refusal (never escapes `saveTeam`). */
class Refused extends Error {
  constructor(readonly result: Extract<SaveTeamResult, { ok: false }>) {
    super(result.reason);
  }
}

/**
 * Saves the player's team for an event: the only write path for teams, and the authority on the
 * rules. Inside ONE transaction it
 *  1. (`readForSave`) reads the event with a share lock (a concurrent close or freeze waits for
 *     in-flight saves, and a save that starts after it sees the new state), refusing when it is
 *     not open or the clock is at or past the lock moment (12 h before the start), or the teams
 *     are frozen; in the same query it reads the racers' prices, categories and events FROM THE
 *     DATABASE;
 *  2. validates with the rules (6 distinct racers of this event, 2 female, 1 junior, within
 *     budget: each racer kept at their selling price, each bought at today's, against the bank
 *     plus the saved team's selling value; docs/decisions/0141);
 *  3. (`writeTeam`) upserts the team row (`ON CONFLICT (user_id, competition_id) DO UPDATE`
 *     takes the row lock, so concurrent saves of one player queue here) and replaces its slots.
 * A refused save writes nothing. Each save is a full replacement validated on its own, so
 * whichever concurrent save commits last leaves its own complete, valid team.
 */
export async function saveTeam(db: DbOrTx, input: SaveTeamInput): Promise<SaveTeamResult> {
  if (!Number.isSafeInteger(input.eventId)) {
    return { ok: false, reason: "not-found", issues: [] };
  }
  try {
    return await db.transaction(async (tx) => {
      const { event, rows, saved, held } = await readForSave(tx, input);
      // The competition's rules judge the team, lock it and set a new team's budget.
      const rules = parseRules(event.rules);
      const teamBudget = saved[0]?.budget ?? input.budget ?? rules.budget;
      const now = typeof input.now === "function" ? input.now() : input.now;
      const editable = canEditTeam({ ...event, lockHours: rules.lockHours }, now);
      if (!editable.ok) throw new Refused({ ok: false, reason: editable.reason, issues: [] });
      const pending = event.pendingLock === null ? null : new Date(event.pendingLock);
      if (event.frozenAt || (pending && pending <= now)) {
        throw new Refused({ ok: false, reason: "locked", issues: [] });
      }

      // A racer kept costs their selling price, a racer bought today's price, against what the
      // player has: the bank plus the saved team's selling value. So keeping the team always
      // fits whatever prices did, and selling a racer whose price fell and buying them back gains
      // nothing (docs/decisions/0141). A withdrawn racer may stay on a team that holds them, but
      // cannot be bought.
      const ids = input.racerIds;
      const known = rows.flatMap((r) =>
        r.racer && !(r.withdrawnAt && !held.has(r.racer.id!))
          ? [
              {
                ...(r.racer as TeamRacerView),
                price: draftPrice(r.racer.price!, held.get(r.racer.id!)),
              },
            ]
          : [],
      );
      const validation = validateTeam(ids, known, {
        gameId: event.id,
        budget: teamWorth(teamBudget, held.values()),
        rules,
        captainId: input.captainId,
      });
      if (!validation.ok) {
        throw new Refused({ ok: false, reason: "invalid", issues: validation.issues });
      }

      const wildcardEventId = await wildcardAfterSave(tx, input, event, rules);
      const priceNow = new Map(
        rows.flatMap((r) => (r.racer ? [[r.racer.id!, r.racer.price!]] : [])),
      );
      const captainId = rules.captain ? (input.captainId ?? null) : null;
      // Stored: a racer kept keeps the price paid, a racer bought is paid today's price.
      const byId = new Map(
        known.map((r) => [r.id, { ...r, price: held.get(r.id)?.paid ?? priceNow.get(r.id)! }]),
      );
      const personOf = new Map(rows.flatMap((r) => (r.racer ? [[r.racer.id!, r.personId!]] : [])));
      const team = await writeTeam(tx, {
        userId: input.userId,
        competitionId: event.competitionId,
        budget: budgetAfterSave(teamBudget, held, ids),
        captainPersonId: captainId === null ? null : personOf.get(captainId)!,
        wildcardEventId,
        at: new Date(now),
        slots: ids.map((racerId) => ({
          personId: personOf.get(racerId)!,
          paid: byId.get(racerId)!.price,
        })),
      });

      return {
        ok: true as const,
        team: {
          id: team.id,
          userId: team.userId,
          eventId: event.id,
          version: team.version,
          draft: false,
          gone: [],
          budget: team.budget,
          captainId,
          benchId: splitBench(ids, rules).bench,
          createdAt: team.createdAt,
          updatedAt: team.updatedAt,
          racers: ids.map((id) => ({ ...byId.get(id)!, priceNow: priceNow.get(id)! })),
        },
        cost: validation.cost,
        bank: validation.bank,
      };
    });
  } catch (error) {
    if (error instanceof Refused) return error.result;
    throw error;
  }
}

/**
 * Step 1 of a save, in one round trip: the event (share-locked) with its competition's rules and
 * the submitted racers as stored, and the player's saved team for the competition with what was
 * paid for each racer and what they cost today. Refuses an event that does not exist.
 */
async function readForSave(tx: DbOrTx, input: SaveTeamInput) {
  const ids = input.racerIds;
  const lookup =
    ids.length > MAX_TEAM_SIZE * 4
      ? [] // More ids than a team can hold: refused by the rules without a lookup.
      : [...new Set(ids)].filter((id) => Number.isSafeInteger(id) && id > 0);
  // Racers sold in this save included: their selling price is what the bank gets back. The
  // team is the player's team for the event's competition; its racers are held here through
  // their entries in this event (a racer without one is sold at the price paid).
  const savedRows = tx
    .select({
      budget: teams.budget,
      racerId: racers.id,
      paid: teamRacers.pricePaid,
      now: racers.price,
    })
    .from(teams)
    .leftJoin(teamRacers, eq(teamRacers.teamId, teams.id))
    .leftJoin(
      racers,
      and(eq(racers.personId, teamRacers.personId), eq(racers.gameId, input.eventId)),
    )
    .where(
      and(
        eq(teams.userId, input.userId),
        sql`${teams.competitionId} = (select ${events.competitionId} from ${events} where ${events.id} = ${input.eventId})`,
      ),
    );
  const rowsQuery = tx
    .select({
      id: events.id,
      competitionId: events.competitionId,
      status: events.status,
      startsAt: events.startsAt,
      frozenAt: events.frozenAt,
      rules: competitions.rules,
      racer: racerColumns,
      personId: racers.personId,
      withdrawnAt: racers.withdrawnAt,
      // Another round of the competition locked but not frozen yet: the team as it stands
      // is the one that round plays, so it cannot change until the freeze (within a minute).
      pendingLock: sql<string | null>`(
        select min(o.starts_at - make_interval(hours => (${competitions.rules}->>'lockHours')::int))
        from ${events} o where o.competition_id = ${events.competitionId}
          and o.id <> ${events.id} and o.status = 'open' and o.frozen_at is null
          and o.settled_at is null)`,
    })
    .from(events)
    .innerJoin(competitions, eq(competitions.id, events.competitionId))
    .leftJoin(racers, lookup.length > 0 ? inArray(racers.id, lookup) : sql`false`)
    .where(eq(events.id, input.eventId))
    .for("share", { of: events });
  const [rows, saved] = await Promise.all([rowsQuery, savedRows]);
  const event = rows[0];
  if (!event) throw new Refused({ ok: false, reason: "not-found", issues: [] });
  const held = new Map<number, HeldRacer>(
    saved.flatMap((p) =>
      p.racerId !== null && p.now !== null
        ? [[p.racerId, { paid: p.paid ?? p.now, now: p.now }] as const]
        : [],
    ),
  );
  return { event, rows, saved, held };
}

/**
 * Step 3 of a save: the team row and its slots, in three statements sent together (one round
 * trip; the connection runs them in order). The upsert takes the team row lock, so concurrent
 * saves of this player queue there; the delete and insert find the team by (user, competition)
 * rather than by the upsert's answer, and each takes its snapshot after the lock, so it also
 * sees (and replaces) slots a concurrent save committed while this one waited.
 */
async function writeTeam(
  tx: DbOrTx,
  team: {
    userId: number;
    competitionId: number;
    budget: number;
    captainPersonId: number | null;
    /** Undefined: the wildcard stays as it was. */
    wildcardEventId: number | null | undefined;
    at: Date;
    /** In slot order. */
    slots: { personId: number; paid: number }[];
  },
) {
  const { userId, competitionId, budget, captainPersonId, wildcardEventId, at } = team;
  const teamId = sql`(select ${teams.id} from ${teams} where ${teams.userId} = ${userId} and ${teams.competitionId} = ${competitionId})`;
  const slots = sql.join(
    team.slots.map((s, slot) => sql`(${s.personId}::int, ${slot}::int, ${s.paid}::int)`),
    sql`, `,
  );
  const [[row]] = await Promise.all([
    tx
      .insert(teams)
      .values({
        userId,
        competitionId,
        budget,
        captainPersonId,
        wildcardEventId: wildcardEventId ?? null,
        createdAt: at,
        updatedAt: at,
      })
      .onConflictDoUpdate({
        target: [teams.userId, teams.competitionId],
        set: {
          version: sql`${teams.version} + 1`,
          updatedAt: at,
          budget,
          captainPersonId,
          ...(wildcardEventId !== undefined ? { wildcardEventId } : {}),
        },
      })
      .returning(),
    tx.execute(sql`delete from ${teamRacers} where ${teamRacers.teamId} = ${teamId}`),
    tx.execute(
      sql`insert into ${teamRacers} (team_id, person_id, slot, price_paid)
          select ${teamId}, v.person_id, v.slot, v.paid
          from (values ${slots}) as v(person_id, slot, paid)`,
    ),
  ]);
  return row!;
}
