/**
 * The embed script's origin check and the partner stats it feeds: widget loads counted per
 * partner origin, public API calls from a partner's page counted, nothing for other callers.
 */
import { getPartnerStats, partners } from "@game/db";
import { createTestDb, type DbHandle } from "@game/db/testing";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { testContext } from "../../tests/support/context";
import { API_RATE_LIMIT } from "../features/api/partner-limits.server";
import {
  HELLO_RATE_LIMIT,
  MAX_DATA_WIDGETS,
  MAX_WIDGETS_PER_HELLO,
} from "../features/embed/hello.server";
import { partnerStatsCounter } from "../utils/partner-stats.server";
import { loader as eventsApi } from "./api.v1.events";
import { loader as racersApi } from "./api.v1.events.$id.racers";
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

function args(path: string, origin?: string, key?: string, clientIp?: string): LoaderFunctionArgs {
  const headers = new Headers(origin ? { Origin: origin } : {});
  if (key) headers.set("X-Partner-Key", key);
  return {
    request: new Request(`http://localhost${path}`, { headers }),
    context: clientIp ? { ...ctx, clientIp } : ctx,
    params: {},
  } as LoaderFunctionArgs;
}

/** A page-view id as the embed script draws one (32 hex digits). */
let views = 0;
const pageView = () => `${(++views).toString(16).padStart(8, "0")}${"ab".repeat(12)}`;

async function today(id: number) {
  await partnerStatsCounter(ctx).flush();
  const [report] = await getPartnerStats(h.db, { partnerId: id, days: 1 });
  return report!.days[0]!;
}

describe("GET /embed/v1/hello", () => {
  it("says yes to a partner's origin, readable from anywhere, never cached, and counts widgets", async () => {
    const before = (await today(partnerId)).widgetLoads;
    const res = await hello(args(`/embed/v1/hello?n=3&pv=${pageView()}`, "https://hello.example"));
    expect(res.status).toBe(200);
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(await res.json()).toEqual({ allowed: true });
    await hello(args(`/embed/v1/hello?pv=${pageView()}`, "https://hello.example"));
    await hello(args(`/embed/v1/hello?n=5000&pv=${pageView()}`, "https://hello.example"));
    await hello(args(`/embed/v1/hello?n=abc&pv=${pageView()}`, "https://hello.example"));
    expect((await today(partnerId)).widgetLoads).toBe(before + 3 + 1 + MAX_WIDGETS_PER_HELLO + 1);
  });

  it("counts a page view's widgets once, however often its hello comes", async () => {
    const before = (await today(partnerId)).widgetLoads;
    const pv = pageView();
    // The page's two widgets, then a third appearing later: the page's total so far each time.
    await hello(
      args(`/embed/v1/hello?n=2&pv=${pv}`, "https://hello.example", undefined, "198.51.100.1"),
    );
    await hello(
      args(`/embed/v1/hello?n=3&pv=${pv}`, "https://hello.example", undefined, "198.51.100.1"),
    );
    expect((await today(partnerId)).widgetLoads).toBe(before + 3);
    // The same page view replayed, from other addresses too, with any count: nothing more.
    for (let i = 0; i < 20; i++) {
      const res = await hello(
        args(
          `/embed/v1/hello?n=20&pv=${pv}`,
          "https://hello.example",
          undefined,
          `198.51.100.${i + 2}`,
        ),
      );
      expect(res.status).toBe(200);
    }
    expect((await today(partnerId)).widgetLoads).toBe(before + MAX_WIDGETS_PER_HELLO);
    // No page-view id (an old script, or a hand-made request): answered, not counted.
    expect(
      await (await hello(args("/embed/v1/hello?n=5", "https://hello.example"))).json(),
    ).toEqual({
      allowed: true,
    });
    await hello(args("/embed/v1/hello?n=5&pv=short", "https://hello.example"));
    expect((await today(partnerId)).widgetLoads).toBe(before + MAX_WIDGETS_PER_HELLO);
  });

  it("answers one address's hellos past the limit with a 429 that counts nothing", async () => {
    const before = (await today(partnerId)).widgetLoads;
    const ip = "203.0.113.9";
    const statuses: number[] = [];
    // The probe: 300 hellos with the partner's Origin from one address (a fresh page view each).
    for (let i = 0; i < 300; i++) {
      const res = await hello(
        args(`/embed/v1/hello?n=20&pv=${pageView()}`, "https://hello.example", undefined, ip),
      );
      statuses.push(res.status);
      if (res.status === 429) {
        expect(res.headers.get("Retry-After")).toMatch(/^\d+$/);
        expect(res.headers.get("Access-Control-Allow-Origin")).toBe("*");
        expect(await res.json()).toEqual({ error: expect.stringMatching(/^Too many requests/) });
      }
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(HELLO_RATE_LIMIT.limit);
    expect(statuses.slice(HELLO_RATE_LIMIT.limit).every((s) => s === 429)).toBe(true);
    expect((await today(partnerId)).widgetLoads).toBe(
      before + HELLO_RATE_LIMIT.limit * MAX_WIDGETS_PER_HELLO,
    );
    // Another address is not held up by this one.
    const other = await hello(
      args(
        `/embed/v1/hello?n=1&pv=${pageView()}`,
        "https://hello.example",
        undefined,
        "203.0.113.10",
      ),
    );
    expect(other.status).toBe(200);
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

/** The hello's `w` parameter for a widget: its element and attributes, as the script sends them. */
const w = (tag: string, attrs: Record<string, string> = {}) =>
  `&w=${encodeURIComponent(JSON.stringify([tag, attrs]))}`;

describe("the widgets' first data (docs/decisions/0182)", () => {
  it("comes with a partner's hello, as the API answers it, keyed by the request the widget makes", async () => {
    const ip = "192.0.2.40";
    const res = await hello(
      args(
        `/embed/v1/hello?n=3&pv=${pageView()}${w("gf-racer-table", { event: "5", category: "pro-women", "hide-tabs": "" })}${w("gf-racer-table")}${w("gf-team-grid", { username: "nobody-here" })}`,
        "https://hello.example",
        undefined,
        ip,
      ),
    );
    const body = (await res.json()) as {
      allowed: boolean;
      data: Record<string, [number, unknown]>;
    };
    expect(body.allowed).toBe(true);
    const racers = await racersApi({
      ...args("/api/v1/events/5/racers?category=pro-women", "https://hello.example"),
      params: { id: "5" },
    });
    expect(body.data["/api/v1/events/5/racers?category=pro-women"]).toEqual([
      200,
      await racers.json(),
      1,
    ]);
    // Without an event: the events, then the racers of the one the table shows.
    const events = (await (await eventsApi(args("/api/v1/events"))).json()) as {
      data: { id: number; status: string }[];
    };
    const open = events.data.find((e) => e.status === "open")!;
    expect(body.data["/api/v1/events"]).toEqual([200, events, 1]);
    expect(body.data[`/api/v1/events/${open.id}/racers`]?.[0]).toBe(200);
    // A refusal the widget explains comes too.
    expect(body.data["/api/v1/teams/nobody-here"]).toEqual([
      404,
      { error: { code: "player_not_found", message: expect.any(String) } },
      1,
    ]);
    expect(Object.keys(body.data)).toHaveLength(4);
  });

  it("is asked once for two widgets asking the same, and answers each of them", async () => {
    const ip = "192.0.2.43";
    const table = w("gf-racer-table", { event: "5", category: "pro-women" });
    const res = await hello(
      args(
        `/embed/v1/hello?n=2&pv=${pageView()}${table}${table}`,
        "https://hello.example",
        undefined,
        ip,
      ),
    );
    const body = (await res.json()) as { data: Record<string, [number, unknown, number]> };
    expect(Object.keys(body.data)).toEqual(["/api/v1/events/5/racers"]);
    expect(body.data["/api/v1/events/5/racers"]?.[2]).toBe(2);
    // One request against the quota, then this one.
    const after = await eventsApi(args("/api/v1/events", undefined, undefined, ip));
    expect(after.headers.get("RateLimit-Remaining")).toBe(String(API_RATE_LIMIT.limit - 2));
  });

  it("counts against the reader's API quota, as the widget's own requests would", async () => {
    const ip = "192.0.2.41";
    const remaining = async () =>
      Number(
        (await eventsApi(args("/api/v1/events", undefined, undefined, ip))).headers.get(
          "RateLimit-Remaining",
        ),
      );
    expect(await remaining()).toBe(API_RATE_LIMIT.limit - 1);
    await hello(
      args(
        `/embed/v1/hello?n=1&pv=${pageView()}${w("gf-racer-table")}`,
        "https://hello.example",
        undefined,
        ip,
      ),
    );
    // The hello's two requests (events, racers), then this one.
    expect(await remaining()).toBe(API_RATE_LIMIT.limit - 4);
    // Past the quota: the hello still says yes, without data, and the widget asks (and is refused) itself.
    for (let i = 0; i < API_RATE_LIMIT.limit; i++) await remaining();
    const res = await hello(
      args(
        `/embed/v1/hello?n=1&pv=${pageView()}${w("gf-racer-table", { event: "5" })}`,
        "https://hello.example",
        undefined,
        ip,
      ),
    );
    expect(await res.json()).toEqual({ allowed: true });
  });

  it("answers at most eight widgets and ignores what the script never sends", async () => {
    const many = Array.from({ length: MAX_DATA_WIDGETS + 2 }, (_, i) =>
      w("gf-team-grid", { username: `nobody-${i}` }),
    ).join("");
    const odd = [
      "&w=not-json",
      `&w=${encodeURIComponent('["script",{}]')}`,
      `&w=${encodeURIComponent('["gf-team-grid",{"username":5}]')}`,
    ].join("");
    const res = await hello(
      args(
        `/embed/v1/hello?n=10&pv=${pageView()}${odd}${many}`,
        "https://hello.example",
        undefined,
        "192.0.2.42",
      ),
    );
    const body = (await res.json()) as { data: Record<string, unknown> };
    expect(Object.keys(body.data)).toHaveLength(MAX_DATA_WIDGETS - 3);
  });

  it("comes to the game's own pages, never to a request that names no page (an image, a link)", async () => {
    const path = `/embed/v1/hello?n=1${w("gf-racer-table", { event: "5" })}`;
    // A same-origin fetch sends no Origin, but says where it comes from.
    const own = args(path, undefined, undefined, "192.0.2.44");
    own.request.headers.set("Sec-Fetch-Site", "same-origin");
    const ownBody = (await (await hello(own)).json()) as { data?: object };
    expect(Object.keys(ownBody.data ?? {})).toEqual(["/api/v1/events/5/racers"]);
    // Any site can point an <img> at the hello: it would spend the reader's API quota for nothing.
    for (const site of [undefined, "cross-site"]) {
      const req = args(path, undefined, undefined, "192.0.2.45");
      if (site) req.request.headers.set("Sec-Fetch-Site", site);
      expect(await (await hello(req)).json()).toEqual({ allowed: true });
    }
    const after = await eventsApi(args("/api/v1/events", undefined, undefined, "192.0.2.45"));
    expect(after.headers.get("RateLimit-Remaining")).toBe(String(API_RATE_LIMIT.limit - 1));
  });

  it("keeps only the attributes the plan reads", async () => {
    const long = "x".repeat(600);
    const res = await hello(
      args(
        `/embed/v1/hello?n=2&pv=${pageView()}${w("gf-team-grid", { username: long })}${w("gf-racer-table", { event: "5", style: long, class: "big" })}`,
        "https://hello.example",
        undefined,
        "192.0.2.46",
      ),
    );
    // The over-long username counts as none (no request); the table's style does not matter.
    const body = (await res.json()) as { data: object };
    expect(Object.keys(body.data)).toEqual(["/api/v1/events/5/racers"]);
  });

  it("never comes to an origin that may not use the widgets", async () => {
    const res = await hello(
      args(`/embed/v1/hello?n=1${w("gf-racer-table", { event: "5" })}`, "https://stranger.example"),
    );
    expect(await res.json()).toEqual({ allowed: false, origin: "https://stranger.example" });
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
    const res = await hello(args(`/embed/v1/hello?n=2&pv=${pageView()}`, "https://hello.example"));
    expect(res.status).toBe(200);
    // What the server does on SIGTERM: no flush by hand here.
    expect(closers).toHaveLength(1);
    await Promise.all(closers.map((close) => close()));
    const [report] = await getPartnerStats(h.db, { partnerId, days: 1 });
    expect(report!.days[0]!.widgetLoads).toBe(before + 2);
  });
});
