import { describe, expect, it, vi } from "vitest";
import { createGameClient, GameApiError, toCategorySlug } from "./client.js";

function fakeFetch(status: number, body: unknown) {
  return vi.fn(
    async (_url: string | URL | Request, _init?: RequestInit) =>
      new Response(typeof body === "string" ? body : JSON.stringify(body), {
        status,
        headers: { "content-type": "application/json" },
      }),
  );
}

describe("createGameClient", () => {
  it("builds every endpoint URL", async () => {
    const fetch = fakeFetch(200, { data: [] });
    const client = createGameClient({ baseUrl: "https://game.example/", fetch });
    await client.getEvents();
    await client.getEvents({ competition: "xc cup/2028" });
    await client.getRacers(5, { category: "Pro Women" });
    await client.getRacers(5, { category: "junior-men" });
    await client.getRacers("5");
    await client.getPlayerRankings({ event: 5, page: 2 });
    await client.getPlayerRankings();
    await client.getLeagueRankings({ page: 3 });
    await client.getPlayerRankings({ competition: "xc-2028", page: 2 });
    await client.getLeagueRankings({ competition: "xc-2028" });
    await client.getTeam("jo hn", { event: 5 });
    expect(fetch.mock.calls.map((c) => c[0])).toEqual([
      "https://game.example/api/v1/events",
      "https://game.example/api/v1/events?competition=xc%20cup%2F2028",
      "https://game.example/api/v1/events/5/racers?category=pro-women",
      "https://game.example/api/v1/events/5/racers?category=junior-men",
      "https://game.example/api/v1/events/5/racers",
      "https://game.example/api/v1/rankings/players?event=5&page=2",
      "https://game.example/api/v1/rankings/players",
      "https://game.example/api/v1/rankings/leagues?page=3",
      "https://game.example/api/v1/rankings/players?competition=xc-2028&page=2",
      "https://game.example/api/v1/rankings/leagues?competition=xc-2028",
      "https://game.example/api/v1/teams/jo%20hn?event=5",
    ]);
    expect(fetch.mock.calls[0]![1]).toMatchObject({
      method: "GET",
      headers: { accept: "application/json" },
    });
  });

  it("asks for results and page sizes, and sends a partner key as X-Partner-Key", async () => {
    const fetch = fakeFetch(200, { data: [] });
    const client = createGameClient({ baseUrl: "https://game.example", fetch, partnerKey: "pk_1" });
    await client.getResults(5);
    await client.getResults("5", { category: "Pro Men" });
    await client.getPlayerRankings({ page: 2, pageSize: 100 });
    await client.getLeagueRankings({ pageSize: 10 });
    expect(fetch.mock.calls.map((c) => c[0])).toEqual([
      "https://game.example/api/v1/events/5/results",
      "https://game.example/api/v1/events/5/results?category=pro-men",
      "https://game.example/api/v1/rankings/players?page=2&pageSize=100",
      "https://game.example/api/v1/rankings/leagues?pageSize=10",
    ]);
    expect(fetch.mock.calls[0]![1]).toMatchObject({
      headers: { accept: "application/json", "X-Partner-Key": "pk_1" },
    });
    const anonymous = fakeFetch(200, { data: [] });
    await createGameClient({ baseUrl: "", fetch: anonymous }).getResults(5);
    expect(anonymous.mock.calls[0]![1]!.headers).not.toHaveProperty("X-Partner-Key");
  });

  it("supports same-origin calls, headers, credentials and abort signals", async () => {
    const fetch = fakeFetch(200, { data: [] });
    const controller = new AbortController();
    const client = createGameClient({
      baseUrl: "",
      fetch,
      headers: { "x-partner": "abc" },
      credentials: "include",
    });
    await client.getEvents({ signal: controller.signal });
    expect(fetch.mock.calls[0]![0]).toBe("/api/v1/events");
    expect(fetch.mock.calls[0]![1]).toMatchObject({
      credentials: "include",
      signal: controller.signal,
      headers: { "x-partner": "abc", accept: "application/json" },
    });
  });

  it("returns the JSON body", async () => {
    const body = { data: [{ rank: 1, username: "a", points: 3 }], page: 1, pageCount: 1 };
    const client = createGameClient({ baseUrl: "", fetch: fakeFetch(200, body) });
    await expect(client.getPlayerRankings()).resolves.toEqual(body);
  });

  it("throws GameApiError with the API's code and message", async () => {
    const client = createGameClient({
      baseUrl: "",
      fetch: fakeFetch(404, { error: { code: "not_found", message: "Game not found." } }),
    });
    const error = await client.getRacers(99).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GameApiError);
    expect(error).toMatchObject({ status: 404, code: "not_found", message: "Game not found." });
  });

  it("throws on non-JSON answers", async () => {
    const client = createGameClient({ baseUrl: "", fetch: fakeFetch(502, "<html>Bad gateway") });
    await expect(client.getEvents()).rejects.toMatchObject({ status: 502, code: "http_502" });
  });

  it("uses the global fetch at call time by default", async () => {
    const fetch = fakeFetch(200, { data: [] });
    const client = createGameClient({ baseUrl: "" });
    vi.stubGlobal("fetch", fetch);
    try {
      await client.getEvents();
    } finally {
      vi.unstubAllGlobals();
    }
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it("maps category names to slugs", () => {
    expect(toCategorySlug("17-18 Women")).toBe("junior-women");
    expect(toCategorySlug("pro-men")).toBe("pro-men");
  });
});
