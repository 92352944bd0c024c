import { partners, rateLimits } from "@game/db";
import { createTestDb, type DbHandle } from "@game/db/testing";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testContext } from "../../../tests/support/context";
import { ApiError, apiAction, apiGet, CACHE } from "./api.server";
import { cacheControl, etagOf } from "./http.server";
import { API_RATE_LIMIT, PARTNER_KEY_HEADER, PARTNER_RATE_LIMIT } from "./partner-limits.server";

let h: DbHandle;
const partnerOrigin = "https://bikes.example";

beforeAll(async () => {
  h = await createTestDb();
  await h.db.insert(partners).values({
    name: "Bike Site",
    publishableKey: "pk_cors_test",
    origins: [partnerOrigin, "http://localhost:4321"],
  });
});
afterAll(() => h.close());

function ctx(clientIp = "192.0.2.1", now = new Date()) {
  return { ...testContext(h.db, { now: () => now }), clientIp };
}

function call(
  run: (url: URL) => Promise<unknown>,
  init: { headers?: Record<string, string>; ip?: string; now?: Date } = {},
) {
  const request = new Request("http://localhost/api/v1/thing?x=1", { headers: init.headers });
  const args = { request, context: ctx(init.ip, init.now), params: {} } as LoaderFunctionArgs;
  return apiGet(args, CACHE.live, run);
}

const data = { data: [{ id: 1, name: "Windrock" }] };

describe("apiGet", () => {
  it("answers JSON with Cache-Control (s-maxage, stale-while-revalidate), ETag and Vary", async () => {
    const res = await call(async () => data, { ip: "198.51.100.1" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(data);
    expect(res.headers.get("Cache-Control")).toBe(
      "public, max-age=0, s-maxage=1, stale-while-revalidate=600",
    );
    expect(cacheControl(CACHE.catalogue)).toMatch(/s-maxage=\d+, stale-while-revalidate=\d+$/);
    expect(res.headers.get("ETag")).toBe(etagOf(JSON.stringify(data)));
    expect(res.headers.get("Vary")).toBe("Origin");
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
  });

  it("answers 304 without a body when If-None-Match holds the current ETag", async () => {
    const etag = etagOf(JSON.stringify(data));
    for (const header of [etag, etag.replace("W/", ""), `"other", ${etag}`, "*"]) {
      const res = await call(async () => data, {
        headers: { "If-None-Match": header },
        ip: "198.51.100.2",
      });
      expect(res.status, header).toBe(304);
      expect(await res.text()).toBe("");
      expect(res.headers.get("ETag")).toBe(etag);
      expect(res.headers.get("Cache-Control")).toMatch(/^public/);
    }
    const changed = await call(async () => ({ ...data, more: true }), {
      headers: { "If-None-Match": etag },
      ip: "198.51.100.2",
    });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("ETag")).not.toBe(etag);
  });

  it("allows CORS for a partner origin only, echoing it exactly", async () => {
    const allowed = await call(async () => data, { headers: { Origin: partnerOrigin } });
    expect(allowed.headers.get("Access-Control-Allow-Origin")).toBe(partnerOrigin);
    expect(allowed.headers.get("Vary")).toBe("Origin");
    expect(allowed.headers.get("Access-Control-Allow-Credentials")).toBeNull();

    for (const origin of [
      "https://evil.example",
      "null",
      "https://bikes.example.evil.example",
      "http://bikes.example",
      `${partnerOrigin}/`,
    ]) {
      const res = await call(async () => data, { headers: { Origin: origin } });
      expect(res.status, origin).toBe(200);
      expect(res.headers.get("Access-Control-Allow-Origin"), origin).toBeNull();
      expect(res.headers.get("Vary")).toBe("Origin");
    }
    const same = await call(async () => data, { headers: { Origin: "http://localhost" } });
    expect(same.headers.get("Access-Control-Allow-Origin")).toBeNull();
  });

  it("keeps CORS on errors so partner pages can read them", async () => {
    const res = await call(
      async () => {
        throw new ApiError(400, "bad_request", "page must be a positive whole number.");
      },
      { headers: { Origin: partnerOrigin } },
    );
    expect(res.status).toBe(400);
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe(partnerOrigin);
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(await res.json()).toEqual({
      error: { code: "bad_request", message: "page must be a positive whole number." },
    });
  });

  it("turns an unexpected failure into a JSON 500 without details", async () => {
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => errors.push(args);
    try {
      const res = await call(async () => {
        throw new Error("connection refused to 10.0.0.7");
      });
      expect(res.status).toBe(500);
      const text = await res.text();
      expect(JSON.parse(text).error.code).toBe("internal");
      expect(text).not.toContain("10.0.0.7");
      expect(errors).toHaveLength(1);
    } finally {
      console.error = original;
    }
  });

  it("refuses an IP over the limit with 429 and Retry-After, other IPs still pass", async () => {
    const now = new Date("2027-03-01T12:00:00Z");
    let last: Response | undefined;
    for (let i = 0; i < API_RATE_LIMIT.limit; i++) {
      last = await call(async () => data, { ip: "203.0.113.9", now });
      expect(last.status).toBe(200);
    }
    const refused = await call(async () => data, {
      ip: "203.0.113.9",
      now: new Date(now.getTime() + 15_000),
      headers: { Origin: partnerOrigin },
    });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("Retry-After")).toBe("45");
    expect(refused.headers.get("Access-Control-Allow-Origin")).toBe(partnerOrigin);
    expect((await refused.json()).error.code).toBe("rate_limited");
    expect((await call(async () => data, { ip: "203.0.113.10", now })).status).toBe(200);
    // A new window lets the IP in again.
    const later = new Date(now.getTime() + API_RATE_LIMIT.windowMs);
    expect((await call(async () => data, { ip: "203.0.113.9", now: later })).status).toBe(200);
    const counters = await h.db.select().from(rateLimits);
    expect(counters.map((c) => c.key)).toContain("api:ip:203.0.113.9");
  });
});

describe("RateLimit headers and the partner key", () => {
  const rate = (res: Response) => ({
    limit: res.headers.get("RateLimit-Limit"),
    remaining: res.headers.get("RateLimit-Remaining"),
    reset: res.headers.get("RateLimit-Reset"),
  });

  it("tells every answer its quota, errors included, and lets partner pages read it", async () => {
    const now = new Date("2027-04-01T08:00:00Z");
    const first = await call(async () => data, {
      ip: "198.51.100.1",
      now,
      headers: { Origin: partnerOrigin },
    });
    expect(rate(first)).toEqual({ limit: "120", remaining: "119", reset: "60" });
    expect(first.headers.get("Access-Control-Expose-Headers")).toBe(
      "ETag, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset",
    );
    const missing = await call(
      async () => {
        throw new ApiError(404, "nope", "No.");
      },
      { ip: "198.51.100.1", now: new Date(now.getTime() + 20_000) },
    );
    expect(missing.status).toBe(404);
    expect(rate(missing)).toEqual({ limit: "120", remaining: "118", reset: "40" });
  });

  it("gives a request with an enabled partner's key the partner quota, per key and IP", async () => {
    const now = new Date("2027-04-02T08:00:00Z");
    const keyed = { [PARTNER_KEY_HEADER]: "pk_cors_test" };
    const ip = "198.51.100.7";
    for (let i = 0; i < API_RATE_LIMIT.limit + 5; i++) {
      const res = await call(async () => data, { ip, now, headers: keyed });
      expect(res.status).toBe(200);
    }
    const res = await call(async () => data, { ip, now, headers: keyed });
    expect(rate(res)).toEqual({
      limit: String(PARTNER_RATE_LIMIT.limit),
      remaining: String(PARTNER_RATE_LIMIT.limit - API_RATE_LIMIT.limit - 6),
      reset: "60",
    });
    // The same IP without the key has its own, smaller quota, untouched by the keyed calls.
    expect(rate(await call(async () => data, { ip, now }))).toMatchObject({
      limit: "120",
      remaining: "119",
    });
    const counters = (await h.db.select().from(rateLimits)).map((c) => c.key);
    expect(counters.some((k) => /^api:partner:\d+:ip:198\.51\.100\.7$/.test(k))).toBe(true);
  });

  it("refuses an unknown or disabled partner's key with 401 JSON (a typo is not silently anonymous)", async () => {
    await h.db.insert(partners).values({
      name: "Switched off",
      publishableKey: "pk_off_test",
      origins: ["https://off.example"],
      disabledAt: new Date(),
    });
    for (const key of ["pk_typo", "pk_off_test"]) {
      let ran = false;
      const res = await call(
        async () => {
          ran = true;
          return data;
        },
        { ip: "198.51.100.8", headers: { [PARTNER_KEY_HEADER]: key, Origin: partnerOrigin } },
      );
      expect(res.status, key).toBe(401);
      expect(res.headers.get("Cache-Control")).toBe("no-store");
      expect(res.headers.get("Access-Control-Allow-Origin")).toBe(partnerOrigin);
      expect((await res.json()).error.code).toBe("invalid_partner_key");
      expect(ran).toBe(false);
    }
  });

  it("lets browsers send the key (preflight allows the header)", async () => {
    const request = new Request("http://localhost/api/v1/events", {
      method: "OPTIONS",
      headers: { Origin: partnerOrigin, "Access-Control-Request-Method": "GET" },
    });
    const res = await apiGet({ request, context: ctx(), params: {} }, CACHE.live, async () => data);
    expect(res.headers.get("Access-Control-Allow-Headers")).toContain(PARTNER_KEY_HEADER);
  });
});

describe("preflights", () => {
  it("are answered by the loader too (Remix routes OPTIONS to loaders), without running it", async () => {
    let ran = false;
    const request = new Request("http://localhost/api/v1/events", {
      method: "OPTIONS",
      headers: { Origin: partnerOrigin, "Access-Control-Request-Method": "GET" },
    });
    const res = await apiGet({ request, context: ctx(), params: {} }, CACHE.live, async () => {
      ran = true;
      return data;
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe(partnerOrigin);
    expect(res.headers.get("Access-Control-Allow-Methods")).toBe("GET, HEAD, OPTIONS");
    expect(ran).toBe(false);
  });
});

describe("apiAction", () => {
  const action = (method: string, origin?: string) =>
    apiAction({
      request: new Request("http://localhost/api/v1/events", {
        method,
        headers: origin ? { Origin: origin, "Access-Control-Request-Method": "GET" } : {},
      }),
      context: ctx(),
      params: {},
    });

  it("answers preflights for partner origins only", async () => {
    const ok = await action("OPTIONS", partnerOrigin);
    expect(ok.status).toBe(204);
    expect(ok.headers.get("Access-Control-Allow-Origin")).toBe(partnerOrigin);
    expect(ok.headers.get("Access-Control-Allow-Methods")).toBe("GET, HEAD, OPTIONS");
    const refused = await action("OPTIONS", "https://evil.example");
    expect(refused.headers.get("Access-Control-Allow-Origin")).toBeNull();
    expect(refused.headers.get("Access-Control-Allow-Methods")).toBeNull();
  });

  it("refuses writes with 405 JSON", async () => {
    const res = await action("POST");
    expect(res.status).toBe(405);
    expect(res.headers.get("Allow")).toBe("GET, HEAD, OPTIONS");
    expect((await res.json()).error.code).toBe("method_not_allowed");
  });
});
