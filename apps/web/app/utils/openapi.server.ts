/**
 * The OpenAPI 3.1 description of the public API (`/api/v1/openapi.json`). Its schemas mirror the
 * response types of `@game/widgets/client`; `routes/api.v1.test.ts` checks that real answers of
 * every endpoint have exactly the keys its schemas name.
 */
import { CATEGORIES, CATEGORY_SLUGS } from "@game/core";
import { PUBLIC_MAX_PAGE, PUBLIC_MAX_PAGE_SIZE, PUBLIC_PAGE_SIZE } from "@game/db";
import { API_RATE_LIMIT, PARTNER_KEY_HEADER, PARTNER_RATE_LIMIT } from "./api.server";

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const nullable = (type: string) => ({ type: [type, "null"] });

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
    404: "Unknown event, player or team.",
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
        content: { "application/json": { schema: ref("Error") } },
      },
    ]),
  );
};

const ok = (schema: string, description: string) => ({
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
    content: { "application/json": { schema: ref(schema) } },
  },
  "304": { description: "Not modified since the ETag given in `If-None-Match`." },
});

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

const pageOf = (item: string) => ({
  type: "object",
  required: ["data", "page", "pageCount", "pageSize", "total"],
  properties: {
    data: { type: "array", items: ref(item) },
    page: { type: "integer" },
    pageCount: { type: "integer" },
    pageSize: { type: "integer" },
    total: { type: "integer" },
  },
});

export function openApiDocument(serverUrl: string) {
  const playerPage = pageOf("PlayerRanking");
  return {
    openapi: "3.1.0",
    info: {
      title: "Gravity Fantasy public API",
      version: "1.0.0",
      description: [
        "Read-only data of the fantasy downhill game for partner sites: events, racers, rankings",
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
      "/events": {
        get: {
          operationId: "listEvents",
          summary: "The season's events",
          responses: { ...ok("EventsResponse", "Every event, by id."), ...errorResponses(429) },
        },
      },
      "/events/{id}/racers": {
        get: {
          operationId: "listRacers",
          summary: "An event's racers, best 2024 rank first (unranked last)",
          parameters: [
            { name: "id", in: "path", required: true, schema: { type: "integer", minimum: 1 } },
            {
              name: "category",
              in: "query",
              description: "One category; all four when absent.",
              schema: ref("CategorySlug"),
            },
          ],
          responses: { ...ok("RacersResponse", "The racers."), ...errorResponses(400, 404, 429) },
        },
      },
      "/racers/{id}/rounds": {
        get: {
          operationId: "listRacerRounds",
          summary: "A racer's rounds: price, start, result and fantasy points per round",
          description:
            "The racer's entry in every round of their series, in race order. Prices move between rounds with results (the pricing rule on the About page); `points` is null until the round is scored. Any of the racer's entry ids gives the same list.",
          parameters: [
            { name: "id", in: "path", required: true, schema: { type: "integer", minimum: 1 } },
          ],
          responses: {
            ...ok("RacerRoundsResponse", "The racer's rounds."),
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
          parameters: [
            { name: "id", in: "path", required: true, schema: { type: "integer", minimum: 1 } },
            {
              name: "category",
              in: "query",
              description: "One category; all four when absent.",
              schema: ref("CategorySlug"),
            },
          ],
          responses: {
            ...ok("ResultsResponse", "The results."),
            ...errorResponses(400, 404, 429),
          },
        },
      },
      "/rankings/players": {
        get: {
          operationId: "playerRankings",
          summary: "Player ranking: the season, or one event with `event`",
          parameters: [
            {
              name: "event",
              in: "query",
              description: "An event id for that event's ranking.",
              schema: { type: "integer", minimum: 1 },
            },
            pageParameter,
            pageSizeParameter,
          ],
          responses: {
            ...ok("PlayerRankingsResponse", "One page of the ranking."),
            ...errorResponses(400, 404, 429),
          },
        },
      },
      "/rankings/leagues": {
        get: {
          operationId: "leagueRankings",
          summary: "Mini leagues by total points (average of accepted members' scores)",
          parameters: [pageParameter, pageSizeParameter],
          responses: {
            ...ok("LeagueRankingsResponse", "One page of the ranking."),
            ...errorResponses(400, 429),
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
          responses: { ...ok("TeamResponse", "The team."), ...errorResponses(400, 403, 404, 429) },
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
      schemas: {
        Category: { type: "string", enum: [...CATEGORIES] },
        CategorySlug: { type: "string", enum: Object.values(CATEGORY_SLUGS) },
        Error: {
          type: "object",
          required: ["error"],
          properties: {
            error: {
              type: "object",
              required: ["code", "message"],
              properties: { code: { type: "string" }, message: { type: "string" } },
            },
          },
        },
        Event: {
          type: "object",
          required: ["id", "name", "cover", "logo", "description", "status", "startsAt"],
          properties: {
            id: { type: "integer" },
            name: { type: "string" },
            cover: { type: "string", format: "uri" },
            logo: { type: "string", format: "uri" },
            description: { type: "string" },
            status: { type: "string", enum: ["open", "closed", "archived"] },
            startsAt: { type: "string", format: "date-time" },
          },
        },
        Racer: {
          type: "object",
          required: [
            "id",
            "category",
            "firstName",
            "lastName",
            "picture",
            "origin",
            "gameId",
            "rank2024",
            "totalPoint2024",
            "price",
            "previousPrice",
          ],
          properties: {
            id: { type: "integer" },
            category: ref("Category"),
            firstName: { type: "string" },
            lastName: { type: "string" },
            picture: {
              ...nullable("string"),
              description: "File name under /img/racer_portrait/ on the game's origin.",
            },
            origin: { type: "string", description: "Country or home town; may be empty." },
            gameId: { type: "integer" },
            rank2024: { type: "integer", description: "0 means unranked." },
            totalPoint2024: { type: "integer" },
            price: { type: "integer", description: "Whole (fake) dollars." },
            previousPrice: {
              ...nullable("integer"),
              description:
                "The racer's price in the previous round of the series (prices move with results); null in a first round.",
            },
          },
        },
        RaceResult: {
          type: "object",
          required: [
            "racerId",
            "firstName",
            "lastName",
            "category",
            "picture",
            "status",
            "position",
            "points",
            "pickedBy",
          ],
          properties: {
            racerId: { type: "integer" },
            firstName: { type: "string" },
            lastName: { type: "string" },
            category: ref("Category"),
            picture: {
              ...nullable("string"),
              description: "File name under /img/racer_portrait/ on the game's origin.",
            },
            status: { type: "string", enum: ["finished", "DNF", "DNS", "DSQ"] },
            position: {
              ...nullable("integer"),
              description: "Place within the category; null for DNF, DNS and DSQ.",
            },
            points: { type: "integer", description: "Fantasy points the result is worth." },
            pickedBy: { type: "integer", description: "Teams that picked the racer." },
          },
        },
        PlayerRanking: {
          type: "object",
          required: ["rank", "username", "points", "previousRank"],
          properties: {
            rank: { type: "integer", description: "Shared on ties (1, 1, 3)." },
            username: { type: "string" },
            points: { type: "integer" },
            previousRank: nullable("integer"),
          },
        },
        LeagueRanking: {
          type: "object",
          required: ["rank", "id", "name", "totalPoints", "memberCount"],
          properties: {
            rank: { type: "integer" },
            id: { type: "integer" },
            name: { type: "string" },
            totalPoints: { type: "number" },
            memberCount: { type: "integer" },
          },
        },
        Team: {
          type: "object",
          required: ["username", "eventId", "racers", "cost", "bank", "points", "locked"],
          properties: {
            username: { type: "string" },
            eventId: { type: "integer" },
            racers: { type: "array", items: ref("Racer"), maxItems: 6 },
            cost: { type: "integer" },
            bank: { type: "integer" },
            points: nullable("integer"),
            locked: { type: "boolean" },
          },
        },
        EventsResponse: {
          type: "object",
          required: ["data"],
          properties: { data: { type: "array", items: ref("Event") } },
        },
        RacerRound: {
          type: "object",
          required: [
            "eventId",
            "eventName",
            "startsAt",
            "racerId",
            "price",
            "withdrawn",
            "result",
            "points",
          ],
          properties: {
            eventId: { type: "integer" },
            eventName: { type: "string" },
            startsAt: { type: "string", format: "date-time" },
            racerId: { type: "integer", description: "The racer's entry in this round." },
            price: { type: "integer", description: "The racer's price in this round." },
            withdrawn: { type: "boolean", description: "Withdrawn: did not start this round." },
            result: {
              oneOf: [
                { type: "integer", minimum: 1 },
                { type: "string", enum: ["DNF", "DNS", "DSQ"] },
                { type: "null" },
              ],
              description: "Place in the category, a non-finish, or null before results.",
            },
            points: { ...nullable("integer"), description: "Null until scored." },
          },
        },
        RacerRoundsResponse: {
          type: "object",
          required: ["data", "racerId"],
          properties: {
            data: { type: "array", items: ref("RacerRound") },
            racerId: { type: "integer" },
          },
        },
        RacersResponse: {
          type: "object",
          required: ["data", "eventId", "category"],
          properties: {
            data: { type: "array", items: ref("Racer") },
            eventId: { type: "integer" },
            category: { oneOf: [ref("CategorySlug"), { type: "null" }] },
          },
        },
        ResultsResponse: {
          type: "object",
          required: ["data", "eventId", "category"],
          properties: {
            data: { type: "array", items: ref("RaceResult") },
            eventId: { type: "integer" },
            category: { oneOf: [ref("CategorySlug"), { type: "null" }] },
          },
        },
        PlayerRankingsResponse: {
          ...playerPage,
          required: [...playerPage.required, "eventId"],
          properties: { ...playerPage.properties, eventId: nullable("integer") },
        },
        LeagueRankingsResponse: pageOf("LeagueRanking"),
        TeamResponse: { type: "object", required: ["data"], properties: { data: ref("Team") } },
      },
    },
  };
}
