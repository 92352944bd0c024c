/**
 * Rolling a series forward (docs/decisions/0102): close the round that has been scored, give the
 * next round an entry for every racer of this round at the price the published rule gives
 * (`nextPrice` in @game/core), carry every player's team over at the prices paid, open the next
 * round. One transaction, serialised by an advisory lock; a dry run is the same transaction
 * rolled back, so it reports exactly what the real run does.
 */
import {
  type ApiRacerRound,
  CATEGORIES,
  type Category,
  formatDateTime,
  isFemale,
  isJunior,
  lockTime,
  MIN_FEMALE,
  MIN_JUNIOR,
  nextPrice,
  type PriceBand,
  type PricingResult,
  priceBand,
  TEAM_SIZE,
} from "@game/core";
import { and, asc, eq, gt, sql } from "drizzle-orm";
import { type DbOrTx, rowsOf } from "../client.js";
import { events, raceResults, racers } from "../schema/index.js";
import { AdminActionError, type AdminActor, recordAudit } from "./audit.js";
import { freezeEvent, LONG_JOB } from "./scoring.js";

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
  series: string;
  from: RoundRef;
  to: RoundRef;
  dryRun: boolean;
  /** Advanced before settlement, after the lock, with --force. */
  forced: boolean;
  /** Every racer of the round closed, biggest rise first, biggest fall last. */
  prices: PriceChange[];
  /** Entries created in the next round. */
  entries: number;
  /** Teams carried into the next round: playing as they are, and kept as drafts to fix. */
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

function ordinal(n: number): string {
  const s = n % 100 >= 11 && n % 100 <= 13 ? "th" : (["th", "st", "nd", "rd"][n % 10] ?? "th");
  return `${n}${s}`;
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
 * The open round to advance from and the round after it in its series: by the rounds' numbers,
 * never by start times, which admins edit (docs/decisions/0140). A round already settled is
 * never reopened: the advance refuses and says which round is in the way.
 */
async function currentAndNext(tx: DbOrTx) {
  const open = await tx
    .select()
    .from(events)
    .where(eq(events.status, "open"))
    .orderBy(asc(events.series), asc(events.round), asc(events.id))
    .for("update");
  for (const current of open) {
    if (!current.series || current.round === null) continue;
    const [next] = await tx
      .select()
      .from(events)
      .where(and(eq(events.series, current.series), gt(events.round, current.round)))
      .orderBy(asc(events.round))
      .limit(1)
      .for("update");
    if (!next) continue;
    if (next.settledAt || next.status === "archived") {
      throw new SeasonError(
        `${next.name} (round ${next.round} of ${current.series}) has already been ${next.settledAt ? "settled" : "archived"}: an advance never reopens it. If the series has moved on, close ${current.name} (\`game-admin events status ${current.id} close\`) and open the round being played (\`game-admin events status <id> open\`).`,
      );
    }
    return { current, next };
  }
  const last = open.find((e) => e.series);
  throw new SeasonError(
    last
      ? `${last.name} is the last round of ${last.series}: there is no next round to open.`
      : "No round of a series is open: there is nothing to advance.",
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
      const at = opts.now.toISOString();
      const { current, next } = await currentAndNext(tx);
      if (opts.expect && (opts.expect.from !== current.id || opts.expect.to !== next.id)) {
        throw new SeasonError(
          `The season has changed since the preview: it would now advance ${current.name} to ${next.name}. Preview it again.`,
        );
      }
      const forced = !current.settledAt;
      if (forced) {
        const lock = lockTime(current);
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
      }

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

      const prices: PriceChange[] = entries.map((e) => {
        const result: PricingResult =
          e.status === "finished" && e.position
            ? { status: "finished", position: e.position }
            : e.status && e.status !== "finished"
              ? { status: e.status }
              : null;
        const already = entered.get(e.personId);
        // Before any result (a forced advance) there is nothing to judge: prices stay.
        const newPrice = already
          ? already.price
          : hasResults
            ? nextPrice(e.price, result)
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

      // New entries for the next round: the same racer (person), today's fields, the new price.
      const fresh = prices.filter((p) => !p.alreadyEntered);
      if (fresh.length > 0) {
        const rows = JSON.stringify(fresh.map((p) => ({ id: p.fromRacerId, price: p.newPrice })));
        const created = rowsOf<{ id: number; person_id: number }>(
          await tx.execute(sql`
            insert into racers (game_id, person_id, category, first_name, last_name, name_key,
              picture, origin, rank2024, total_point2024, price, created_at, updated_at)
            select ${next.id}, r.person_id, r.category, r.first_name, r.last_name, r.name_key,
              r.picture, r.origin, r.rank2024, r.total_point2024, v.price, ${at}::timestamptz, ${at}::timestamptz
            from json_to_recordset(${rows}::json) as v(id integer, price integer)
            join racers r on r.id = v.id
            returning id, person_id`),
        );
        const byPerson = new Map(created.map((c) => [c.person_id, c.id]));
        for (const p of fresh) p.toRacerId = byPerson.get(p.personId) ?? null;
      }

      // Carry every team over at the prices paid. A team fits when all six racers start in the
      // next round and the rules still hold (categories may differ in an entry the admin made);
      // otherwise it is kept as a draft for the player to fix. A team the player already has in
      // the next round is left alone. Its budget goes with it (docs/decisions/0141).
      const female = CATEGORIES.filter(isFemale);
      const junior = CATEGORIES.filter(isJunior);
      const list = (cs: readonly string[]) =>
        sql.join(
          cs.map((c) => sql`${c}`),
          sql`, `,
        );
      const [carry] = rowsOf<{ carried: number; drafts: number }>(
        await tx.execute(sql`
          with src as (
            select ot.user_id, ot.budget, otr.slot, otr.price_paid, rn.id as racer_id, rn.category
            from teams ot
            join team_racers otr on otr.team_id = ot.id
            join racers ro on ro.id = otr.racer_id
            left join racers rn on rn.game_id = ${next.id} and rn.person_id = ro.person_id
              and rn.withdrawn_at is null
            where ot.event_id = ${current.id}
          ), verdict as (
            select user_id, max(budget) as budget,
              (count(racer_id) = ${TEAM_SIZE} and count(*) = ${TEAM_SIZE}
                and count(*) filter (where category in (${list(female)})) >= ${MIN_FEMALE}
                and count(*) filter (where category in (${list(junior)})) >= ${MIN_JUNIOR}
                and sum(price_paid) <= max(budget)) as fits
            from src group by user_id
          ), new_teams as (
            insert into teams (user_id, event_id, draft, budget, created_at, updated_at)
            select user_id, ${next.id}, not fits, budget, ${at}::timestamptz, ${at}::timestamptz from verdict
            on conflict (user_id, event_id) do nothing
            returning id, user_id, draft
          ), slots as (
            insert into team_racers (team_id, racer_id, slot, price_paid)
            select nt.id, s.racer_id, s.slot, s.price_paid
            from new_teams nt join src s on s.user_id = nt.user_id
            where s.racer_id is not null
            returning team_id
          )
          select count(*)::int as carried, (count(*) filter (where draft))::int as drafts
          from new_teams`),
      );

      await tx.update(events).set({ status: "closed" }).where(eq(events.id, current.id));
      await tx.update(events).set({ status: "open" }).where(eq(events.id, next.id));

      const summary: AdvanceSummary = {
        series: current.series,
        from: { id: current.id, name: current.name, startsAt: current.startsAt },
        to: { id: next.id, name: next.name, startsAt: next.startsAt },
        dryRun: Boolean(opts.dryRun),
        forced,
        prices: prices.sort(byChange),
        entries: fresh.length,
        carried: carry?.carried ?? 0,
        drafts: carry?.drafts ?? 0,
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
        where pr.person_id = r.person_id and pe.series = e.series and pe.round < e.round
        order by pe.round desc limit 1
      ) p on true
      where r.game_id = ${eventId}`),
  );
  return new Map(rows.map((r) => [r.id, r.price]));
}
