/**
 * The public API's competition answers (`/api/v1/competitions`, `/api/v1/competitions/{slug}`),
 * as zod schemas registered with core's `apiSchemaRegistry`, so the OpenAPI document's
 * `components.schemas` includes them and the routes are typed by them, like every other answer
 * (docs/decisions/0120). They belong beside the others in `@game/core`'s `public-api.ts`.
 */
import { apiSchemaRegistry, COMPETITION_STATES, DISCIPLINES, EVENT_STATUSES } from "@game/core";
import { z } from "zod";

/** Registers `schema` under `id`, replacing what a reload of this module registered before. */
function named<T extends z.ZodType>(id: string, schema: T): T {
  const before = apiSchemaRegistry._idmap.get(id);
  if (before) apiSchemaRegistry.remove(before);
  apiSchemaRegistry.add(schema as z.ZodType, { id });
  return schema;
}

const int = () => z.number().int();
const group = z.object({
  min: int(),
  max: int().nullable().meta({ description: "Null: no maximum." }),
});

export const apiCompetitionRulesSchema = named(
  "CompetitionRules",
  z.object({
    teamSize: int().meta({ description: "Riders per team." }),
    budget: int().meta({ description: "Whole (fake) dollars a new team may spend." }),
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
      first: int(),
      second: int(),
      third: int(),
      topTen: int().meta({ description: "4th to 10th." }),
      finisher: int().meta({ description: "Any other finisher." }),
      none: int().meta({ description: "DNF, DNS or DSQ." }),
    }),
    lockHours: int().meta({ description: "Teams lock this many hours before a round starts." }),
    pricing: z.object({ min: int(), max: int() }),
  }),
);

export const apiCompetitionRoundSchema = named(
  "CompetitionRound",
  z.object({
    id: int().meta({ description: "The round's event id (`/events/{id}/racers`)." }),
    round: int().nullable(),
    name: z.string(),
    location: z.string(),
    status: z.enum(EVENT_STATUSES),
    startsAt: z.iso.datetime(),
    locksAt: z.iso.datetime(),
    settled: z.boolean().meta({ description: "Results are in and scored." }),
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

/** The 200 answers of the competition endpoints, by their path in the OpenAPI document. */
export const COMPETITION_API_RESPONSES = {
  "/competitions": apiCompetitionsResponseSchema,
  "/competitions/{slug}": apiCompetitionResponseSchema,
} as const;
