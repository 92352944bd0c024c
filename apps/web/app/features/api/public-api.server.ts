/**
 * The public API's answers (`/api/v1/*`): each function reads the database and shapes one
 * response; the routes wire them to `apiGet` (caching, errors, partner counting) in
 * `api.server.ts`.
 */
import {
  type ApiCompetition,
  type ApiCompetitionResponse,
  type ApiCompetitionsResponse,
  type ApiEventsResponse,
  type ApiLeagueRankingsResponse,
  type ApiPlayerRankingsResponse,
  type ApiRacerRoundsResponse,
  type ApiRacersResponse,
  type ApiResultsResponse,
  type ApiTeamResponse,
  type Category,
  categoryFromSlug,
  describeRules,
} from "@game/core";
import {
  type CompetitionView,
  type Db,
  getCompetition,
  getPublicEvent,
  getPublicTeam,
  listCompetitions,
  listPublicEvents,
  listPublicRacers,
  listPublicResults,
  listRacerRounds,
  publicLeagueRankings,
  publicPlayerRankings,
} from "@game/db";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiGet } from "./api.server";
import {
  ApiError,
  absoluteUrl,
  CACHE,
  type CachePolicy,
  categoryParam,
  idParam,
  notFound,
  pageParam,
  pageSizeParam,
  parseParams,
  queryOf,
} from "./http.server";

/** `?competition=` and `:slug`: a competition's slug (lower-case letters, digits, dashes). */
const slugParam = (what: string) =>
  z
    .string({ error: `${what} is required.` })
    .regex(/^[a-z0-9-]{1,80}$/, `${what} must be a competition slug (a-z, 0-9 and -).`);

const eventsParams = z.object({ competition: slugParam("competition").optional() });

/** The competition `slug` names, read from the replica; the API's 404 when there is none. */
async function competitionOr404(args: LoaderFunctionArgs, slug: string): Promise<CompetitionView> {
  const found = await getCompetition(args.context.readDb, slug, args.context.now());
  if (!found) throw notFound("competition_not_found", `There is no competition "${slug}".`);
  return found;
}

/** `GET /api/v1/events?competition=<slug>`: every event, or one competition's rounds. */
export async function apiEvents(args: LoaderFunctionArgs, url: URL): Promise<ApiEventsResponse> {
  const { competition } = parseParams(eventsParams, queryOf(url, ["competition"]));
  const only = competition
    ? new Set((await competitionOr404(args, competition)).rounds.map((r) => r.id))
    : null;
  const list = await listPublicEvents(args.context.readDb);
  return {
    data: list
      .filter((e) => !only || only.has(e.id))
      .map((e) => ({
        id: e.id,
        name: e.name,
        cover: absoluteUrl(e.cover, args.request, args.context),
        logo: absoluteUrl(e.logo, args.request, args.context),
        description: e.description,
        status: e.status,
        startsAt: e.startsAt.toISOString(),
      })),
  };
}

/** A competition as the API answers it: its rules as data and in words, its rounds, its state. */
function apiCompetition(c: CompetitionView, args: LoaderFunctionArgs): ApiCompetition {
  return {
    slug: c.slug,
    name: c.name,
    discipline: c.discipline,
    season: c.season,
    state: c.state,
    cover: absoluteUrl(c.cover, args.request, args.context),
    logo: absoluteUrl(c.logo, args.request, args.context),
    description: c.description,
    rules: c.rules,
    rulesText: describeRules(c.rules),
    rulesFixed: !c.rulesOpen,
    rounds: c.rounds.map((r) => ({
      id: r.id,
      round: r.round,
      name: r.name,
      location: r.location,
      status: r.status,
      startsAt: r.startsAt.toISOString(),
      locksAt: r.lockAt.toISOString(),
      settled: r.settledAt !== null,
      provisional: r.provisional,
    })),
  };
}

/** `GET /api/v1/competitions`: every competition, live and upcoming first. */
export async function apiCompetitions(args: LoaderFunctionArgs): Promise<ApiCompetitionsResponse> {
  const list = await listCompetitions(args.context.readDb, args.context.now());
  return { data: list.map((c) => apiCompetition(c, args)) };
}

const competitionParams = z.object({ slug: slugParam("slug") });

/** `GET /api/v1/competitions/:slug`. */
export async function apiCompetitionBySlug(
  args: LoaderFunctionArgs,
): Promise<ApiCompetitionResponse> {
  const { slug } = parseParams(competitionParams, { slug: args.params.slug });
  return { data: apiCompetition(await competitionOr404(args, slug), args) };
}

const eventListParams = z.object({ id: idParam("event id"), category: categoryParam.optional() });

/**
 * `GET /api/v1/events/:id/<list>?category=<slug>`: one list of an event, all categories or one;
 * 404 for an unknown event. Read from the replica.
 */
function eventListGet<R extends ApiRacersResponse | ApiResultsResponse>(
  args: LoaderFunctionArgs,
  policy: CachePolicy,
  list: (db: Db, eventId: number, category: Category | undefined) => Promise<R["data"]>,
): Promise<Response> {
  return apiGet(args, policy, async (url) => {
    const { id, category } = parseParams(eventListParams, {
      id: args.params.id,
      ...queryOf(url, ["category"]),
    });
    const event = await getPublicEvent(args.context.readDb, id);
    if (!event) throw notFound("event_not_found", `There is no event ${id}.`);
    const data = await list(
      args.context.readDb,
      id,
      category ? categoryFromSlug(category) : undefined,
    );
    return { data, eventId: id, category: category ?? null };
  });
}

/** `GET /api/v1/events/:id/racers?category=pro-women`: an event's racers, best ranked first. */
export const apiEventRacers = (args: LoaderFunctionArgs) =>
  eventListGet<ApiRacersResponse>(args, CACHE.catalogue, listPublicRacers);

/** `GET /api/v1/events/:id/results?category=pro-women`: its results, by category then place. */
export const apiEventResults = (args: LoaderFunctionArgs) =>
  eventListGet<ApiResultsResponse>(args, CACHE.live, listPublicResults);

const racerParams = z.object({ id: idParam("racer id") });

/** `GET /api/v1/racers/:id/rounds`. */
export async function apiRacerRounds(args: LoaderFunctionArgs): Promise<ApiRacerRoundsResponse> {
  const { id } = parseParams(racerParams, { id: args.params.id });
  const rounds = await listRacerRounds(args.context.readDb, id);
  if (!rounds) throw notFound("racer_not_found", `There is no racer ${id}.`);
  return {
    data: rounds.map((r) => ({ ...r, startsAt: r.startsAt.toISOString() })),
    racerId: id,
  };
}

const leagueParams = z.object({
  competition: slugParam("competition").optional(),
  page: pageParam,
  pageSize: pageSizeParam,
});

/**
 * `GET /api/v1/rankings/leagues?competition=<slug>`: the leagues of one competition (the
 * default one, as on the ranking page, without `competition`); 404 for an unknown competition.
 */
export async function apiLeagueRankings(
  args: LoaderFunctionArgs,
  url: URL,
): Promise<ApiLeagueRankingsResponse> {
  const { competition, page, pageSize } = parseParams(
    leagueParams,
    queryOf(url, ["competition", "page", "pageSize"]),
  );
  const chosen = competition ? await competitionOr404(args, competition) : null;
  const result = await publicLeagueRankings(args.context.readDb, {
    page,
    pageSize,
    competitionId: chosen?.id,
  });
  return {
    data: result.rows,
    page: result.page,
    pageCount: result.pageCount,
    pageSize: result.pageSize,
    total: result.total,
  };
}

const playerParams = z.object({
  competition: slugParam("competition").optional(),
  event: idParam("event").optional(),
  page: pageParam,
  pageSize: pageSizeParam,
});

/**
 * `GET /api/v1/rankings/players?competition=<slug>&event=<id>`: a competition's table (the
 * default one, as on the ranking page, without `competition`), or one event's with `event`;
 * 404 for an unknown competition or event, or an event of another competition than the one
 * named.
 */
export async function apiPlayerRankings(
  args: LoaderFunctionArgs,
  url: URL,
): Promise<ApiPlayerRankingsResponse> {
  const { competition, event, page, pageSize } = parseParams(
    playerParams,
    queryOf(url, ["competition", "event", "page", "pageSize"]),
  );
  const [chosen, found] = await Promise.all([
    competition ? competitionOr404(args, competition) : Promise.resolve(null),
    event !== undefined ? getPublicEvent(args.context.readDb, event) : Promise.resolve(null),
  ]);
  if (event !== undefined && (!found || (chosen && !chosen.rounds.some((r) => r.id === event)))) {
    throw notFound(
      "event_not_found",
      chosen ? `There is no event ${event} in "${chosen.slug}".` : `There is no event ${event}.`,
    );
  }
  const result = await publicPlayerRankings(args.context.readDb, {
    page,
    pageSize,
    eventId: event,
    competitionId: chosen?.id,
  });
  return {
    data: result.rows,
    page: result.page,
    pageCount: result.pageCount,
    pageSize: result.pageSize,
    total: result.total,
    eventId: event ?? null,
  };
}

const teamParams = z.object({
  username: z
    .string({ error: "username is required." })
    .trim()
    .min(1, "username is required.")
    .max(64, "username is too long."),
  event: idParam("event").optional(),
});

/** `GET /api/v1/teams/:username`: a player's team, public once the event has locked. */
export async function apiTeam(args: LoaderFunctionArgs, url: URL): Promise<ApiTeamResponse> {
  const { username, event } = parseParams(teamParams, {
    username: args.params.username,
    ...queryOf(url, ["event"]),
  });
  const result = await getPublicTeam(args.context.readDb, {
    username,
    eventId: event,
    now: args.context.now(),
  });
  if (result.ok) return { data: result.team };
  switch (result.reason) {
    case "not-locked":
      throw new ApiError(
        403,
        "team_private",
        `Teams stay private until the event locks at ${result.locksAt.toISOString()}.`,
      );
    case "user-not-found":
      throw notFound("player_not_found", "There is no player with that username.");
    case "event-not-found":
      throw notFound("event_not_found", `There is no event ${event}.`);
    case "team-not-found":
      throw notFound("team_not_found", "This player has no team for that event.");
  }
}
