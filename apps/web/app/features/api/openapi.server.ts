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
        "rules, events, racers, rankings, live scores on race day",
        "and (once an event has locked) players' teams. No personal data is ever returned.",
        "One write, for timing systems with an admin API token: a round's results.",
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
      "/events/{id}/live": {
        get: {
          operationId: "followEvent",
          summary: "A round's live scores: a Server-Sent Events stream",
          description: [
            "`text/event-stream` (use `EventSource`). The first event is the round's state; another",
            "follows within about a second of each change: an `event: scores` whose `data` is",
            '`{"eventId", "version", "provisional", "final", "live"}`. `version` changes whenever',
            "points or ranks do: reload the tables you show. `live` is true from the teams' lock",
            "until the final results; once false (at once for a round not locked yet, or after",
            "the final results) the stream ends: close your `EventSource`. Open to every origin;",
            "each address may hold a few streams at once (429 beyond), and a busy server answers",
            "503 with `Retry-After`.",
          ].join("\n"),
          parameters: [idParameter],
          responses: {
            "200": {
              description: "The stream.",
              content: { "text/event-stream": { schema: { type: "string" } } },
            },
            ...errorResponses(400, 404, 429),
          },
        },
      },
      "/admin/events/{id}/results": {
        post: {
          operationId: "pushResults",
          summary: "A timing system pushes a round's results (admin API token)",
          description: [
            "For timing systems, not partners: `Authorization: Bearer <token>` with a token from",
            "`game-admin tokens create --name <name>`; no cookie is read. The body is CSV",
            "(`text/csv`, the file import's columns) or JSON (`application/json`: an array of",
            'objects keyed by those columns, or `{"results": [...]}`). The results of the',
            "categories in the body replace those stored and the round is scored at once. A push",
            "is provisional unless `?final=1`; a push equal to what is stored changes nothing",
            "(`unchanged: true`). 401: no token, or an unknown or revoked one; 409: before the",
            "teams lock, or provisional results for a round whose results are final; 422: the",
            "results have problems (each named with its line, or item + 1 in JSON).",
          ].join("\n"),
          security: [{ adminToken: [] }],
          parameters: [
            idParameter,
            {
              name: "final",
              in: "query",
              description: "`1`: these are the final results.",
              schema: { type: "string", enum: ["0", "1"] },
            },
            { ...categoryParameter, description: "The category of the whole body." },
          ],
          requestBody: {
            required: true,
            content: {
              "text/csv": { schema: { type: "string" } },
              "application/json": { schema: { type: ["array", "object"] } },
            },
          },
          responses: {
            "200": {
              description:
                "Taken: `{eventId, provisional, unchanged, categories, results, teamsScored}`.",
              content: { "application/json": { schema: { type: "object" } } },
            },
            "409": { description: "Before the lock, or the round's results are final." },
            "422": { description: "The results have problems; nothing was written." },
            ...errorResponses(400, 404),
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
        adminToken: {
          type: "http",
          scheme: "bearer",
          description: "An admin API token (`game-admin tokens create --name <name>`).",
        },
      },
      schemas,
    },
  };
}
