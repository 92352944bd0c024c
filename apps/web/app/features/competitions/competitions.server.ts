/**
 * What the public pages show of the competitions: the competition page (`/competitions/:slug`)
 * and the home page's list. Read from the replica (public, read-only data); the rules are put
 * in words by core's `describeRules`, from the same rules the team rule applies.
 */
import {
  type CompetitionState,
  type Discipline,
  describeRules,
  type EventPhase,
  eventPhase,
} from "@game/core";
import {
  type CompetitionView,
  getCompetition,
  getCompetitionPodium,
  getPlayerRankingPage,
  listCompetitions,
} from "@game/db";
import type { AppLoadContext } from "@remix-run/node";
import { readTimeZone } from "~/utils/time-zone.server";
import { nextRoundCountdown } from "./competition-text";

export interface CompetitionRoundItem {
  id: number;
  round: number | null;
  name: string;
  location: string;
  status: "open" | "closed" | "archived";
  /** Where it stands for players (core's `eventPhase`, with the competition's lock). */
  phase: EventPhase;
  startsAt: string;
  lockAt: string;
  settled: boolean;
}

export interface CompetitionItem {
  id: number;
  slug: string;
  name: string;
  discipline: Discipline;
  season: string;
  state: CompetitionState;
  cover: string;
  logo: string;
  description: string;
  /** The rules in words, one line each. */
  rulesText: string[];
  rounds: CompetitionRoundItem[];
}

export function toCompetitionItem(c: CompetitionView, now: Date): CompetitionItem {
  const lockHours = c.rules.lockHours;
  return {
    id: c.id,
    slug: c.slug,
    name: c.name,
    discipline: c.discipline,
    season: c.season,
    state: c.state,
    cover: c.cover,
    logo: c.logo,
    description: c.description,
    rulesText: describeRules(c.rules),
    rounds: c.rounds.map((r) => ({
      id: r.id,
      round: r.round,
      name: r.name,
      location: r.location,
      status: r.status,
      phase: eventPhase({ ...r, lockHours }, now),
      startsAt: r.startsAt.toISOString(),
      lockAt: r.lockAt.toISOString(),
      settled: r.settledAt !== null,
    })),
  };
}

/** Players the competition page lists from the top of its table (the full table is a link). */
export const COMPETITION_STANDINGS_SIZE = 10;

/**
 * `/competitions/:slug`: the competition, the top of its table (its podium too once it is over),
 * or null when no competition has that slug.
 */
export async function loadCompetitionPage(request: Request, context: AppLoadContext, slug: string) {
  // Slugs are short, lower-case letters, digits and dashes: anything else names nothing.
  if (!/^[a-z0-9-]{1,80}$/.test(slug)) return null;
  const now = context.now();
  const found = await getCompetition(context.readDb, slug, now);
  if (!found) return null;
  const over = found.state === "finished" || found.state === "archived";
  const [standings, podium] = await Promise.all([
    getPlayerRankingPage(context.readDb, {
      page: 1,
      competitionId: found.id,
      pageSize: COMPETITION_STANDINGS_SIZE,
    }),
    over ? getCompetitionPodium(context.readDb, found.id) : Promise.resolve(null),
  ]);
  return {
    competition: toCompetitionItem(found, now),
    /** The top of its table, best first, and how many players it holds. */
    standings: {
      rows: standings.rows.map((r) => ({
        id: r.id,
        rank: r.rank,
        username: r.username,
        points: r.points,
        previousRank: r.previousRank,
      })),
      total: standings.total,
    },
    /** Once it is over: its players of places 1 to 3 (ties share a place); null before. */
    podium: podium?.map((p) => ({ rank: p.rank, username: p.username, points: p.points })) ?? null,
    timeZone: readTimeZone(request),
  };
}

/** A live or upcoming competition on the home page, with its next round. */
export interface HomeCompetition {
  slug: string;
  name: string;
  discipline: Discipline;
  season: string;
  state: CompetitionState;
  logo: string;
  rounds: number;
  next: {
    id: number;
    name: string;
    startsAt: string;
    phase: EventPhase;
    /** "Teams lock in 3 days.": the countdown in words, from the server's clock. */
    countdown: string;
  } | null;
}

/** A finished competition on the home page: a link to its page. */
export interface FinishedCompetition {
  slug: string;
  name: string;
  discipline: Discipline;
  season: string;
}

/**
 * The round a competition plays next: the first (by round number) not yet scored or archived.
 * An open round past its start stays "next" until its results are in.
 */
export function nextRound(c: CompetitionView) {
  return c.rounds.find((r) => r.settledAt === null && r.status !== "archived");
}

/**
 * The home page's competitions: live and upcoming ones with their next round (live first, then
 * by their first round's start), and the finished ones below. Archived ones have left the
 * calendar.
 */
export async function loadHomeCompetitions(context: AppLoadContext): Promise<{
  current: HomeCompetition[];
  finished: FinishedCompetition[];
}> {
  const now = context.now();
  const all = await listCompetitions(context.readDb, now);
  const current: HomeCompetition[] = [];
  const finished: FinishedCompetition[] = [];
  for (const c of all) {
    const base = { slug: c.slug, name: c.name, discipline: c.discipline, season: c.season };
    if (c.state === "finished") finished.push(base);
    if (c.state !== "live" && c.state !== "upcoming") continue;
    const r = nextRound(c);
    current.push({
      ...base,
      state: c.state,
      logo: c.logo,
      rounds: c.rounds.length,
      next: r
        ? {
            id: r.id,
            name: r.name,
            startsAt: r.startsAt.toISOString(),
            phase: eventPhase({ ...r, lockHours: c.rules.lockHours }, now),
            countdown: nextRoundCountdown({ ...r, settled: r.settledAt !== null }, now),
          }
        : null,
    });
  }
  return { current, finished };
}

/** A competition whose rules the About page states in words. */
export interface CompetitionInPlay {
  slug: string;
  name: string;
  state: CompetitionState;
  /** The rules in words, one line each (core's `describeRules`, as on its own page). */
  rulesText: string[];
}

/**
 * The competitions being played (state "live"), whose rules the About page states from their
 * stored rules; with none live, the next one to start; none when nothing is live or coming.
 */
export async function loadCompetitionsInPlay(
  context: AppLoadContext,
): Promise<CompetitionInPlay[]> {
  const all = await listCompetitions(context.readDb, context.now());
  const live = all.filter((c) => c.state === "live");
  // Listed upcoming ones come soonest first.
  const shown = live.length > 0 ? live : all.filter((c) => c.state === "upcoming").slice(0, 1);
  return shown.map((c) => ({
    slug: c.slug,
    name: c.name,
    state: c.state,
    rulesText: describeRules(c.rules),
  }));
}
