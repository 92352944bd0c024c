/**
 * The embed script's origin check and the partner stats it feeds: widget loads counted per
 * partner origin, public API calls from a partner's page counted, nothing for other callers.
 */
import { getPartnerStats, partners } from "@game/db";
import { createTestDb, type DbHandle } from "@game/db/testing";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { testContext } from "../../tests/support/context";
import { MAX_WIDGETS_PER_HELLO } from "../features/embed/hello.server";
import { partnerStatsCounter } from "../utils/partner-stats.server";
import { loader as eventsApi } from "./api.v1.events";
import { loader as hello } from "./embed.v1.hello";

let h: DbHandle;
let ctx: ReturnType<typeof testContext> & { onClose(fn: () => Promise<void>): void };
/** What the server would run at shutdown, before closing the database. */
const closers: (() => Promise<void>)[] = [];
let partnerId: number;
let pausedId: number;

beforeAll(async () => {
  h = await createTestDb({ seed: true });
  ctx = { ...testContext(h.db), onClose: (fn) => void closers.push(fn) };
  const rows = await h.db
    .insert(partners)
    .values([
      { name: "Hello Site", publishableKey: "pk_hello", origins: ["https://hello.example"] },
      {
        name: "Paused Site",
        publishableKey: "pk_paused",
        origins: ["https://paused.example"],
        disabledAt: new Date(),
      },
    ])
    .returning({ id: partners.id });
  partnerId = rows[0]!.id;
  pausedId = rows[1]!.id;
});
afterAll(async () => {
  await partnerStatsCounter(ctx).stop();
  await h.close();
});

function args(path: string, origin?: string, key?: string): LoaderFunctionArgs {
  const headers = new Headers(origin ? { Origin: origin } : {});
  if (key) headers.set("X-Partner-Key", key);
  return {
    request: new Request(`http://localhost${path}`, { headers }),
    context: ctx,
    params: {},
  } as LoaderFunctionArgs;
}

async function today(id: number) {
  await partnerStatsCounter(ctx).flush();
  const [report] = await getPartnerStats(h.db, { partnerId: id, days: 1 });
  return report!.days[0]!;
}

describe("GET /embed/v1/hello", () => {
  it("says yes to a partner's origin, readable from anywhere, never cached, and counts widgets", async () => {
    const before = (await today(partnerId)).widgetLoads;
    const res = await hello(args("/embed/v1/hello?n=3", "https://hello.example"));
    expect(res.status).toBe(200);
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(await res.json()).toEqual({ allowed: true });
    await hello(args("/embed/v1/hello", "https://hello.example"));
    await hello(args("/embed/v1/hello?n=5000", "https://hello.example"));
    await hello(args("/embed/v1/hello?n=abc", "https://hello.example"));
    expect((await today(partnerId)).widgetLoads).toBe(before + 3 + 1 + MAX_WIDGETS_PER_HELLO + 1);
  });

  it("says no, naming the origin, to an unlisted or paused partner's origin, and counts nothing", async () => {
    for (const origin of ["https://stranger.example", "https://paused.example", "null"]) {
      const res = await hello(args("/embed/v1/hello?n=2", origin));
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ allowed: false, origin });
    }
    expect((await today(pausedId)).widgetLoads).toBe(0);
  });

  it("says yes to the game's own pages (same origin, or no Origin header)", async () => {
    expect(await (await hello(args("/embed/v1/hello"))).json()).toEqual({ allowed: true });
    expect(await (await hello(args("/embed/v1/hello", "http://localhost"))).json()).toEqual({
      allowed: true,
    });
  });
});

describe("public API calls", () => {
  it("are counted for the partner whose page made them, not for others", async () => {
    const before = (await today(partnerId)).apiCalls;
    for (const origin of ["https://hello.example", "https://hello.example", undefined]) {
      const res = await eventsApi(args("/api/v1/events", origin));
      expect(res.status).toBe(200);
    }
    await eventsApi(args("/api/v1/events", "https://stranger.example"));
    await eventsApi(args("/api/v1/events", "https://paused.example"));
    // The count is taken beside the answer, not before it: wait for it to land.
    await vi.waitFor(async () => expect((await today(partnerId)).apiCalls).toBe(before + 2), {
      timeout: 5000,
    });
    expect((await today(pausedId)).apiCalls).toBe(0);
  });

  it("from a partner's server are counted by the key it sends", async () => {
    const before = (await today(partnerId)).apiCalls;
    const res = await eventsApi(args("/api/v1/events", undefined, "pk_hello"));
    expect(res.status).toBe(200);
    await vi.waitFor(async () => expect((await today(partnerId)).apiCalls).toBe(before + 1), {
      timeout: 5000,
    });
  });
});

describe("shutdown", () => {
  it("writes the counts still in memory before the database closes", async () => {
    const before = (await today(partnerId)).widgetLoads;
    const res = await hello(args("/embed/v1/hello?n=2", "https://hello.example"));
    expect(res.status).toBe(200);
    // What the server does on SIGTERM: no flush by hand here.
    expect(closers).toHaveLength(1);
    await Promise.all(closers.map((close) => close()));
    const [report] = await getPartnerStats(h.db, { partnerId, days: 1 });
    expect(report!.days[0]!.widgetLoads).toBe(before + 2);
  });
});
