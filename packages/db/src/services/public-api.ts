/**
 * Read queries behind the public JSON API (`/api/v1`) and the partner embeds.
 *
 * Every query names its columns: nothing personal (e-mail, account, role, credits, acceptance,
 * sessions) can reach a response by accident when a table grows a column. Players appear by
 * username only.
 */
import {
  type ApiEvent,
  type ApiLeagueRanking,
  type ApiPlayerRanking,
  type ApiRaceResult,
  type ApiRacer,
  type ApiTeam,
  type Category,
  isLocked,
  lockTime,
  normalizeOrigin,
} from "@game/core";
import { and, asc, count, desc, eq, inArray, isNull, lte, or, type SQL, sql } from "drizzle-orm";
import type { DbOrTx } from "../client.js";
import {
  competitions,
  eventScores,
  events,
  leagueMembers,
  partners,
  raceResults,
  racers,
  teams,
  users,
} from "../schema/index.js";
import { type PublicRacer, publicRacerColumns, racerListOrder } from "./racers.js";
import { resultColumns, resultOrder } from "./results.js";
import { getTeam } from "./teams.js";

export type { PublicRacer };

import { getLeagueRankingPage, getPlayerRankingPage, RANKING_PAGE_SIZE } from "./rankings.js";

/** Rows per page of the ranking endpoints (the ranking pages' size). */
export const PUBLIC_PAGE_SIZE = RANKING_PAGE_SIZE;
/**
 * Pages past this are refused as bad input. Paging goes by stored place, so any page costs what
 * page 1 costs; the cap (50 million rows at 50 a page) only turns absurd numbers into a 400.
 */
export const PUBLIC_MAX_PAGE = 1_000_000;
/** The largest `pageSize` a client may ask for (docs/decisions/0086). */
export const PUBLIC_MAX_PAGE_SIZE = 100;

/**
 * A page past the last is empty, with the page asked for (a client that reads until an empty
 * page stops); the ranking pages themselves clamp to the last page instead.
 */
function pastTheEnd<T>(result: PublicPage<T>, asked: number): PublicPage<T> {
  return asked <= result.pageCount ? result : { ...result, rows: [], page: asked };
}

/**
 * An event as the API shows it (@game/core's `ApiEvent`), before the route makes it JSON: the
 * start as a Date, the images as stored paths (the route makes them absolute).
 */
export type PublicEvent = Omit<ApiEvent, "startsAt"> & { startsAt: Date };

export interface PublicPage<T> {
  rows: T[];
  page: number;
  pageSize: number;
  total: number;
  pageCount: number;
}

/** A row of the API's player ranking (its shape is @game/core's schema). */
export type PublicPlayerRank = ApiPlayerRanking;

/** A row of the API's league ranking (its shape is @game/core's schema). */
export type PublicLeagueRank = ApiLeagueRanking;

export type PublicTeamResult =
  | {
      ok: true;
      team: ApiTeam;
    }
  | { ok: false; reason: "user-not-found" | "event-not-found" | "team-not-found" }
  | { ok: false; reason: "not-locked"; locksAt: Date };

const eventColumns = {
  id: events.id,
  name: events.name,
  cover: events.cover,
  logo: events.logo,
  description: events.description,
  status: events.status,
  startsAt: events.startsAt,
};

/**
 * The racer's public fields, plus their price in the previous round of the series (their
 * person's latest earlier entry; null in a first round), so a partner can show the change.
 * The outer row's columns are written qualified by hand: inside a subquery drizzle would render
 * them bare, and they would bind to the subquery's own racers.
 */
const racerColumns = {
  ...publicRacerColumns,
  previousPrice: sql<number | null>`(
    select pr.price from racers pr
    join events pe on pe.id = pr.game_id
    join events ce on ce.id = "racers"."game_id"
    where pr.person_id = "racers"."person_id" and pe.competition_id = ce.competition_id
      and pe.round < ce.round
    order by pe.round desc limit 1)`.as("previous_price"),
};

/** The fixed list of events, in id order. */
export function listPublicEvents(db: DbOrTx): Promise<PublicEvent[]> {
  return db.select(eventColumns).from(events).orderBy(asc(events.id));
}

export async function getPublicEvent(db: DbOrTx, id: number): Promise<PublicEvent | undefined> {
  if (!Number.isSafeInteger(id)) return undefined;
  const [row] = await db.select(eventColumns).from(events).where(eq(events.id, id));
  return row;
}

/**
 * An event's racers (optionally one category) in the spec's order: rank2024 ascending, unranked
 * (0) last, then by name so the order is stable.
 */
export function listPublicRacers(
  db: DbOrTx,
  eventId: number,
  category?: Category,
): Promise<ApiRacer[]> {
  const where: SQL[] = [eq(racers.gameId, eventId)];
  if (category) where.push(eq(racers.category, category));
  return db
    .select(racerColumns)
    .from(racers)
    .where(and(...where))
    .orderBy(...racerListOrder);
}

/**
 * The player ranking as the ranking pages show it (the season, or one event with `eventId`),
 * through the scoring service's stored places, without the internal ids. Players without a
 * scored event are not listed; a page past the last is clamped to the last.
 */
export async function publicPlayerRankings(
  db: DbOrTx,
  opts: { page: number; eventId?: number; competitionId?: number; pageSize?: number },
): Promise<PublicPage<PublicPlayerRank>> {
  const result = await getPlayerRankingPage(db, {
    page: opts.page,
    eventId: opts.eventId,
    competitionId: opts.competitionId,
    pageSize: opts.pageSize ?? PUBLIC_PAGE_SIZE,
  });
  return pastTheEnd(
    {
      ...result,
      rows: result.rows.map((r) => ({
        rank: r.rank,
        username: r.username,
        points: r.points,
        previousRank: r.previousRank,
      })),
    },
    opts.page,
  );
}

/** The league ranking as the ranking page shows it, with each league's accepted member count. */
export async function publicLeagueRankings(
  db: DbOrTx,
  opts: { page: number; competitionId?: number; pageSize?: number },
): Promise<PublicPage<PublicLeagueRank>> {
  const result = await getLeagueRankingPage(db, {
    page: opts.page,
    competitionId: opts.competitionId,
    pageSize: opts.pageSize ?? PUBLIC_PAGE_SIZE,
  });
  if (opts.page > result.pageCount) return { ...result, rows: [], page: opts.page };
  const ids = result.rows.map((r) => r.id);
  const counts =
    ids.length === 0
      ? []
      : await db
          .select({ leagueId: leagueMembers.leagueId, n: count() })
          .from(leagueMembers)
          .where(and(inArray(leagueMembers.leagueId, ids), eq(leagueMembers.status, "accepted")))
          .groupBy(leagueMembers.leagueId);
  const members = new Map(counts.map((c) => [c.leagueId, Number(c.n)]));
  return {
    ...result,
    rows: result.rows.map((r) => ({
      rank: r.rank,
      id: r.id,
      name: r.name,
      totalPoints: Number(r.totalPoints),
      memberCount: members.get(r.id) ?? 0,
    })),
  };
}

/**
 * A player's team for an event, public only once the event's teams are fixed: at the lock (12
 * hours before the start) or earlier when scoring froze them (a results import before the lock).
 * Before that, other players could copy it. Without `eventId`, the latest such event the player
 * has a team in. The racers are the frozen team when scoring has frozen it (what scores), else
 * the saved team (which cannot change after the lock either).
 */
export async function getPublicTeam(
  db: DbOrTx,
  opts: { username: string; eventId?: number; now: Date },
): Promise<PublicTeamResult> {
  const key = opts.username.trim().toLowerCase();
  if (!key) return { ok: false, reason: "user-not-found" };
  const [user] = await db
    .select({ id: users.id, username: users.username })
    .from(users)
    .where(eq(users.usernameKey, key));
  if (!user) return { ok: false, reason: "user-not-found" };

  let event: { id: number; startsAt: Date } | undefined;
  if (opts.eventId !== undefined) {
    const [found] = Number.isSafeInteger(opts.eventId)
      ? await db
          .select({
            id: events.id,
            startsAt: events.startsAt,
            frozenAt: events.frozenAt,
            lockHours: sql<number>`(${competitions.rules}->>'lockHours')::int`,
          })
          .from(events)
          .innerJoin(competitions, eq(competitions.id, events.competitionId))
          .where(eq(events.id, opts.eventId))
      : [];
    if (!found) return { ok: false, reason: "event-not-found" };
    const frozen = found.frozenAt !== null && found.frozenAt <= opts.now;
    if (!isLocked(found, opts.now) && !frozen) {
      return { ok: false, reason: "not-locked", locksAt: lockTime(found) };
    }
    event = found;
  } else {
    // Locked means startsAt - the competition's lock hours <= now; or frozen already. The
    // latest such round of a competition the player has a team in.
    [event] = await db
      .select({ id: events.id, startsAt: events.startsAt })
      .from(teams)
      .innerJoin(events, eq(events.competitionId, teams.competitionId))
      .innerJoin(competitions, eq(competitions.id, events.competitionId))
      .where(
        and(
          eq(teams.userId, user.id),
          or(
            sql`${events.startsAt} - make_interval(hours => (${competitions.rules}->>'lockHours')::int) <= ${opts.now.toISOString()}::timestamptz`,
            lte(events.frozenAt, opts.now),
          ),
        ),
      )
      .orderBy(desc(events.startsAt))
      .limit(1);
    if (!event) return { ok: false, reason: "team-not-found" };
  }

  // The team that played the round once frozen; before the freeze (locked, the job not run
  // yet) the team as it stands in the round, which is what the freeze will take.
  const team = await getTeam(db, user.id, event.id);
  if (!team || team.racers.length === 0) return { ok: false, reason: "team-not-found" };

  const [score] = await db
    .select({ points: eventScores.points })
    .from(eventScores)
    .where(and(eq(eventScores.eventId, event.id), eq(eventScores.userId, user.id)));
  // cost: what the racers are worth in the round; bank: the player's own, as their pages show
  // it (the team's budget less the prices paid, docs/decisions/0141; a frozen racer the team no
  // longer holds counts at the round's price).
  const previous = new Map(
    (
      await db
        .select({ id: racers.id, previousPrice: racerColumns.previousPrice })
        .from(racers)
        .where(
          inArray(
            racers.id,
            team.racers.map((r) => r.id),
          ),
        )
    ).map((r) => [r.id, r.previousPrice]),
  );
  const list = team.racers.map(({ priceNow, price: _paid, ...r }) => ({
    ...r,
    price: priceNow,
    previousPrice: previous.get(r.id) ?? null,
  }));
  const cost = list.reduce((sum, r) => sum + r.price, 0);
  const paid = team.racers.reduce((sum, r) => sum + r.price, 0);
  const budget = team.budget;
  return {
    ok: true,
    team: {
      username: user.username,
      eventId: event.id,
      racers: list,
      captainId: team.captainId,
      benchId: team.benchId,
      cost,
      bank: budget - paid,
      points: score ? score.points : null,
      locked: true,
    },
  };
}

/** One racer's result in a scored event, as the public API shows it (@game/core's schema). */
export type PublicResult = ApiRaceResult;

/**
 * An event's stored results (optionally one category): by category in the game's order, then
 * place, non-finishers last. Empty until results are imported; an import settles at once, so the
 * points are those the rankings count.
 */
export function listPublicResults(
  db: DbOrTx,
  eventId: number,
  category?: Category,
): Promise<PublicResult[]> {
  const where: SQL[] = [eq(raceResults.eventId, eventId)];
  if (category) where.push(eq(raceResults.category, category));
  return db
    .select({ ...resultColumns, picture: racers.picture })
    .from(raceResults)
    .innerJoin(racers, eq(racers.id, raceResults.racerId))
    .where(and(...where))
    .orderBy(...resultOrder);
}

export interface PartnerRow {
  id: number;
  name: string;
  publishableKey: string;
  origins: string[];
}

/** An enabled partner by its publishable key, origins normalised (a disabled one is unknown). */
export async function getPartnerByKey(db: DbOrTx, key: string): Promise<PartnerRow | undefined> {
  if (!key || key.length > 200) return undefined;
  const [row] = await db
    .select({
      id: partners.id,
      name: partners.name,
      publishableKey: partners.publishableKey,
      origins: partners.origins,
    })
    .from(partners)
    .where(and(eq(partners.publishableKey, key), isNull(partners.disabledAt)));
  if (!row) return undefined;
  return { ...row, origins: normalizedOrigins(row.origins) };
}

function normalizedOrigins(list: readonly string[]): string[] {
  return [...new Set(list.map(normalizeOrigin).filter((o): o is string => o !== null))];
}

/**
 * Whether `origin` (a browser's `Origin` header) belongs to an enabled partner. The partners
 * table is small (one row per partner site), so it is read whole and compared after normalising,
 * which forgives a trailing slash or upper case in what an admin typed. Read on every request,
 * never cached in the process: an admin's edit or disable applies to the next request.
 *
 * An origin belongs to one partner (docs/decisions/0085); where rows from before that rule still
 * share one, a disabled partner listing it wins: disabling a partner stops every origin it lists.
 */
export async function isPartnerOrigin(db: DbOrTx, origin: string): Promise<boolean> {
  const wanted = normalizeOrigin(origin);
  if (!wanted || wanted !== origin) return false;
  const rows = await db
    .select({ origins: partners.origins, disabledAt: partners.disabledAt })
    .from(partners);
  const listing = rows.filter((r) => normalizedOrigins(r.origins).includes(wanted));
  return listing.length > 0 && listing.every((r) => r.disabledAt === null);
}
