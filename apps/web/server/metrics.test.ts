/**
 * `/metrics` and the request log, through the built app as `npm start` runs it (PGlite, or
 * PostgreSQL when DATABASE_URL is set; with PostgreSQL also as two worker processes, whose
 * metrics the primary adds up). docs/decisions/0136-metrics-and-logs.md.
 */
import { randomBytes } from "node:crypto";
import { createAccount, createDb, createSession } from "@game/db";
import type { AppLoadContext } from "@remix-run/node";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serializeSessionToken } from "~/utils/session.server";
import { type RunningApp, startApp } from "../tests/support/app";

const SECRET = randomBytes(16).toString("hex");
const TOKEN = randomBytes(24).toString("hex");
const EMAIL = `metrics_${randomBytes(3).toString("hex")}@example.com`;
const databases: string[] = [];
const apps: RunningApp[] = [];

async function adminSql<T>(run: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
  try {
    return await run(sql);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

async function freshPostgres(): Promise<string> {
  const name = `gf_metrics_${process.pid}_${randomBytes(4).toString("hex")}`;
  await adminSql((sql) => sql.unsafe(`create database "${name}"`));
  databases.push(name);
  const u = new URL(process.env.DATABASE_URL!);
  u.pathname = `/${name}`;
  return u.toString();
}

afterAll(async () => {
  await Promise.all(apps.map((a) => a.stop()));
  for (const name of databases) {
    await adminSql((sql) => sql.unsafe(`drop database if exists "${name}" with (force)`));
  }
});

/** Starts the app with metrics on a port of their own and a signed-in player's cookie. */
async function start(extra: Record<string, string> = {}) {
  const pgUrl = process.env.DATABASE_URL ? await freshPostgres() : "";
  let token = "";
  const app = await startApp({
    env: {
      SESSION_SECRET: SECRET,
      METRICS_PORT: "0",
      METRICS_TOKEN: TOKEN,
      ...(pgUrl ? { DATABASE_URL: pgUrl } : {}),
      ...extra,
    },
    prepare: async (dataDir) => {
      const h = await createDb(pgUrl ? { url: pgUrl } : { dataDir, url: "" });
      try {
        const user = await createAccount(h.db, {
          username: `m${randomBytes(3).toString("hex")}`,
          email: EMAIL,
          passwordHash: "test:unusable",
        });
        token = (await createSession(h.db, user.id, { now: new Date() })).token;
      } finally {
        await h.close();
      }
    },
  });
  apps.push(app);
  // The start line of the metrics comes before the app's own.
  const port = Number(app.output().match(/Metrics on port (\d+)/)?.[1]);
  expect(port).toBeGreaterThan(0);
  const context = { env: { sessionSecret: SECRET, production: true } } as AppLoadContext;
  const set = await serializeSessionToken(new Request("http://127.0.0.1/"), context, token);
  return { app, metricsUrl: `http://127.0.0.1:${port}/metrics`, cookie: set.split(";")[0]! };
}

async function scrape(url: string): Promise<string> {
  const res = await fetch(url, { headers: { Authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text();
}

/** The value of one series (0 when absent). */
function value(text: string, series: string): number {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe("one process", () => {
  let app: RunningApp;
  let metricsUrl: string;
  let cookie: string;
  beforeAll(async () => {
    ({ app, metricsUrl, cookie } = await start());
  }, 120_000);

  it("serves /metrics only on its own port, and only with the token", async () => {
    expect((await fetch(`${app.url}/metrics`)).status).toBe(404);
    const anonymous = await fetch(metricsUrl);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toBe("Bearer");
    const wrong = await fetch(metricsUrl, { headers: { Authorization: `Bearer ${TOKEN}x` } });
    expect(wrong.status).toBe(401);
    const text = await scrape(metricsUrl);
    expect(text).toContain("# TYPE gf_http_requests_total counter");
    expect(text).toContain("process_cpu_seconds_total");
    expect(text).toMatch(/gf_db_pool_max\{pool="(embedded|primary)"\} \d+/);
    expect(text).toContain('gf_team_save_refusals_total{reason="invalid"} 0');
    if (process.env.DATABASE_URL) {
      // PostgreSQL says how this process's connections are doing.
      expect(text).toMatch(/gf_db_connections\{pool="primary",state="(idle|active)"\} [1-9]/);
    }
    expect(text).toContain('gf_job_duration_seconds_count{job="settle",outcome="ok"} 0');
  });

  it("counts requests by route id and status, never by raw URL", async () => {
    const series =
      'gf_http_requests_total{method="GET",route="routes/players-ranking",status="200"}';
    const before = value(await scrape(metricsUrl), series);
    // The first page twice: the second comes from the ranking cache.
    for (const q of ["", "", "?page=3&x=1"]) {
      expect((await fetch(`${app.url}/players-ranking${q}`)).status).toBe(200);
    }
    await fetch(`${app.url}/no-such-page-${randomBytes(4).toString("hex")}`);
    const text = await scrape(metricsUrl);
    expect(value(text, series)).toBe(before + 3);
    expect(text).toMatch(
      /gf_http_requests_total\{method="GET",route="routes\/\$",status="404"\} \d+/,
    );
    expect(text).not.toContain("no-such-page");
    expect(text).not.toContain("page=3");
    expect(text).toMatch(
      /gf_http_request_duration_seconds_bucket\{le="0\.1",method="GET",route="routes\/players-ranking",status="200"\}/,
    );
    expect(value(text, 'gf_ranking_cache_total{result="hit"}')).toBeGreaterThan(0);
  });

  it("counts team saves refused, by reason", async () => {
    const before = await scrape(metricsUrl);
    const post = (body: string) =>
      fetch(`${app.url}/team-setup?game=6`, {
        method: "POST",
        headers: {
          Cookie: cookie,
          Origin: app.url,
          "Content-Type": "application/x-www-form-urlencoded",
        },
        body,
        redirect: "manual",
      });
    // Not a form the page sends: refused before the rules.
    expect((await post("game=abc&intent=save")).status).toBe(400);
    // One racer is not a team (or the round is not open): refused by the rules.
    const refused = await post("game=6&racer=1&intent=save");
    expect(refused.status).toBeGreaterThanOrEqual(400);
    const after = await scrape(metricsUrl);
    const reasons = ["bad-form", "invalid", "locked", "not-open", "not-found"];
    const total = (t: string) =>
      reasons.reduce((n, r) => n + value(t, `gf_team_save_refusals_total{reason="${r}"}`), 0);
    expect(value(after, 'gf_team_save_refusals_total{reason="bad-form"}')).toBe(
      value(before, 'gf_team_save_refusals_total{reason="bad-form"}') + 1,
    );
    expect(total(after)).toBe(total(before) + 2);
    expect(value(after, "gf_team_saves_total")).toBe(value(before, "gf_team_saves_total"));
  });

  it("logs one JSON line per request with its id, and nothing private", async () => {
    const id = `test-${randomBytes(6).toString("hex")}`;
    const res = await fetch(`${app.url}/players-ranking?page=1`, {
      headers: { "X-Request-Id": id, Cookie: cookie },
    });
    expect(res.headers.get("x-request-id")).toBe(id);
    await res.text();
    // An id that is not plain and short is replaced by one of ours.
    const odd = await fetch(`${app.url}/about`, { headers: { "X-Request-Id": "a b<script>" } });
    expect(odd.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    await odd.text();
    await new Promise((r) => setTimeout(r, 200));
    const lines = app
      .output()
      .split("\n")
      .filter((l) => l.startsWith("{"));
    const mine = lines.filter((l) => l.includes(id));
    expect(mine).toHaveLength(1);
    const entry = JSON.parse(mine[0]!);
    expect(entry).toMatchObject({
      requestId: id,
      method: "GET",
      route: "routes/players-ranking",
      status: 200,
      msg: "request",
    });
    expect(typeof entry.ms).toBe("number");
    for (const line of lines) {
      expect(line).not.toContain("gf_session");
      expect(line).not.toContain(EMAIL);
      expect(line).not.toContain("page=1");
    }
  });
});

describe.skipIf(!process.env.DATABASE_URL)("two worker processes", () => {
  it("the primary's /metrics adds up both workers' counts", async () => {
    const { app, metricsUrl } = await start({ WEB_CONCURRENCY: "2" });
    const series = 'gf_http_requests_total{method="GET",route="routes/about",status="200"}';
    const before = value(await scrape(metricsUrl), series);
    // New connections each time: the cluster hands them to both workers.
    await Promise.all(
      Array.from({ length: 20 }, () =>
        fetch(`${app.url}/about`, { headers: { Connection: "close" } }).then((r) => r.text()),
      ),
    );
    const text = await scrape(metricsUrl);
    expect(value(text, series)).toBe(before + 20);
    // Each series once: aggregated, not concatenated.
    expect(text.split("\n").filter((l) => l.startsWith(`${series} `))).toHaveLength(1);
    expect(text.match(/^# TYPE gf_http_requests_total /gm)).toHaveLength(1);
    expect(text).toMatch(/gf_job_duration_seconds_count\{job="freeze",outcome="ok"\} [1-9]/);
  }, 120_000);
});
