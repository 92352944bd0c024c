import { act, render, renderHook, screen, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { describe, expect, it, vi } from "vitest";
import { createGameClient, type GameClient } from "./client.js";
import { racers } from "./fixtures.js";
import {
  GravityProvider,
  useEvents,
  useGameClient,
  useLeagueRankings,
  usePlayerRankings,
  useRacers,
  useTeam,
} from "./hooks.js";
import { useLiveScores } from "./live-scores.js";
import { RacerTable } from "./racer-table.js";

/** A fetch that answers when told to, and records aborts. */
function controllableFetch() {
  const calls: {
    url: string;
    signal?: AbortSignal;
    resolve: (body: unknown, status?: number) => void;
  }[] = [];
  const fetch = vi.fn(
    (url: string | URL | Request, init?: RequestInit) =>
      new Promise<Response>((resolve, reject) => {
        const signal = init?.signal ?? undefined;
        signal?.addEventListener("abort", () =>
          reject(new DOMException("The operation was aborted.", "AbortError")),
        );
        calls.push({
          url: String(url),
          signal,
          resolve: (body, status = 200) => resolve(new Response(JSON.stringify(body), { status })),
        });
      }),
  );
  return { fetch, calls };
}

/** renderHook's wrapper: the one provider the hooks read their client from. */
const provide = (client: GameClient) => ({
  wrapper: ({ children }: { children: ReactNode }) => (
    <GravityProvider client={client}>{children}</GravityProvider>
  ),
});

function Racers() {
  const { data, loading, error } = useRacers(5);
  return <RacerTable racers={data?.data ?? []} loading={loading} error={error} />;
}

describe("hooks", () => {
  it("useRacers starts loading, then returns the data", async () => {
    const { fetch, calls } = controllableFetch();
    const client = createGameClient({ baseUrl: "", fetch });
    const { result } = renderHook(() => useRacers(5, "Pro Men"), provide(client));
    expect(result.current.loading).toBe(true);
    expect(calls[0]!.url).toBe("/api/v1/events/5/racers?category=pro-men");
    await act(async () => calls[0]!.resolve({ data: racers, eventId: 5, category: "pro-men" }));
    expect(result.current.loading).toBe(false);
    expect(result.current.data?.data).toHaveLength(racers.length);
  });

  it("aborts the previous request when the arguments change, and keeps old data meanwhile", async () => {
    const { fetch, calls } = controllableFetch();
    const client = createGameClient({ baseUrl: "", fetch });
    const { result, rerender } = renderHook(({ page }) => usePlayerRankings({ event: 5, page }), {
      initialProps: { page: 1 },
      ...provide(client),
    });
    await act(async () => calls[0]!.resolve({ data: [{ rank: 1 }], page: 1, pageCount: 3 }));
    rerender({ page: 2 });
    rerender({ page: 3 });
    expect(calls.map((c) => c.url)).toEqual([
      "/api/v1/rankings/players?event=5&page=1",
      "/api/v1/rankings/players?event=5&page=2",
      "/api/v1/rankings/players?event=5&page=3",
    ]);
    expect(calls[1]!.signal!.aborted).toBe(true);
    expect(calls[2]!.signal!.aborted).toBe(false);
    expect(result.current.loading).toBe(true);
    expect(result.current.data?.page).toBe(1);
    await act(async () => calls[2]!.resolve({ data: [], page: 3, pageCount: 3 }));
    expect(result.current.data?.page).toBe(3);
  });

  it("aborts on unmount", () => {
    const { fetch, calls } = controllableFetch();
    const client = createGameClient({ baseUrl: "", fetch });
    const { unmount } = renderHook(() => useLeagueRankings({ page: 1 }), provide(client));
    unmount();
    expect(calls[0]!.signal!.aborted).toBe(true);
  });

  it("reports errors and reloads", async () => {
    const { fetch, calls } = controllableFetch();
    const client = createGameClient({ baseUrl: "", fetch });
    const { result } = renderHook(() => useEvents(), provide(client));
    await act(async () =>
      calls[0]!.resolve({ error: { code: "boom", message: "Events unavailable" } }, 500),
    );
    expect(result.current.error?.message).toBe("Events unavailable");
    expect(result.current.loading).toBe(false);
    act(() => result.current.reload());
    expect(calls).toHaveLength(2);
    await act(async () => calls[1]!.resolve({ data: [] }));
    expect(result.current.error).toBeUndefined();
    expect(result.current.data).toEqual({ data: [] });
  });

  it("does nothing without a username, or when told not to", () => {
    const getTeam = vi.fn();
    const getEvents = vi.fn();
    const client = { baseUrl: "", getTeam, getEvents } as unknown as GameClient;
    const { result } = renderHook(() => useTeam(undefined, 5), provide(client));
    expect(result.current.loading).toBe(false);
    expect(getTeam).not.toHaveBeenCalled();
    const { result: none } = renderHook(() => useEvents({ enabled: false }), provide(client));
    expect(none.current.loading).toBe(false);
    expect(getEvents).not.toHaveBeenCalled();
  });

  it("read the client from the nearest provider, and say how to add one when it is missing", () => {
    const client = createGameClient({ baseUrl: "https://game.example" });
    const { result } = renderHook(() => useGameClient(), provide(client));
    expect(result.current).toBe(client);
    const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
    expect(() => renderHook(() => useEvents())).toThrow(
      "Gravity Fantasy hooks need a client: wrap them in <GravityProvider client={createGameClient({ baseUrl })}>.",
    );
    quiet.mockRestore();
  });

  it("makes portraits absolute from the provider's baseUrl, without imageBase", () => {
    const client = createGameClient({ baseUrl: "https://game.example/" });
    const { container } = render(
      <GravityProvider client={client}>
        <RacerTable racers={racers} category="Pro Men" />
      </GravityProvider>,
    );
    const srcs = [...container.querySelectorAll("img")].map((i) => i.getAttribute("src"));
    expect(srcs.length).toBeGreaterThan(0);
    for (const src of srcs) expect(src).toMatch(/^https:\/\/game\.example\/img\/racer_portrait\//);
    // An explicit imageBase still wins.
    const { container: own } = render(
      <GravityProvider client={client}>
        <RacerTable racers={racers} category="Pro Men" imageBase="https://cdn.example" />
      </GravityProvider>,
    );
    expect(own.querySelector("img")?.getAttribute("src")).toMatch(/^https:\/\/cdn\.example\/img\//);
  });

  it("feeds a widget", async () => {
    const { fetch, calls } = controllableFetch();
    const client = createGameClient({ baseUrl: "", fetch });
    render(
      <GravityProvider client={client}>
        <Racers />
      </GravityProvider>,
    );
    expect(screen.getByRole("status")).toBeTruthy();
    await act(async () => calls[0]!.resolve({ data: racers, eventId: 5, category: null }));
    await waitFor(() => expect(screen.getByText("Loic Bruni")).toBeTruthy());
  });
});

/** The browser's EventSource, at the edge of the network: events are sent by the test. */
class FakeEventSource {
  static opened: FakeEventSource[] = [];
  closed = false;
  private listeners: ((e: MessageEvent<string>) => void)[] = [];
  constructor(readonly url: string) {
    FakeEventSource.opened.push(this);
  }
  addEventListener(type: string, listener: (e: MessageEvent<string>) => void) {
    if (type === "scores") this.listeners.push(listener);
  }
  close() {
    this.closed = true;
  }
  send(state: { version: string; live: boolean }) {
    const e = new MessageEvent("scores", { data: JSON.stringify(state) });
    for (const l of this.listeners) l(e);
  }
}

describe("useLiveScores", () => {
  it("reloads after each change of a live round's scores, and stops when it is final", async () => {
    vi.useFakeTimers();
    vi.stubGlobal("EventSource", FakeEventSource);
    try {
      const client = createGameClient({ baseUrl: "https://game.example", fetch: vi.fn() });
      const onChange = vi.fn();
      const { unmount } = renderHook(() => useLiveScores(5, onChange), provide(client));
      const source = FakeEventSource.opened.at(-1)!;
      expect(source.url).toBe("https://game.example/api/v1/events/5/live");
      // The first event is what the widget shows already.
      source.send({ version: "0", live: true });
      vi.advanceTimersByTime(3000);
      expect(onChange).not.toHaveBeenCalled();
      source.send({ version: "100p", live: true });
      vi.advanceTimersByTime(3000);
      expect(onChange).toHaveBeenCalledTimes(1);
      // The same version again (a reconnect) changes nothing.
      source.send({ version: "100p", live: true });
      vi.advanceTimersByTime(3000);
      expect(onChange).toHaveBeenCalledTimes(1);
      source.send({ version: "200", live: false });
      expect(source.closed).toBe(true);
      vi.advanceTimersByTime(3000);
      expect(onChange).toHaveBeenCalledTimes(2);
      unmount();
    } finally {
      vi.unstubAllGlobals();
      vi.useRealTimers();
    }
  });

  it("follows nothing without an event", () => {
    vi.stubGlobal("EventSource", FakeEventSource);
    try {
      const before = FakeEventSource.opened.length;
      const client = createGameClient({ baseUrl: "", fetch: vi.fn() });
      renderHook(() => useLiveScores(null, () => {}), provide(client));
      expect(FakeEventSource.opened.length).toBe(before);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
