/** Loaders of the player and racer pages: public, read-only, frozen teams only. */
import type { Discipline } from "@game/core";
import {
  type DbOrTx,
  getPlayerProfile,
  getRacerProfile,
  type PickCounter,
  pickCounter,
} from "@game/db";
import type { AppLoadContext } from "@remix-run/node";
import { shortEventLabel } from "~/components/charts/labels";
import { getCurrentGame } from "~/features/game/game.server";
import { toBackdropGame } from "~/features/game/game-backdrop";
import { parseId } from "~/utils/request.server";
import { racerRounds } from "./racer-rounds";

function notFound(): Response {
  return new Response("Not Found", { status: 404 });
}

/**
 * How long a racer page reuses the pick counts of an event that is not scored yet. Those counts
 * are exact `count(*)`s whose cost grows with the teams: counted on every view, the racer's data
 * took 56 to 64 ms to read with 1,000,000 teams on PostgreSQL, 2 ms with the counts kept
 * (docs/benchmarks.md). Kept in this process for 30 s, each is counted at most twice a minute
 * per event and per racer, however many views; the page may show counts up to 30 s behind a team
 * saved meanwhile (docs/decisions/0055). Scored events read stored figures and are not cached.
 * The alternative, counters updated at every team save, would make every save lock the event's
 * row: the busiest write of the game, just before the lock, would queue on it.
 */
export const PICK_COUNTS_TTL_MS = 30_000;
/** Bound on the entries kept (racers and events of all seasons): the oldest go first. */
const PICK_COUNTS_MAX = 5_000;

/**
 * A `PickCounter` that keeps each count for `ttlMs`. The promise is kept, so requests arriving
 * while a count runs share it; a failed count is forgotten at once.
 */
export function cachedPickCounter(
  counter: PickCounter,
  opts: { ttlMs?: number; max?: number; now?: () => number } = {},
): PickCounter {
  const { ttlMs = PICK_COUNTS_TTL_MS, max = PICK_COUNTS_MAX, now = Date.now } = opts;
  const kept = new Map<string, { at: number; n: Promise<number> }>();
  const get = (key: string, count: () => Promise<number>) => {
    const hit = kept.get(key);
    if (hit && now() - hit.at < ttlMs) return hit.n;
    kept.delete(key);
    const n = count();
    n.catch(() => {
      if (kept.get(key)?.n === n) kept.delete(key);
    });
    kept.set(key, { at: now(), n });
    // Maps iterate in insertion order: the first key is the oldest count.
    if (kept.size > max) kept.delete(kept.keys().next().value as string);
    return n;
  };
  return {
    picks: (racerId) => get(`r${racerId}`, () => counter.picks(racerId)),
    teams: (eventId) => get(`e${eventId}`, () => counter.teams(eventId)),
  };
}

/** One cached counter per database (tests run several databases in one process). */
const counters = new WeakMap<DbOrTx, PickCounter>();
function pickCounterOf(db: DbOrTx): PickCounter {
  let counter = counters.get(db);
  if (!counter) {
    counter = cachedPickCounter(pickCounter(db));
    counters.set(db, counter);
  }
  return counter;
}

export async function loadPlayerPage(request: Request, context: AppLoadContext, username: string) {
  const [profile, game] = await Promise.all([
    getPlayerProfile(context.readDb, username.slice(0, 64), context.now()),
    getCurrentGame(request, context),
  ]);
  if (!profile) throw notFound();
  return {
    game: toBackdropGame(game),
    /** The competition the rankings show by default: the player's figures below are in it. */
    competition: profile.competition
      ? { slug: profile.competition.slug, name: profile.competition.name }
      : null,
    player: {
      username: profile.username,
      points: profile.points,
      ranking: profile.ranking,
      previousRanking: profile.previousRanking,
    },
    /** Every competition played, latest first: where the player finished (or stands). */
    competitions: profile.competitions.map((c) => ({
      slug: c.slug,
      name: c.name,
      season: c.season,
      discipline: c.discipline as Discipline,
      state: c.state,
      points: c.points,
      rank: c.rank,
      players: c.players,
    })),
    events: profile.events.map((e) => ({
      id: e.eventId,
      name: e.eventName,
      label: shortEventLabel(e.eventName),
      competitionSlug: e.competitionSlug,
      competitionName: e.competitionName,
      points: e.points,
      rank: e.rank,
      players: e.players,
      seasonPoints: e.seasonPoints,
      seasonRank: e.seasonRank,
      transfers: e.transfers,
      provisional: e.provisional,
      team: (profile.teams[e.eventId] ?? []).map((r) => ({
        id: r.racerId,
        firstName: r.firstName,
        lastName: r.lastName,
        category: r.category,
        picture: r.picture,
        origin: r.origin,
        price: r.price,
        rank2024: r.rank2024,
        result: r.status === "finished" ? r.position : r.status,
        points: r.points,
        captain: r.captain,
        bench: r.bench,
        autoSub: r.autoSub,
      })),
    })),
  };
}

export async function loadRacerPage(request: Request, context: AppLoadContext, idParam: string) {
  const id = parseId(idParam);
  const [racer, game] = await Promise.all([
    id !== null
      ? getRacerProfile(context.readDb, id, pickCounterOf(context.readDb))
      : Promise.resolve(null),
    getCurrentGame(request, context),
  ]);
  if (!racer) throw notFound();
  const rounds = racerRounds(
    racer.id,
    racer.events.map((e) => ({
      racerId: e.racerId,
      eventId: e.eventId,
      name: e.eventName,
      price: e.price,
      startsAt: e.startsAt.toISOString(),
    })),
    game ? { id: game.id, name: game.name, startsAt: game.startsAt.toISOString() } : null,
  );
  // Every entry is one of its own rounds; a racer without events is not listed anywhere.
  if (!rounds) throw notFound();
  return {
    game: toBackdropGame(game),
    rounds,
    racer: {
      id: racer.id,
      firstName: racer.firstName,
      lastName: racer.lastName,
      category: racer.category,
      origin: racer.origin,
      picture: racer.picture,
      rank2024: racer.rank2024,
      price: racer.price,
      seasonPoints: racer.seasonPoints,
      pointsPer100k: racer.pointsPer100k,
      pickedByPercent: racer.pickedByPercent,
    },
    events: racer.events.map((e) => ({
      id: e.eventId,
      racerId: e.racerId,
      name: e.eventName,
      label: shortEventLabel(e.eventName),
      settled: e.settled,
      result: e.status === "finished" ? e.position : e.withdrawn ? "Withdrawn" : e.status,
      points: e.points,
      price: e.price,
      pickedBy: e.pickedBy,
      teams: e.teams,
    })),
  };
}
