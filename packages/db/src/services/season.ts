/**
 * Rolling a competition forward (docs/decisions/0102, 0157): close the round that has been
 * scored, give the next round an entry for every racer of this round at the price the published
 * rule gives (`nextPrice` in @game/core), open the next round. Teams are the players' teams for
 * the competition: nothing is copied, they play on through their racers' entries. One
 * transaction, serialised by an advisory lock; a dry run is the same transaction rolled back, so
 * it reports exactly what the real run does.
 */
import {
  type ApiRacerRound,
  type Category,
  type CompetitionRules,
  formatDateTime,
  lockTime,
  nextPrice,
  ordinal,
  type PriceBand,
  type PricingResult,
  priceBand,
} from "@game/core";
import { and, asc, eq, gt, sql } from "drizzle-orm";
import { type DbOrTx, rowsOf } from "../client.js";
import { competitions, events, raceResults, racers } from "../schema/index.js";
import { AdminActionError, type AdminActor, recordAudit } from "./audit.js";
import { parseRules } from "./events.js";
import { freezeEvent, LONG_JOB } from "./freeze.js";

/** Serialises season advances (any number of processes): one rolls a series at a time. */
const ADVANCE_LOCK = 727_301;

export interface PriceChange {
  personId: number;
  /** The racer's entry in the round just closed, and in the round opened. */
  fromRacerId: number;
  toRacerId: number | null;
  firstName: string;
  lastName: string;
  category: Category;
  /** "1st" .. or DNF, DNS, DSQ, or "no result". */
  result: string;
  band: PriceBand;
  oldPrice: number;
  newPrice: number;
  change: number;
  /** True when the admin had already entered the racer in the next round: that price stands. */
  alreadyEntered: boolean;
}

export interface RoundRef {
  id: number;
  name: string;
  startsAt: Date;
}

export interface AdvanceSummary {
  /** The competition's name and slug. */
  series: string;
  competition: string;
  from: RoundRef;
  to: RoundRef;
  dryRun: boolean;
  /** Advanced before settlement, after the lock, with --force. */
  forced: boolean;
  /** Every racer of the round closed, biggest rise first, biggest fall last. */
  prices: PriceChange[];
  /** Entries created in the next round. */
  entries: number;
  /** The competition's teams, which play on into the next round, and those to fix first. */
  carried: number;
  drafts: number;
}

export interface AdvanceOptions {
  now: Date;
  actor: AdminActor;
  dryRun?: boolean;
  force?: boolean;
  /**
   * The rounds a preview showed: the advance refuses unless it would still go from `from` to
   * `to`, so an admin confirms exactly what they saw.
   */
  expect?: { from: number; to: number };
  /** The competition to roll (its slug): needed when several have an open round. */
  competition?: string;
}

/** Refusals the admin can act on (nothing written); the CLI exits 1 with the message. */
export class SeasonError extends AdminActionError {
  constructor(message: string) {
    super(message, "invalid");
    this.name = "SeasonError";
  }
}

/** Thrown to roll a dry run back with its summary. */
class DryRun extends Error {
  constructor(readonly summary: AdvanceSummary) {
    super("dry run");
  }
}

/** Sorted by change (rises first), then by name, so the list reads the same on every run. */
function byChange(a: PriceChange, b: PriceChange): number {
  return (
    b.change - a.change ||
    a.lastName.localeCompare(b.lastName, "en") ||
    a.firstName.localeCompare(b.firstName, "en") ||
    a.fromRacerId - b.fromRacerId
  );
}

/**
 * The open round to advance from and the round after it in its competition: by the rounds'
 * numbers, never by start times, which admins edit (docs/decisions/0140). A round already
 * settled is never reopened: the advance refuses and says which round is in the way. With
 * several competitions running, the slug says which one rolls forward (docs/decisions/0156).
 */
async function currentAndNext(tx: DbOrTx, competitionSlug?: string) {
  let competition: typeof competitions.$inferSelect | undefined;
  if (competitionSlug !== undefined) {
    [competition] = await tx
      .select()
      .from(competitions)
      .where(eq(competitions.slug, competitionSlug));
    if (!competition) {
      throw new SeasonError(
        `No competition has the slug "${competitionSlug}" (see \`game-admin competitions list\`).`,
      );
    }
  }
  const open = await tx
    .select({ event: events, competition: competitions })
    .from(events)
    .innerJoin(competitions, eq(competitions.id, events.competitionId))
    .where(
      and(
        eq(events.status, "open"),
        competition ? eq(events.competitionId, competition.id) : undefined,
      ),
    )
    .orderBy(asc(events.competitionId), asc(events.round), asc(events.id))
    .for("update", { of: events });
  const withNext: {
    current: typeof events.$inferSelect;
    next: typeof events.$inferSelect;
    competition: typeof competitions.$inferSelect;
  }[] = [];
  let lastRound: (typeof open)[number] | undefined;
  for (const { event: current, competition: c } of open) {
    if (current.round === null) continue;
    const [next] = await tx
      .select()
      .from(events)
      .where(and(eq(events.competitionId, current.competitionId), gt(events.round, current.round)))
      .orderBy(asc(events.round))
      .limit(1)
      .for("update");
    if (!next) {
      lastRound ??= { event: current, competition: c };
      continue;
    }
    if (next.settledAt || next.status === "archived") {
      throw new SeasonError(
        `${next.name} (round ${next.round} of ${c.name}) has already been ${next.settledAt ? "settled" : "archived"}: an advance never reopens it. If the competition has moved on, close ${current.name} (\`game-admin events status ${current.id} close\`) and open the round being played (\`game-admin events status <id> open\`).`,
      );
    }
    withNext.push({ current, next, competition: c });
  }
  const distinct = new Set(withNext.map((w) => w.competition.slug));
  if (distinct.size > 1) {
    throw new SeasonError(
      `More than one competition has an open round to advance (${[...distinct].join(", ")}): say which with --competition <slug>.`,
    );
  }
  if (withNext[0]) return withNext[0];
  throw new SeasonError(
    lastRound
      ? `${lastRound.event.name} is the last round of ${lastRound.competition.name}: there is no next round to open.`
      : competition
        ? `No round of ${competition.name} is open: there is nothing to advance.`
        : "No round of a competition is open: there is nothing to advance.",
  );
}

/**
 * Advances the season by one round. Refuses (SeasonError, nothing written) unless the open round
 * has been settled, or its lock has passed and `force` is given.
 */
export async function advanceSeason(db: DbOrTx, opts: AdvanceOptions): Promise<AdvanceSummary> {
  try {
    return await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${ADVANCE_LOCK})`);
      await tx.execute(LONG_JOB);
      const { current, next, competition } = await currentAndNext(tx, opts.competition);
      const rules = parseRules(competition.rules);
      const forced = await checkAdvance(tx, { current, next, rules, opts });
      const prices = await nextPrices(tx, current, next, rules);
      // New entries for the next round: the same racer (person), today's fields, the new price.
      const fresh = prices.filter((p) => !p.alreadyEntered);
      await enterNextRound(tx, next.id, fresh, opts.now);
      const carry = await countCarried(tx, competition.id, next.id);

      await tx.update(events).set({ status: "closed" }).where(eq(events.id, current.id));
      await tx.update(events).set({ status: "open" }).where(eq(events.id, next.id));

      const summary: AdvanceSummary = {
        series: competition.name,
        competition: competition.slug,
        from: { id: current.id, name: current.name, startsAt: current.startsAt },
        to: { id: next.id, name: next.name, startsAt: next.startsAt },
        dryRun: Boolean(opts.dryRun),
        forced,
        prices: prices.sort(byChange),
        entries: fresh.length,
        carried: carry.carried,
        drafts: carry.drafts,
      };
      await recordAudit(tx, opts.actor, "season.advance", `event:${current.id}`, {
        to: next.id,
        forced,
        entries: summary.entries,
        priceChanges: prices.filter((p) => p.change !== 0).length,
        carried: summary.carried,
        drafts: summary.drafts,
      });
      if (opts.dryRun) throw new DryRun(summary);
      return summary;
    });
  } catch (error) {
    if (error instanceof DryRun) return error.summary;
    throw error;
  }
}

type EventRow = typeof events.$inferSelect;

/**
 * Whether the open round may be advanced (SeasonError when not): the round previewed, final
 * results, and settled, or its lock passed with `force`. A forced round's teams are frozen as
 * they stood at the lock. Returns whether the advance is forced.
 */
async function checkAdvance(
  tx: DbOrTx,
  args: { current: EventRow; next: EventRow; rules: CompetitionRules; opts: AdvanceOptions },
): Promise<boolean> {
  const { current, next, rules, opts } = args;
  if (opts.expect && (opts.expect.from !== current.id || opts.expect.to !== next.id)) {
    throw new SeasonError(
      `The season has changed since the preview: it would now advance ${current.name} to ${next.name}. Preview it again.`,
    );
  }
  // Prices move and teams carry over from the final results, never from provisional ones.
  if (current.provisional) {
    throw new SeasonError(
      `${current.name}'s results are provisional: make them final first (\`game-admin results finalize ${current.id}\`, or import the final file).`,
    );
  }
  if (current.settledAt) return false;
  const lock = lockTime(current, rules.lockHours);
  if (!opts.force) {
    throw new SeasonError(
      `${current.name} has not been settled yet: import its results first (or, once its lock has passed, use --force).`,
    );
  }
  if (opts.now < lock) {
    throw new SeasonError(
      `${current.name} has not been settled and its teams lock ${formatDateTime(lock, "UTC")}: it cannot be advanced before then, even with --force.`,
    );
  }
  // The round is being closed: its teams are frozen as they stood at the lock.
  if (!current.frozenAt) await freezeEvent(tx, current.id, opts.now);
  return true;
}

/**
 * Each racer of the round with their next price: from their result by the competition's pricing
 * (`nextPrice`), the price of an entry already made in the next round, or, before any result
 * (a forced advance), unchanged. `toRacerId` is set for entries that exist already.
 */
async function nextPrices(
  tx: DbOrTx,
  current: EventRow,
  next: EventRow,
  rules: CompetitionRules,
): Promise<PriceChange[]> {
  const entries = await tx
    .select({
      id: racers.id,
      personId: racers.personId,
      category: racers.category,
      firstName: racers.firstName,
      lastName: racers.lastName,
      price: racers.price,
      status: raceResults.status,
      position: raceResults.position,
    })
    .from(racers)
    .leftJoin(
      raceResults,
      and(eq(raceResults.racerId, racers.id), eq(raceResults.eventId, current.id)),
    )
    .where(eq(racers.gameId, current.id))
    .orderBy(asc(racers.id));
  const hasResults = entries.some((e) => e.status !== null);
  const entered = new Map(
    (
      await tx
        .select({ id: racers.id, personId: racers.personId, price: racers.price })
        .from(racers)
        .where(eq(racers.gameId, next.id))
    ).map((r) => [r.personId, r]),
  );

  return entries.map((e) => {
    const result: PricingResult =
      e.status === "finished" && e.position
        ? { status: "finished", position: e.position }
        : e.status && e.status !== "finished"
          ? { status: e.status }
          : null;
    const already = entered.get(e.personId);
    const newPrice = already
      ? already.price
      : hasResults
        ? nextPrice(e.price, result, rules.pricing)
        : e.price;
    return {
      personId: e.personId!,
      fromRacerId: e.id,
      toRacerId: already?.id ?? null,
      firstName: e.firstName,
      lastName: e.lastName,
      category: e.category,
      result: result
        ? result.status === "finished"
          ? ordinal(result.position)
          : result.status
        : "no result",
      band: priceBand(result),
      oldPrice: e.price,
      newPrice,
      change: newPrice - e.price,
      alreadyEntered: Boolean(already),
    };
  });
}

/** Enters `fresh` racers in the next round (today's fields, the new price); sets `toRacerId`. */
async function enterNextRound(tx: DbOrTx, nextId: number, fresh: PriceChange[], now: Date) {
  if (fresh.length === 0) return;
  const at = now.toISOString();
  const rows = JSON.stringify(fresh.map((p) => ({ id: p.fromRacerId, price: p.newPrice })));
  const created = rowsOf<{ id: number; person_id: number }>(
    await tx.execute(sql`
      insert into racers (game_id, person_id, category, first_name, last_name, name_key,
        picture, origin, rank2024, total_point2024, price, created_at, updated_at)
      select ${nextId}, r.person_id, r.category, r.first_name, r.last_name, r.name_key,
        r.picture, r.origin, r.rank2024, r.total_point2024, v.price, ${at}::timestamptz, ${at}::timestamptz
      from json_to_recordset(${rows}::json) as v(id integer, price integer)
      join racers r on r.id = v.id
      returning id, person_id`),
  );
  const byPerson = new Map(created.map((c) => [c.person_id, c.id]));
  for (const p of fresh) p.toRacerId = byPerson.get(p.personId) ?? null;
}

/**
 * No team is copied (docs/decisions/0157): each player's team for the competition plays on
 * through its racers' entries in the next round. Counted for the admin: the teams, and those
 * with a racer who has no entry in the next round, which their players must fix.
 */
async function countCarried(tx: DbOrTx, competitionId: number, nextId: number) {
  const [carry] = rowsOf<{ carried: number; drafts: number }>(
    await tx.execute(sql`
      select
        (select count(*)::int from teams where competition_id = ${competitionId}) as carried,
        (select count(distinct tr.team_id)::int
          from teams t join team_racers tr on tr.team_id = t.id
          where t.competition_id = ${competitionId}
            and not exists (select 1 from racers r
              where r.game_id = ${nextId} and r.person_id = tr.person_id)) as drafts`),
  );
  return { carried: carry?.carried ?? 0, drafts: carry?.drafts ?? 0 };
}

/**
 * One round of a racer's season: their entry's price, whether they started, their result; as
 * the API shows it (@game/core's `ApiRacerRound`), the start as a Date.
 */
export type RacerRound = Omit<ApiRacerRound, "startsAt"> & { startsAt: Date };

/**
 * A racer's rounds (their entries across the series), in race order, or null for an unknown
 * racer. Public facts only: prices, starts, results and points.
 */
export async function listRacerRounds(db: DbOrTx, racerId: number): Promise<RacerRound[] | null> {
  if (!Number.isSafeInteger(racerId) || racerId <= 0 || racerId > 2_147_483_647) return null;
  const [racer] = await db
    .select({ personId: racers.personId })
    .from(racers)
    .where(eq(racers.id, racerId));
  if (!racer) return null;
  const rows = await db
    .select({
      eventId: events.id,
      eventName: events.name,
      startsAt: events.startsAt,
      settledAt: events.settledAt,
      racerId: racers.id,
      price: racers.price,
      withdrawnAt: racers.withdrawnAt,
      status: raceResults.status,
      position: raceResults.position,
      points: raceResults.points,
    })
    .from(racers)
    .innerJoin(events, eq(events.id, racers.gameId))
    .leftJoin(
      raceResults,
      and(eq(raceResults.racerId, racers.id), eq(raceResults.eventId, racers.gameId)),
    )
    .where(eq(racers.personId, racer.personId!))
    .orderBy(sql`${events.round} asc nulls last`, asc(events.startsAt), asc(events.id));
  return rows.map((r) => ({
    eventId: r.eventId,
    eventName: r.eventName,
    startsAt: r.startsAt,
    racerId: r.racerId,
    price: r.price,
    withdrawn: r.withdrawnAt !== null,
    result: r.status === "finished" ? r.position : r.status,
    points: r.settledAt && r.status ? r.points : null,
  }));
}

/**
 * Each racer of `eventId` with their price in the previous round of the series they raced (their
 * person's latest earlier entry); racers new this round are absent.
 */
export async function previousRoundPrices(
  db: DbOrTx,
  eventId: number,
): Promise<Map<number, number>> {
  if (!Number.isSafeInteger(eventId)) return new Map();
  const rows = rowsOf<{ id: number; price: number }>(
    await db.execute(sql`
      select r.id, p.price
      from racers r
      join events e on e.id = r.game_id
      join lateral (
        select pr.price from racers pr join events pe on pe.id = pr.game_id
        where pr.person_id = r.person_id and pe.competition_id = e.competition_id and pe.round < e.round
        order by pe.round desc limit 1
      ) p on true
      where r.game_id = ${eventId}`),
  );
  return new Map(rows.map((r) => [r.id, r.price]));
}
