/**
 * The OpenAPI 3.1 description of the public API (`/api/v1/openapi.json`). Paths, parameters and
 * prose are written here; the answers' schemas are generated from @game/core's zod schemas of
 * the API (`apiJsonSchemas`), the same ones the routes' answers are typed by
 * (docs/decisions/0120). `routes/api.v1.test.ts` checks real answers against them.
 */
import {
  API_RESPONSES,
  apiCategorySlugSchema,
  apiErrorSchema,
  apiJsonSchemas,
  apiSchemaRef,
} from "@game/core";
import { PUBLIC_MAX_PAGE, PUBLIC_MAX_PAGE_SIZE, PUBLIC_PAGE_SIZE } from "@game/db";
import { API_RATE_LIMIT, PARTNER_KEY_HEADER, PARTNER_RATE_LIMIT } from "./partner-limits.server";

// Registers the competition schemas with core's registry before it is read below.

/** Every endpoint's 200 answer, by its path in the document. */
const RESPONSES = API_RESPONSES;

/** Generated once: the schemas do not change while the process runs. */
const schemas = apiJsonSchemas();

/** Sent with every answer (IETF draft `RateLimit` header names). */
const rateLimitHeaders = {
  "RateLimit-Limit": {
    description: "Requests allowed in the current window.",
    schema: { type: "integer" },
  },
  "RateLimit-Remaining": {
    description: "Requests left in the current window.",
    schema: { type: "integer" },
  },
  "RateLimit-Reset": {
    description: "Seconds until the window starts again.",
    schema: { type: "integer" },
  },
};

/** Every endpoint may answer these, whatever its parameters. */
const everyEndpoint = [401, 429] as const;

const errorResponses = (...statuses: number[]) => {
  const text: Record<number, string> = {
    400: "A parameter is malformed (the message names it).",
    401: `The \`${PARTNER_KEY_HEADER}\` header is not the key of an enabled partner.`,
    403: "The team is private until its event locks (or its teams are frozen for scoring).",
    404: "Unknown event, competition, player or team.",
    429: "Too many requests; retry after `Retry-After` seconds.",
  };
  return Object.fromEntries(
    [...new Set([...statuses, ...everyEndpoint])].map((s) => [
      String(s),
      {
        description: text[s],
        headers: {
          ...rateLimitHeaders,
          ...(s === 429 ? { "Retry-After": { schema: { type: "integer" } } } : {}),
        },
        content: { "application/json": { schema: apiSchemaRef(apiErrorSchema) } },
      },
    ]),
  );
};

/** A 200 answer: the endpoint's response schema from @game/core. */
const ok = (path: keyof typeof RESPONSES, description: string) => ({
  "200": {
    description,
    headers: {
      ETag: {
        description: "Send it back in `If-None-Match` to get a 304.",
        schema: { type: "string" },
      },
      "Cache-Control": { schema: { type: "string" } },
      ...rateLimitHeaders,
    },
    content: { "application/json": { schema: apiSchemaRef(RESPONSES[path]) } },
  },
  "304": { description: "Not modified since the ETag given in `If-None-Match`." },
});

const idParameter = {
  name: "id",
  in: "path",
  required: true,
  schema: { type: "integer", minimum: 1 },
};

/** A competition's slug, as the pages' addresses and `/competitions` give it. */
const slugSchema = { type: "string", pattern: "^[a-z0-9-]{1,80}$" };

const slugParameter = {
  name: "slug",
  in: "path",
  required: true,
  description: "The competition's slug, e.g. `pro-downhill-series-2027`.",
  schema: slugSchema,
};

/** `?competition=` of the rankings: which competition's table. */
const rankingCompetitionParameter = {
  name: "competition",
  in: "query",
  description:
    "A competition's slug: its table (every competition keeps its own, finished ones their final one). Without it, the competition the ranking pages show by default: the latest scored round's, or before any result the one being played.",
  schema: slugSchema,
};

const categoryParameter = {
  name: "category",
  in: "query",
  description: "One category; all four when absent.",
  schema: apiSchemaRef(apiCategorySlugSchema),
};

const pageParameter = {
  name: "page",
  in: "query",
  description: "1-based page number; a page past the last is empty (`data: []`).",
  schema: { type: "integer", minimum: 1, maximum: PUBLIC_MAX_PAGE, default: 1 },
};

const pageSizeParameter = {
  name: "pageSize",
  in: "query",
  description: `Rows a page, 1 to ${PUBLIC_MAX_PAGE_SIZE}.`,
  schema: {
    type: "integer",
    minimum: 1,
    maximum: PUBLIC_MAX_PAGE_SIZE,
    default: PUBLIC_PAGE_SIZE,
  },
};

export function openApiDocument(serverUrl: string) {
  return {
    openapi: "3.1.0",
    info: {
      title: "Gravity Fantasy public API",
      version: "1.0.0",
      description: [
        "Read-only data of the fantasy downhill game for partner sites: competitions and their",
        "rules, events, racers, rankings",
        "and (once an event has locked) players' teams. No personal data is ever returned.",
        "",
        "Browsers may call it from the origins listed for a partner (CORS); other origins get no",
        "`Access-Control-Allow-Origin`. Answers carry `Cache-Control` (with `s-maxage` and",
        "`stale-while-revalidate`) and an `ETag`. Each IP may make",
        `${API_RATE_LIMIT.limit} requests per ${API_RATE_LIMIT.windowMs / 1000} seconds; a request`,
        `carrying a partner's publishable key in \`${PARTNER_KEY_HEADER}\` (for partner servers)`,
        `may make ${PARTNER_RATE_LIMIT.limit} per ${PARTNER_RATE_LIMIT.windowMs / 1000} seconds,`,
        "counted per key and IP. Every answer carries `RateLimit-Limit`, `RateLimit-Remaining`",
        "and `RateLimit-Reset`. Unknown paths answer a JSON 404.",
      ].join("\n"),
    },
    // The key is optional: anonymous calls are the norm, the key only raises the quota.
    security: [{}, { partnerKey: [] }],
    servers: [{ url: `${serverUrl.replace(/\/+$/, "")}/api/v1` }],
    paths: {
      "/competitions": {
        get: {
          operationId: "listCompetitions",
          summary: "Every competition, with its rules, rounds and state",
          description:
            "Live competitions first, then upcoming, finished and archived ones. A competition is a series of rounds (or a one-off race) with its own rules: team size, budget, how many women and juniors a team has, points, lock and prices. `rulesText` states them in plain English.",
          responses: {
            ...ok("/competitions", "Every competition."),
            ...errorResponses(429),
          },
        },
      },
      "/competitions/{slug}": {
        get: {
          operationId: "getCompetition",
          summary: "One competition, with its rules, rounds and state",
          parameters: [slugParameter],
          responses: {
            ...ok("/competitions/{slug}", "The competition."),
            ...errorResponses(400, 404, 429),
          },
        },
      },
      "/events": {
        get: {
          operationId: "listEvents",
          summary: "The events: all of them, or one competition's rounds",
          parameters: [
            {
              name: "competition",
              in: "query",
              description: "A competition's slug: only its rounds.",
              schema: slugSchema,
            },
          ],
          responses: {
            ...ok("/events", "Every event (or the competition's), by id."),
            ...errorResponses(400, 404, 429),
          },
        },
      },
      "/events/{id}/racers": {
        get: {
          operationId: "listRacers",
          summary: "An event's racers, best 2024 rank first (unranked last)",
          parameters: [idParameter, categoryParameter],
          responses: {
            ...ok("/events/{id}/racers", "The racers."),
            ...errorResponses(400, 404, 429),
          },
        },
      },
      "/racers/{id}/rounds": {
        get: {
          operationId: "listRacerRounds",
          summary: "A racer's rounds: price, start, result and fantasy points per round",
          description:
            "The racer's entry in every round of their series, in race order. Prices move between rounds with results (the pricing rule on the About page); `points` is null until the round is scored. Any of the racer's entry ids gives the same list.",
          parameters: [idParameter],
          responses: {
            ...ok("/racers/{id}/rounds", "The racer's rounds."),
            ...errorResponses(400, 404, 429),
          },
        },
      },
      "/events/{id}/results": {
        get: {
          operationId: "listResults",
          summary: "An event's results: place and fantasy points per racer, by category",
          description:
            "By category, then place (DNF, DNS and DSQ last). Empty until the results are imported.",
          parameters: [idParameter, categoryParameter],
          responses: {
            ...ok("/events/{id}/results", "The results."),
            ...errorResponses(400, 404, 429),
          },
        },
      },
      "/rankings/players": {
        get: {
          operationId: "playerRankings",
          summary: "Player ranking: a competition's season, or one event with `event`",
          parameters: [
            rankingCompetitionParameter,
            {
              name: "event",
              in: "query",
              description:
                "An event id for that event's ranking. With `competition`, the event must be one of its rounds.",
              schema: { type: "integer", minimum: 1 },
            },
            pageParameter,
            pageSizeParameter,
          ],
          responses: {
            ...ok("/rankings/players", "One page of the ranking."),
            ...errorResponses(400, 404, 429),
          },
        },
      },
      "/rankings/leagues": {
        get: {
          operationId: "leagueRankings",
          summary:
            "Mini leagues of a competition by total points (average of accepted members' scores)",
          description:
            "A league plays one competition: the ranking lists that competition's leagues.",
          parameters: [rankingCompetitionParameter, pageParameter, pageSizeParameter],
          responses: {
            ...ok("/rankings/leagues", "One page of the ranking."),
            ...errorResponses(400, 404, 429),
          },
        },
      },
      "/teams/{username}": {
        get: {
          operationId: "getTeam",
          summary:
            "A player's team, public once its event has locked (12 h before the start) or its teams were frozen for scoring",
          parameters: [
            { name: "username", in: "path", required: true, schema: { type: "string" } },
            {
              name: "event",
              in: "query",
              description:
                "The event; without it, the latest locked or frozen event the player has a team in.",
              schema: { type: "integer", minimum: 1 },
            },
          ],
          responses: {
            ...ok("/teams/{username}", "The team."),
            ...errorResponses(400, 403, 404, 429),
          },
        },
      },
    },
    components: {
      securitySchemes: {
        partnerKey: {
          type: "apiKey",
          in: "header",
          name: PARTNER_KEY_HEADER,
          description: "A partner's publishable key: a higher request quota for its servers.",
        },
      },
      schemas,
    },
  };
}
