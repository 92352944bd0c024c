import type { Server } from "node:http";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { portOf } from "./listen.test-support";
import { checkOrigin, isOneClickUnsubscribe, originOf, sameOriginOnly } from "./origin.js";

const own = ["http://localhost:3000"];

describe("checkOrigin", () => {
  it("lets safe methods through whatever their origin", () => {
    for (const method of ["GET", "HEAD", "OPTIONS"]) {
      expect(checkOrigin({ method, origin: "https://evil.example", allowed: own }).ok).toBe(true);
    }
  });

  it("accepts our own origin and refuses others, including 'null'", () => {
    for (const method of ["POST", "put", "PATCH", "DELETE"]) {
      expect(checkOrigin({ method, origin: "http://localhost:3000", allowed: own }).ok).toBe(true);
      expect(checkOrigin({ method, origin: "https://evil.example", allowed: own }).ok).toBe(false);
      expect(checkOrigin({ method, origin: "null", allowed: own }).ok).toBe(false);
    }
    // Same host, other scheme or port: another origin.
    expect(checkOrigin({ method: "POST", origin: "https://localhost:3000", allowed: own }).ok).toBe(
      false,
    );
    expect(checkOrigin({ method: "POST", origin: "http://localhost:3001", allowed: own }).ok).toBe(
      false,
    );
  });

  it("falls back to the Referer when there is no Origin", () => {
    const check = (referer: string | undefined) =>
      checkOrigin({ method: "POST", referer, allowed: own }).ok;
    expect(check("http://localhost:3000/game/5?x=1")).toBe(true);
    expect(check("https://evil.example/page")).toBe(false);
    expect(check("not a url")).toBe(false);
    // Neither header: not a browser's cross-site post (curl, scripts); allowed.
    expect(check(undefined)).toBe(true);
  });

  it("compares normalised origins (default ports, case)", () => {
    expect(originOf("HTTPS://Example.COM:443/x")).toBe("https://example.com");
    expect(
      checkOrigin({
        method: "POST",
        origin: "https://example.com",
        allowed: ["https://EXAMPLE.com:443"],
      }).ok,
    ).toBe(true);
    expect(originOf("javascript:alert(1)")).toBeNull();
  });
});

describe("sameOriginOnly middleware", () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    const app = express();
    app.use(
      sameOriginOnly({
        publicUrl: "https://play.example.org",
        isExempt: (req) => req.path === "/hook",
      }),
    );
    // Echoes the Origin the routes after the check see.
    app.all("*", (req, res) => res.send(`done, origin ${req.get("origin") ?? "removed"}`));
    await new Promise<void>((resolve) => {
      server = app.listen(0, "127.0.0.1", resolve);
    });
    base = `http://127.0.0.1:${portOf(server)}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const post = (path: string, headers?: HeadersInit) =>
    fetch(`${base}${path}`, { method: "POST", headers });

  it("refuses a POST from a foreign origin with 403 before any route runs", async () => {
    const res = await post("/login", { Origin: "https://evil.example" });
    expect(res.status).toBe(403);
    expect(await res.text()).toMatch(/did not come from this site/);
  });

  it("accepts our own origin, the public URL, and exempted paths", async () => {
    expect((await post("/login", { Origin: base })).status).toBe(200);
    expect((await post("/login", { Origin: "https://play.example.org" })).status).toBe(200);
    expect((await post("/hook", { Origin: "https://evil.example" })).status).toBe(200);
    expect((await fetch(`${base}/`, { headers: { Origin: "https://evil.example" } })).status).toBe(
      200,
    );
  });

  it("judges once: an accepted post goes on without its Origin, which Remix would judge again", async () => {
    // Remix compares Origin with Host alone: behind a proxy that sends its upstream's name as
    // Host, a post from PUBLIC_URL would be a 500 there.
    for (const origin of ["https://play.example.org", base]) {
      expect(await (await post("/login", { Origin: origin })).text()).toBe("done, origin removed");
    }
    expect(await (await post("/hook", { Origin: "https://evil.example" })).text()).toBe(
      "done, origin removed",
    );
    // Pages and the API's CORS still see it.
    const page = await fetch(`${base}/`, { headers: { Origin: "https://partner.example" } });
    expect(await page.text()).toBe("done, origin https://partner.example");
  });
});

describe("one-click unsubscribe", () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    const app = express();
    app.use(sameOriginOnly({ isExempt: isOneClickUnsubscribe }));
    app.all("*", (_req, res) => res.send("done"));
    await new Promise<void>((resolve) => {
      server = app.listen(0, "127.0.0.1", resolve);
    });
    base = `http://127.0.0.1:${portOf(server)}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const post = (path: string) =>
    fetch(`${base}${path}`, {
      method: "POST",
      headers: {
        Origin: "https://mail.example",
        "Content-Type": "application/x-www-form-urlencoded",
      },
      body: "List-Unsubscribe=One-Click",
    });

  it("lets a mail provider's cross-site POST to the reminder's link through, nothing else", async () => {
    expect((await post("/reminders/unsubscribe?u=1&t=0123")).status).toBe(200);
    expect((await post("/account/reminders")).status).toBe(403);
  });
});
