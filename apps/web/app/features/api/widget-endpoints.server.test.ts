/**
 * The hello answers widgets' first requests with these endpoints (decision 0182): each path must
 * reach the very loader its `/api/v1` route serves, with the router's parameters.
 */
import { describe, expect, it } from "vitest";
import * as events from "../../routes/api.v1.events";
import * as racers from "../../routes/api.v1.events.$id.racers";
import * as leagues from "../../routes/api.v1.rankings.leagues";
import * as players from "../../routes/api.v1.rankings.players";
import * as teams from "../../routes/api.v1.teams.$username";
import { widgetEndpoint } from "./widget-endpoints.server";

describe("widgetEndpoint", () => {
  it.each([
    ["/api/v1/events", events.loader, {}],
    ["/api/v1/events/5/racers", racers.loader, { id: "5" }],
    ["/api/v1/rankings/players", players.loader, {}],
    ["/api/v1/rankings/leagues", leagues.loader, {}],
    ["/api/v1/teams/trail%20boss", teams.loader, { username: "trail boss" }],
  ])("serves %s with its route's loader", (path, loader, params) => {
    expect(widgetEndpoint(path)).toEqual({ loader, params });
  });

  it("serves no other path", () => {
    for (const path of [
      "/api/v1/events/5/results",
      "/api/v1/events/5/racers/extra",
      "/api/v1/teams/a/b",
      "/api/v1/teams/%E0%A4%A",
      "/api/v1/competitions",
      "/embed/v1/hello",
    ]) {
      expect(widgetEndpoint(path), path).toBeUndefined();
    }
  });
});
