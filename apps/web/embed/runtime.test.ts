/**
 * The embed's client answers a widget's first requests from the hello's data (decision 0182):
 * each answer as many times as the hello's widgets planned it, never again, and never late (the
 * loader hands each hello's data to the runtime once).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { addFirstData, FIRST_DATA_MS, fetchFirst } from "./runtime";

const BASE = "https://game.example";
const network = vi.fn(async (_url: RequestInfo | URL) => new Response('{"from":"network"}'));

beforeEach(() => {
  vi.useFakeTimers();
  vi.stubGlobal("fetch", network);
  network.mockClear();
});
afterEach(() => {
  // Whatever a test left unused expires before the next one.
  vi.advanceTimersByTime(FIRST_DATA_MS);
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const get = async (path: string) => (await fetchFirst(BASE)(`${BASE}${path}`)).json();

describe("the hello's first answers", () => {
  it("answer each planned request as often as planned, then the network answers", async () => {
    addFirstData({ "/api/v1/events/5/racers": [200, { data: ["hello"] }, 2] });
    expect(await get("/api/v1/events/5/racers")).toEqual({ data: ["hello"] });
    expect(await get("/api/v1/events/5/racers")).toEqual({ data: ["hello"] });
    expect(await get("/api/v1/events/5/racers")).toEqual({ from: "network" });
    expect(network).toHaveBeenCalledTimes(1);
    // Another path, or the same one with another query, was never answered by the hello.
    expect(await get("/api/v1/events/5/racers?category=pro-men")).toEqual({ from: "network" });
  });

  it("keep the refusals a widget explains, with their status", async () => {
    addFirstData({ "/api/v1/teams/ghost": [404, { error: { code: "player_not_found" } }, 1] });
    const res = await fetchFirst(BASE)(`${BASE}/api/v1/teams/ghost`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { code: "player_not_found" } });
  });

  it("leave when no widget asked for them in time", async () => {
    addFirstData({ "/api/v1/rankings/leagues?page=1": [200, { page: 1 }, 1] });
    vi.advanceTimersByTime(FIRST_DATA_MS);
    expect(await get("/api/v1/rankings/leagues?page=1")).toEqual({ from: "network" });
  });
});
