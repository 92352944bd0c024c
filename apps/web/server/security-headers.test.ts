import type { Server } from "node:http";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { portOf } from "./listen.test-support";
import { securityHeaders } from "./security-headers.js";

let server: Server;
let base: string;

beforeAll(async () => {
  const app = express();
  app.use(securityHeaders());
  app.get("/page", (_req, res) => res.send("<h1>page</h1>"));
  app.get("/frame", (_req, res) => {
    res.setHeader("Content-Security-Policy", "frame-ancestors https://partner.example");
    res.send("frame");
  });
  app.get("/other-csp", (_req, res) => {
    res.setHeader("Content-Security-Policy", "default-src 'self'");
    res.send("x");
  });
  app.get("/write-head", (_req, res) => {
    res.writeHead(200, { "Content-Type": "text/plain" });
    res.end("raw");
  });
  app.get("/json", (_req, res) => res.status(404).json({ error: "x" }));
  await new Promise<void>((resolve) => {
    server = app.listen(0, "127.0.0.1", resolve);
  });
  base = `http://127.0.0.1:${portOf(server)}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe("securityHeaders", () => {
  it("forbids framing by default, on every kind of response", async () => {
    for (const path of ["/page", "/json", "/write-head", "/missing"]) {
      const res = await fetch(`${base}${path}`);
      // Express's own 404 page brings `default-src 'none'`; the framing rule is added beside it.
      expect(res.headers.get("content-security-policy"), path).toMatch(
        /(^|, )frame-ancestors 'none'$/,
      );
      expect(res.headers.get("x-frame-options"), path).toBe("DENY");
    }
    expect(await (await fetch(`${base}/write-head`)).text()).toBe("raw");
  });

  it("keeps a route's own frame-ancestors and sends no X-Frame-Options with it", async () => {
    const res = await fetch(`${base}/frame`);
    expect(res.headers.get("content-security-policy")).toBe(
      "frame-ancestors https://partner.example",
    );
    expect(res.headers.get("x-frame-options")).toBeNull();
  });

  it("adds the framing rule beside another policy", async () => {
    const res = await fetch(`${base}/other-csp`);
    // Two headers, folded by fetch into one comma-separated value: both are enforced.
    expect(res.headers.get("content-security-policy")).toBe(
      "default-src 'self', frame-ancestors 'none'",
    );
  });
});
