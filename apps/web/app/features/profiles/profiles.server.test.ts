import type { PickCounter } from "@game/db";
import { describe, expect, it, vi } from "vitest";
import { cachedPickCounter, PICK_COUNTS_TTL_MS } from "./profiles.server";

function counting() {
  let n = 0;
  const counter = {
    picks: vi.fn(async (_racerId: number) => ++n),
    teams: vi.fn(async (_eventId: number) => 1000 + ++n),
  } satisfies PickCounter;
  return counter;
}

describe("cachedPickCounter", () => {
  it("reuses a count for the TTL, then counts again", async () => {
    let t = 0;
    const inner = counting();
    const cached = cachedPickCounter(inner, { now: () => t });
    expect(await cached.picks(7)).toBe(1);
    expect(await cached.teams(5)).toBe(1002);
    t = PICK_COUNTS_TTL_MS - 1;
    expect(await cached.picks(7)).toBe(1);
    expect(await cached.teams(5)).toBe(1002);
    // Racers and events are kept apart even with the same id.
    expect(await cached.picks(5)).toBe(3);
    t = PICK_COUNTS_TTL_MS;
    expect(await cached.picks(7)).toBe(4);
    expect(inner.picks).toHaveBeenCalledTimes(3);
    expect(inner.teams).toHaveBeenCalledTimes(1);
  });

  it("shares a count still running and forgets a failed one", async () => {
    let fail = true;
    const inner = {
      picks: vi.fn(async () => {
        if (fail) throw new Error("database away");
        return 3;
      }),
      teams: vi.fn(async () => 10),
    };
    const cached = cachedPickCounter(inner);
    const [a, b] = await Promise.allSettled([cached.picks(1), cached.picks(1)]);
    expect(a.status).toBe("rejected");
    expect(b.status).toBe("rejected");
    expect(inner.picks).toHaveBeenCalledTimes(1);
    fail = false;
    expect(await cached.picks(1)).toBe(3);
    expect(inner.picks).toHaveBeenCalledTimes(2);
  });

  it("keeps at most `max` counts, dropping the oldest", async () => {
    const inner = counting();
    const cached = cachedPickCounter(inner, { max: 2 });
    await cached.picks(1);
    await cached.picks(2);
    await cached.picks(3);
    await cached.picks(3);
    await cached.picks(2);
    expect(inner.picks).toHaveBeenCalledTimes(3);
    await cached.picks(1);
    expect(inner.picks).toHaveBeenCalledTimes(4);
  });
});
