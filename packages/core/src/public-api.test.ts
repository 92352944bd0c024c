import { describe, expect, it } from "vitest";
import {
  API_RESPONSES,
  apiJsonSchemas,
  apiRacerSchema,
  apiSchemaRef,
  apiSchemaRegistry,
} from "./public-api.js";

function refsOf(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) for (const n of node) refsOf(n, out);
  else if (node && typeof node === "object") {
    for (const [k, v] of Object.entries(node)) {
      if (k === "$ref" && typeof v === "string") out.push(v);
      else refsOf(v, out);
    }
  }
  return out;
}

describe("the API's JSON Schemas, generated from the zod schemas", () => {
  const schemas = apiJsonSchemas();

  it("has one component per named schema, and every $ref resolves", () => {
    expect(Object.keys(schemas).sort()).toEqual(
      Object.values(API_RESPONSES)
        .map((s) => apiSchemaRegistry.get(s)!.id)
        .concat(["Category", "CategorySlug", "Error", "Event", "LeagueRanking"])
        .concat(["PlayerRanking", "RaceResult", "Racer", "RacerRound", "Team"])
        .concat(["Competition", "CompetitionRound", "CompetitionRules"])
        .sort(),
    );
    for (const ref of refsOf(schemas)) {
      expect(ref).toMatch(/^#\/components\/schemas\//);
      expect(schemas[ref.split("/").at(-1)!], ref).toBeDefined();
    }
    expect(apiSchemaRef(API_RESPONSES["/events"])).toEqual({
      $ref: "#/components/schemas/EventsResponse",
    });
  });

  it("requires every field of every answer, and keeps the descriptions", () => {
    for (const [id, s] of Object.entries(schemas)) {
      if (s.type !== "object") continue;
      expect((s.required as string[]).sort(), id).toEqual(
        Object.keys(s.properties as object).sort(),
      );
    }
    const racer = schemas.Racer as { properties: Record<string, { description?: string }> };
    expect(racer.properties.rank2024?.description).toBe("0 means unranked.");
    expect(racer.properties.previousPrice).toEqual({
      type: ["integer", "null"],
      description:
        "The racer's price in the previous round of the series (prices move with results); null in a first round.",
    });
    expect(JSON.stringify(schemas)).not.toMatch(/9007199254740991|"pattern"|\$schema/);
  });

  it("parses a real racer and refuses a wrong one", () => {
    const racer = {
      id: 1,
      category: "Pro Women",
      firstName: "Vali",
      lastName: "Höll",
      picture: null,
      origin: "AUT",
      gameId: 5,
      rank2024: 1,
      totalPoint2024: 900,
      price: 300000,
      previousPrice: null,
      pickedByPercent: 23.4,
    };
    expect(apiRacerSchema.parse(racer)).toEqual(racer);
    expect(apiRacerSchema.safeParse({ ...racer, category: "Elite" }).success).toBe(false);
    expect(apiRacerSchema.safeParse({ ...racer, price: 1.5 }).success).toBe(false);
    expect(apiRacerSchema.safeParse({ ...racer, pickedByPercent: 140 }).success).toBe(false);
    expect(apiRacerSchema.safeParse({ ...racer, pickedByPercent: null }).success).toBe(true);
  });
});
