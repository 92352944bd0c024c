/**
 * The public JSON API's answers (`/api/v1`), as zod schemas: the one source of their shape. The
 * db services return these types (`z.infer`), the web's routes send them, the OpenAPI document's
 * `components.schemas` is generated from them (`apiJsonSchemas`), and the widgets' own
 * declarations of them are checked against them at compile time (docs/decisions/0120).
 */
import { z } from "zod";
import { CATEGORIES, CATEGORY_SLUGS, type CategorySlug } from "./categories.js";
import { COMPETITION_STATES } from "./competitions.js";
import { MAX_TEAM_SIZE } from "./constants.js";
import { EVENT_STATUSES } from "./events.js";
import { RESULT_STATUSES } from "./results.js";
import { DISCIPLINES } from "./rules.js";
import { NON_FINISH } from "./scoring.js";

/** The named schemas of the API: each becomes `#/components/schemas/<id>` in the document. */
export const apiSchemaRegistry = z.registry<{ id: string }>();

function named<T extends z.ZodType>(id: string, schema: T): T {
  apiSchemaRegistry.add(schema as z.ZodType, { id });
  return schema;
}

const int = () => z.number().int();
const PORTRAIT = "File name under /img/racer_portrait/ on the game's origin.";

export const apiCategorySchema = named("Category", z.enum(CATEGORIES));
export const apiCategorySlugSchema = named(
  "CategorySlug",
  z.enum(Object.values(CATEGORY_SLUGS) as [CategorySlug, ...CategorySlug[]]),
);

export const apiErrorSchema = named(
  "Error",
  z.object({ error: z.object({ code: z.string(), message: z.string() }) }),
);

export const apiEventSchema = named(
  "Event",
  z.object({
    id: int(),
    name: z.string(),
    cover: z.url(),
    logo: z.url(),
    description: z.string(),
    status: z.enum(EVENT_STATUSES),
    startsAt: z.iso.datetime(),
  }),
);

export const apiRacerSchema = named(
  "Racer",
  z.object({
    id: int(),
    category: apiCategorySchema,
    firstName: z.string(),
    lastName: z.string(),
    picture: z.string().nullable().meta({ description: PORTRAIT }),
    origin: z.string().meta({ description: "Country or home town; may be empty." }),
    gameId: int(),
    rank2024: int().meta({ description: "0 means unranked." }),
    totalPoint2024: int(),
    price: int().meta({ description: "Whole (fake) dollars." }),
    previousPrice: int().nullable().meta({
      description:
        "The racer's price in the previous round of the series (prices move with results); null in a first round.",
    }),
    pickedByPercent: z.number().min(0).max(100).nullable().meta({
      description:
        "Share of the round's teams holding the racer, in percent with one decimal: exact once the round is locked (its frozen teams), refreshed every 10 minutes while it is open; null before the first count.",
    }),
  }),
);

export const apiRaceResultSchema = named(
  "RaceResult",
  z.object({
    racerId: int(),
    firstName: z.string(),
    lastName: z.string(),
    category: apiCategorySchema,
    picture: z.string().nullable().meta({ description: PORTRAIT }),
    status: z.enum(RESULT_STATUSES),
    position: int()
      .nullable()
      .meta({ description: "Place within the category; null for DNF, DNS and DSQ." }),
    points: int().meta({ description: "Fantasy points the result is worth." }),
    pickedBy: int().meta({ description: "Teams that picked the racer." }),
  }),
);

export const apiPlayerRankingSchema = named(
  "PlayerRanking",
  z.object({
    rank: int().meta({ description: "Shared on ties (1, 1, 3)." }),
    username: z.string(),
    points: int(),
    previousRank: int().nullable(),
  }),
);

export const apiLeagueRankingSchema = named(
  "LeagueRanking",
  z.object({
    rank: int(),
    id: int(),
    name: z.string(),
    totalPoints: z.number(),
    memberCount: int(),
  }),
);

export const apiTeamSchema = named(
  "Team",
  z.object({
    username: z.string(),
    eventId: int(),
    racers: z
      .array(apiRacerSchema)
      .max(MAX_TEAM_SIZE + 1)
      .meta({
        description: "In slot order: the starters, then the bench rider where the rules have one.",
      }),
    captainId: int()
      .nullable()
      .meta({ description: "The captain's racer id (points count double); null without one." }),
    benchId: int().nullable().meta({
      description:
        "The bench rider's racer id (scores only for a starter who does not start); null without one.",
    }),
    cost: int(),
    bank: int(),
    points: int().nullable(),
    locked: z.boolean(),
  }),
);

export const apiRacerRoundSchema = named(
  "RacerRound",
  z.object({
    eventId: int(),
    eventName: z.string(),
    startsAt: z.iso.datetime(),
    racerId: int().meta({ description: "The racer's entry in this round." }),
    price: int().meta({ description: "The racer's price in this round." }),
    withdrawn: z.boolean().meta({ description: "Withdrawn: did not start this round." }),
    result: z
      .union([int().min(1), z.enum(NON_FINISH), z.null()])
      .meta({ description: "Place in the category, a non-finish, or null before results." }),
    points: int().nullable().meta({ description: "Null until scored." }),
  }),
);

/** The paging fields of the ranking answers (pages are 1-based). */
const page = { page: int(), pageCount: int(), pageSize: int(), total: int() };

export const apiEventsResponseSchema = named(
  "EventsResponse",
  z.object({ data: z.array(apiEventSchema) }),
);
export const apiRacersResponseSchema = named(
  "RacersResponse",
  z.object({
    data: z.array(apiRacerSchema),
    eventId: int(),
    category: apiCategorySlugSchema.nullable(),
  }),
);
export const apiResultsResponseSchema = named(
  "ResultsResponse",
  z.object({
    data: z.array(apiRaceResultSchema),
    eventId: int(),
    category: apiCategorySlugSchema.nullable(),
  }),
);
export const apiRacerRoundsResponseSchema = named(
  "RacerRoundsResponse",
  z.object({ data: z.array(apiRacerRoundSchema), racerId: int() }),
);
export const apiPlayerRankingsResponseSchema = named(
  "PlayerRankingsResponse",
  z.object({ data: z.array(apiPlayerRankingSchema), ...page, eventId: int().nullable() }),
);
export const apiLeagueRankingsResponseSchema = named(
  "LeagueRankingsResponse",
  z.object({ data: z.array(apiLeagueRankingSchema), ...page }),
);
export const apiTeamResponseSchema = named("TeamResponse", z.object({ data: apiTeamSchema }));

export type ApiCategorySlug = z.infer<typeof apiCategorySlugSchema>;
export type ApiError = z.infer<typeof apiErrorSchema>;
export type ApiEvent = z.infer<typeof apiEventSchema>;
export type ApiRacer = z.infer<typeof apiRacerSchema>;
export type ApiRaceResult = z.infer<typeof apiRaceResultSchema>;
export type ApiPlayerRanking = z.infer<typeof apiPlayerRankingSchema>;
export type ApiLeagueRanking = z.infer<typeof apiLeagueRankingSchema>;
export type ApiTeam = z.infer<typeof apiTeamSchema>;
export type ApiRacerRound = z.infer<typeof apiRacerRoundSchema>;
export type ApiEventsResponse = z.infer<typeof apiEventsResponseSchema>;
export type ApiRacersResponse = z.infer<typeof apiRacersResponseSchema>;
export type ApiResultsResponse = z.infer<typeof apiResultsResponseSchema>;
export type ApiRacerRoundsResponse = z.infer<typeof apiRacerRoundsResponseSchema>;
export type ApiPlayerRankingsResponse = z.infer<typeof apiPlayerRankingsResponseSchema>;
export type ApiLeagueRankingsResponse = z.infer<typeof apiLeagueRankingsResponseSchema>;
export type ApiTeamResponse = z.infer<typeof apiTeamResponseSchema>;

// Competitions (docs/decisions/0156): their rules, rounds and state.
const apiInt = () => z.number().int();
const group = z.object({
  min: apiInt(),
  max: apiInt().nullable().meta({ description: "Null: no maximum." }),
});

export const apiCompetitionRulesSchema = named(
  "CompetitionRules",
  z.object({
    teamSize: apiInt().meta({ description: "Riders per team." }),
    budget: apiInt().meta({ description: "Whole (fake) dollars a new team may spend." }),
    categories: z.array(
      z.object({
        name: z.string(),
        women: z.boolean().meta({ description: "Counts as a woman's category." }),
        junior: z.boolean().meta({ description: "Counts as a junior category." }),
      }),
    ),
    women: group.meta({ description: "How many riders of the women's categories a team has." }),
    juniors: group.meta({ description: "How many riders of the junior categories a team has." }),
    points: z.object({
      first: apiInt(),
      second: apiInt(),
      third: apiInt(),
      topTen: apiInt().meta({ description: "4th to 10th." }),
      finisher: apiInt().meta({ description: "Any other finisher." }),
      none: apiInt().meta({ description: "DNF, DNS or DSQ." }),
    }),
    lockHours: apiInt().meta({ description: "Teams lock this many hours before a round starts." }),
    pricing: z.object({ min: apiInt(), max: apiInt() }),
    captain: z.boolean().meta({
      description: "Each team names a captain whose points count double.",
    }),
    transfers: z
      .object({
        free: apiInt().meta({ description: "Free changes a round." }),
        bank: apiInt().meta({ description: "Unused free changes kept, at most." }),
        cost: apiInt().meta({ description: "Points each extra change costs." }),
      })
      .nullable()
      .meta({ description: "Limited changes between rounds; null: unlimited." }),
    wildcard: z.boolean().meta({
      description: "Once per competition, one round's changes are all free.",
    }),
    bench: z.boolean().meta({
      description:
        "A team may hold one more rider on the bench, who scores for a starter who does not start.",
    }),
  }),
);

export const apiCompetitionRoundSchema = named(
  "CompetitionRound",
  z.object({
    id: apiInt().meta({ description: "The round's event id (`/events/{id}/racers`)." }),
    round: apiInt().nullable(),
    name: z.string(),
    location: z.string(),
    status: z.enum(EVENT_STATUSES),
    startsAt: z.iso.datetime(),
    locksAt: z.iso.datetime(),
    settled: z.boolean().meta({ description: "Results are in and scored." }),
    provisional: z.boolean().meta({
      description:
        "The results are provisional (coming in while the race runs): points and ranks may still move until the final results. `GET /events/{id}/live` streams each change.",
    }),
  }),
);

export const apiCompetitionSchema = named(
  "Competition",
  z.object({
    slug: z.string(),
    name: z.string(),
    discipline: z.enum(DISCIPLINES),
    season: z.string().meta({ description: "The year or season label; may be empty." }),
    state: z.enum(COMPETITION_STATES),
    cover: z.url(),
    logo: z.url(),
    description: z.string(),
    rules: apiCompetitionRulesSchema,
    rulesText: z
      .array(z.string())
      .meta({ description: "The rules in plain English, one sentence each." }),
    rulesFixed: z
      .boolean()
      .meta({ description: "The rules no longer change (a round has locked)." }),
    rounds: z.array(apiCompetitionRoundSchema),
  }),
);

export const apiCompetitionsResponseSchema = named(
  "CompetitionsResponse",
  z.object({ data: z.array(apiCompetitionSchema) }),
);
export const apiCompetitionResponseSchema = named(
  "CompetitionResponse",
  z.object({ data: apiCompetitionSchema }),
);

export type ApiCompetition = z.infer<typeof apiCompetitionSchema>;
export type ApiCompetitionsResponse = z.infer<typeof apiCompetitionsResponseSchema>;
export type ApiCompetitionResponse = z.infer<typeof apiCompetitionResponseSchema>;

/** The 200 answer of each endpoint, by its path in the OpenAPI document. */
export const API_RESPONSES = {
  "/events": apiEventsResponseSchema,
  "/events/{id}/racers": apiRacersResponseSchema,
  "/events/{id}/results": apiResultsResponseSchema,
  "/racers/{id}/rounds": apiRacerRoundsResponseSchema,
  "/rankings/players": apiPlayerRankingsResponseSchema,
  "/rankings/leagues": apiLeagueRankingsResponseSchema,
  "/teams/{username}": apiTeamResponseSchema,
  "/competitions": apiCompetitionsResponseSchema,
  "/competitions/{slug}": apiCompetitionResponseSchema,
} as const;

/** The `#/components/schemas/...` reference of a named API schema. */
export function apiSchemaRef(schema: z.ZodType): { $ref: string } {
  const id = apiSchemaRegistry.get(schema)?.id;
  if (!id) throw new Error("Not a named API schema.");
  return { $ref: `#/components/schemas/${id}` };
}

type JsonSchema = Record<string, unknown>;

/** Drops what zod adds for its own checks but a reader of the document never needs. */
function tidy(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) tidy(item);
    return;
  }
  if (!node || typeof node !== "object") return;
  const o = node as JsonSchema;
  // Every JSON integer of the API fits; the safe-integer bounds zod writes say nothing.
  if (o.minimum === Number.MIN_SAFE_INTEGER) delete o.minimum;
  if (o.maximum === Number.MAX_SAFE_INTEGER) delete o.maximum;
  // `format: date-time` already says it; zod's pattern is a 300-character regular expression.
  if (o.format === "date-time") delete o.pattern;
  // Clients must tolerate new fields, so the document does not forbid them (the API's own tests
  // check the answers have exactly these keys).
  delete o.additionalProperties;
  for (const value of Object.values(o)) tidy(value);
  // `{ anyOf: [{ type: "integer" }, { type: "null" }] }` reads better as `type: ["integer", "null"]`.
  const anyOf = o.anyOf as JsonSchema[] | undefined;
  if (anyOf?.length === 2 && anyOf.every((s) => Object.keys(s).join() === "type")) {
    delete o.anyOf;
    o.type = anyOf.map((s) => s.type);
  }
}

/**
 * The JSON Schemas (2020-12, as OpenAPI 3.1 uses) of every named API schema, for
 * `components.schemas`, with `$ref`s between them.
 */
export function apiJsonSchemas(): Record<string, JsonSchema> {
  const { schemas } = z.toJSONSchema(apiSchemaRegistry, {
    uri: (id) => `#/components/schemas/${id}`,
  });
  const out: Record<string, JsonSchema> = {};
  for (const [id, schema] of Object.entries(schemas)) {
    const { $schema: _schema, $id: _id, ...rest } = schema as JsonSchema;
    tidy(rest);
    out[id] = rest;
  }
  return out;
}
