import type http from "node:http";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { portOf } from "./listen.test-support";
import { helmetHeaders, securityHeaders } from "./security-headers.js";

/** The app's header stack (as server.js sets it up) in front of a few stand-in routes. */
async function serve(options: Parameters<typeof helmetHeaders>[0]) {
  const app = express();
  app.use(helmetHeaders(options));
  app.use(securityHeaders());
  app.get("/page", (_req, res) => res.send(`<script nonce="${res.locals.cspNonce}"></script>`));
  app.get("/frame", (_req, res) => {
    res.append("Content-Security-Policy", "frame-ancestors https://partner.example");
    res.send("frame");
  });
  app.get("/own-nosniff", (_req, res) => {
    res.append("X-Content-Type-Options", "nosniff");
    res.append("Vary", "Origin");
    res.append("Vary", "Accept");
    res.send("{}");
  });
  app.get("/limited", (_req, res) => res.status(429).send("slow down"));
  app.get("/limited-exact", (_req, res) => res.status(429).set("Retry-After", "17").send("x"));
  app.get("/unavailable", (_req, res) => res.status(503).send("not now"));
  const server = await new Promise<http.Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  return { server, base: `http://127.0.0.1:${portOf(server)}` };
}

const cspOf = (res: Response) => res.headers.get("content-security-policy") ?? "";

describe("helmet headers (http, no PUBLIC_URL)", () => {
  let s: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    s = await serve({ production: true });
  });
  afterAll(() => new Promise((resolve) => s.server.close(resolve)));

  it("allows scripts from our origin and with this response's nonce only", async () => {
    const a = await fetch(`${s.base}/page`);
    const b = await fetch(`${s.base}/page`);
    const nonceA = (await a.text()).match(/nonce="([^"]+)"/)![1];
    const nonceB = (await b.text()).match(/nonce="([^"]+)"/)![1];
    expect(nonceA).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(nonceA).not.toBe(nonceB);
    expect(cspOf(a)).toContain(`script-src 'self' 'nonce-${nonceA}'`);
    expect(cspOf(a)).not.toContain("unsafe-eval");
    expect(cspOf(a)).toMatch(/script-src-attr 'none'/);
    expect(cspOf(a)).toMatch(/img-src 'self' data:/);
    expect(cspOf(a)).toMatch(/connect-src 'self'(;|,|$)/);
    // Not on http: it would send a localhost browser to https.
    expect(cspOf(a)).not.toContain("upgrade-insecure-requests");
  });

  it("sends nosniff, the referrer policy and no HSTS on plain http", async () => {
    const res = await fetch(`${s.base}/page`);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(res.headers.get("strict-transport-security")).toBeNull();
    // Partners load the embed script and portraits from other origins.
    expect(res.headers.get("cross-origin-resource-policy")).toBe("cross-origin");
  });

  it("sends a header once when a route sets it too, keeping different values", async () => {
    const res = await fetch(`${s.base}/own-nosniff`);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("vary")).toBe("Origin, Accept");
  });

  it("keeps the framing policy: none by default, the partner's origins on iframe pages", async () => {
    const page = await fetch(`${s.base}/page`);
    expect(cspOf(page)).toMatch(/(^|, )frame-ancestors 'none'$/);
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    const frame = await fetch(`${s.base}/frame`);
    expect(cspOf(frame)).toContain("frame-ancestors https://partner.example");
    expect(cspOf(frame)).not.toContain("frame-ancestors 'none'");
    expect(frame.headers.get("x-frame-options")).toBeNull();
  });

  it("puts Retry-After on every 429, keeping an exact one", async () => {
    const plain = await fetch(`${s.base}/limited`);
    expect(plain.status).toBe(429);
    expect(plain.headers.get("retry-after")).toBe("60");
    const exact = await fetch(`${s.base}/limited-exact`);
    expect(exact.headers.get("retry-after")).toBe("17");
  });

  it("puts Retry-After on every 503 too (a save the database cannot take: try in a minute)", async () => {
    const res = await fetch(`${s.base}/unavailable`);
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("60");
  });
});

describe("helmet headers behind https", () => {
  let s: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    s = await serve({ publicUrl: "https://fantasy.example", production: true });
  });
  afterAll(() => new Promise((resolve) => s.server.close(resolve)));

  it("promises https for a year and upgrades stray http requests", async () => {
    const res = await fetch(`${s.base}/page`);
    expect(res.headers.get("strict-transport-security")).toBe("max-age=31536000");
    expect(cspOf(res)).toContain("upgrade-insecure-requests");
  });
});
