import { type IncomingHttpHeaders, IncomingMessage } from "node:http";
import { Socket } from "node:net";
import { Writable } from "node:stream";
import { matchRoutes } from "@remix-run/router";
import type { Request, Response } from "express";
import { describe, expect, it } from "vitest";
import { createLogger, requestIdOf } from "./logger.js";
import { createMetrics, readMetricsEnv, routeLabeller } from "./metrics.js";

const APP = { port: 3000, host: "0.0.0.0" };

/**
 * Stand-ins for Express's request and answer with only what the labeller reads of them (path and
 * method; locals and status), passed where `mark` and `label` take the whole objects.
 */
const fakeReq = (req: Pick<Request, "path" | "method">) => req as Request;
const fakeRes = (res: Pick<Response, "locals" | "statusCode">) => res as Response;

/** A real (unconnected) request with these headers: all `requestIdOf` reads. */
const withHeaders = (headers: IncomingHttpHeaders) =>
  Object.assign(new IncomingMessage(new Socket()), { headers });

describe("readMetricsEnv", () => {
  it("no METRICS_PORT, no metrics endpoint", () => {
    expect(readMetricsEnv({}, APP)).toEqual({ port: undefined, host: "0.0.0.0", token: undefined });
  });
  it("takes a port, a host and a token", () => {
    expect(
      readMetricsEnv(
        { METRICS_PORT: "9464", METRICS_HOST: "127.0.0.1", METRICS_TOKEN: "x".repeat(16) },
        APP,
      ),
    ).toEqual({ port: 9464, host: "127.0.0.1", token: "x".repeat(16) });
  });
  it.each([
    [{ METRICS_PORT: "abc" }, /METRICS_PORT must be a port number/],
    [{ METRICS_PORT: "70000" }, /METRICS_PORT must be a port number/],
    [{ METRICS_PORT: "3000" }, /must differ from PORT/],
    [{ METRICS_PORT: "9464", METRICS_TOKEN: "short" }, /at least 16/],
  ])("refuses %o", (vars, message) => {
    expect(() => readMetricsEnv(vars, APP)).toThrow(message);
  });
});

describe("routeLabeller", () => {
  const build = {
    routes: {
      root: { id: "root", path: "" },
      "routes/_index": { id: "routes/_index", parentId: "root", index: true },
      "routes/players.$username": {
        id: "routes/players.$username",
        parentId: "root",
        path: "players/:username",
      },
      "routes/$": { id: "routes/$", parentId: "root", path: "*" },
    },
  };
  const labels = routeLabeller(() => build, matchRoutes);
  const label = (path: string, status = 200, method = "GET") => {
    const res = fakeRes({ locals: {}, statusCode: status });
    const req = fakeReq({ path, method });
    labels.mark(req, res, () => {});
    return labels.label(req, res);
  };

  it("names the route file, never the address", () => {
    expect(label("/players/alice")).toBe("routes/players.$username");
    expect(label("/players/bob.data")).toBe("routes/players.$username");
    expect(label("/")).toBe("routes/_index");
    expect(label("/_root.data")).toBe("routes/_index");
    expect(label("/anything/else")).toBe("routes/$");
  });

  it("what never reached Remix: static files or other", () => {
    const unmarked = (path: string, status: number) =>
      labels.label(fakeReq({ path, method: "GET" }), fakeRes({ locals: {}, statusCode: status }));
    expect(unmarked("/assets/app-1234.js", 200)).toBe("static");
    expect(unmarked("/favicon.svg", 200)).toBe("static");
    expect(unmarked("/login", 413)).toBe("other");
  });

  it("in development (the build is a function) every Remix route is `remix`", () => {
    const dev = routeLabeller(() => () => ({}), matchRoutes);
    const res = fakeRes({ locals: {}, statusCode: 200 });
    dev.mark(fakeReq({ path: "/players/a", method: "GET" }), res, () => {});
    expect(dev.label(fakeReq({ path: "/players/a", method: "GET" }), res)).toBe("remix");
  });
});

describe("createMetrics", () => {
  it("counts saves and refusals and times jobs, failed ones too", async () => {
    const m = createMetrics({ defaultMetrics: false });
    m.teamSave(null);
    m.teamSave("locked");
    m.teamSave("locked");
    expect(await m.timeJob("settle", async () => 42)).toBe(42);
    await expect(
      m.timeJob("freeze", async () => {
        throw new Error("down");
      }),
    ).rejects.toThrow("down");
    const text = await m.registry.metrics();
    expect(text).toContain("gf_team_saves_total 1");
    expect(text).toContain('gf_team_save_refusals_total{reason="locked"} 2');
    expect(text).toContain('gf_team_save_refusals_total{reason="invalid"} 0');
    expect(text).toContain('gf_job_duration_seconds_count{job="settle",outcome="ok"} 1');
    expect(text).toContain('gf_job_duration_seconds_count{job="freeze",outcome="failed"} 1');
  });
});

describe("request ids and the logger", () => {
  it("keeps a plain, short X-Request-Id and replaces anything else", () => {
    expect(requestIdOf(withHeaders({ "x-request-id": "lb-42.a:b_c" }))).toBe("lb-42.a:b_c");
    for (const bad of ["a b", "x".repeat(65), "<script>", ""]) {
      expect(requestIdOf(withHeaders({ "x-request-id": bad }))).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect(requestIdOf(withHeaders({}))).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("drops fields that could hold a player's data, whatever a caller passes", () => {
    const lines: string[] = [];
    const out = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logger = createLogger({ production: true, destination: out });
    logger.info({ email: "a@example.com", cookie: "gf_session=1", params: [1], route: "r" }, "x");
    expect(lines).toHaveLength(1);
    const entry = JSON.parse(lines[0]!) as { route?: unknown; params?: unknown };
    expect(entry.route).toBe("r");
    expect(lines[0]).not.toContain("example.com");
    expect(lines[0]).not.toContain("gf_session");
    expect(entry.params).toBeUndefined();
  });
});
