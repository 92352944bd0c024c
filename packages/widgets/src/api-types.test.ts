/**
 * The API's answers as the widgets declare them must be exactly what the rules package's zod
 * schemas of the API say (the schemas the server's answers and its OpenAPI document come from).
 * Checked by the type checker: each pair must be assignable both ways. Only types are imported,
 * so the published package still never needs @game/core.
 */
import type * as core from "@game/core";
import { describe, expect, expectTypeOf, it } from "vitest";
import { racers } from "./fixtures.js";
import type * as widgets from "./types.js";

describe("the widgets' API types match @game/core's schemas of the API", () => {
  it("are assignable both ways, answer by answer", () => {
    expectTypeOf<widgets.ApiEvent>().toExtend<core.ApiEvent>();
    expectTypeOf<core.ApiEvent>().toExtend<widgets.ApiEvent>();
    expectTypeOf<widgets.ApiRacer>().toExtend<core.ApiRacer>();
    expectTypeOf<core.ApiRacer>().toExtend<widgets.ApiRacer>();
    expectTypeOf<widgets.RaceResult>().toExtend<core.ApiRaceResult>();
    expectTypeOf<core.ApiRaceResult>().toExtend<widgets.RaceResult>();
    expectTypeOf<widgets.ApiPlayerRanking>().toExtend<core.ApiPlayerRanking>();
    expectTypeOf<core.ApiPlayerRanking>().toExtend<widgets.ApiPlayerRanking>();
    expectTypeOf<widgets.ApiLeagueRanking>().toExtend<core.ApiLeagueRanking>();
    expectTypeOf<core.ApiLeagueRanking>().toExtend<widgets.ApiLeagueRanking>();
    expectTypeOf<widgets.ApiTeam>().toExtend<core.ApiTeam>();
    expectTypeOf<core.ApiTeam>().toExtend<widgets.ApiTeam>();
    expectTypeOf<widgets.ApiErrorBody>().toExtend<core.ApiError>();
    expectTypeOf<core.ApiError>().toExtend<widgets.ApiErrorBody>();

    expectTypeOf<widgets.EventsResponse>().toExtend<core.ApiEventsResponse>();
    expectTypeOf<core.ApiEventsResponse>().toExtend<widgets.EventsResponse>();
    expectTypeOf<widgets.RacersResponse>().toExtend<core.ApiRacersResponse>();
    expectTypeOf<core.ApiRacersResponse>().toExtend<widgets.RacersResponse>();
    expectTypeOf<widgets.ResultsResponse>().toExtend<core.ApiResultsResponse>();
    expectTypeOf<core.ApiResultsResponse>().toExtend<widgets.ResultsResponse>();
    expectTypeOf<widgets.PlayerRankingsResponse>().toExtend<core.ApiPlayerRankingsResponse>();
    expectTypeOf<core.ApiPlayerRankingsResponse>().toExtend<widgets.PlayerRankingsResponse>();
    expectTypeOf<widgets.LeagueRankingsResponse>().toExtend<core.ApiLeagueRankingsResponse>();
    expectTypeOf<core.ApiLeagueRankingsResponse>().toExtend<widgets.LeagueRankingsResponse>();
    expectTypeOf<widgets.TeamResponse>().toExtend<core.ApiTeamResponse>();
    expectTypeOf<core.ApiTeamResponse>().toExtend<widgets.TeamResponse>();
    expectTypeOf<core.ApiCategorySlug>().toEqualTypeOf<widgets.CategorySlug>();
  });

  it("lets an API answer go straight into the lenient component types", () => {
    expectTypeOf<widgets.ApiRacer>().toExtend<widgets.Racer>();
    expectTypeOf<widgets.ApiEvent>().toExtend<widgets.GameEvent>();
    expectTypeOf<widgets.ApiTeam>().toExtend<widgets.Team>();
    // A runtime line too, so the file is a test vitest runs, not only a type check.
    const list: widgets.Racer[] = racers;
    expect(list.length).toBeGreaterThan(0);
  });
});
