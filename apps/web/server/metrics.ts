// Prometheus metrics (prom-client): requests by route and status, team saves and refusals, job
// durations, ranking cache use, database connections. Served on a port of their own, never on
// the public one (docs/decisions/0136-metrics-and-logs.md). With several worker processes the
// primary asks each worker for its registry and adds them up (AggregatorRegistry.aggregate).

import cluster, { type Worker } from "node:cluster";
import { timingSafeEqual } from "node:crypto";
import http from "node:http";
import type { AgnosticRouteObject, matchRoutes as MatchRoutes } from "@remix-run/router";
import type { Request, RequestHandler, Response } from "express";
import { LRUCache } from "lru-cache";
import client from "prom-client";

const { AggregatorRegistry, Counter, Gauge, Histogram, Registry, collectDefaultMetrics } = client;

/** Seconds: a cached page takes a millisecond, a settlement of a million teams several seconds. */
const REQUEST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const JOB_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120, 300];

/** The jobs timed (`gf_job_duration_seconds{job}`). */
export const JOBS = [
  "freeze",
  "count-picks",
  "settle",
  "season_advance",
  "reminders",
  "maintenance",
];

/** A registry's metrics as JSON, what workers send their primary. */
type MetricsJson = Awaited<ReturnType<client.Registry["getMetricsAsJSON"]>>;

/** A process's metrics (`createMetrics`). */
export type Metrics = ReturnType<typeof createMetrics>;

/** The text of a scrape and its content type. */
export type MetricsText = () => Promise<{ body: string; contentType: string }>;

/** METRICS_PORT, METRICS_HOST and METRICS_TOKEN, read. */
export interface MetricsEnv {
  port: number | undefined;
  host: string;
  token: string | undefined;
}

/** A Remix route as the server build lists it. */
interface BuildRoute {
  id: string;
  parentId?: string | undefined;
  path?: string | undefined;
  index?: boolean | undefined;
  caseSensitive?: boolean | undefined;
}

/** A route in the tree matchRoutes reads. */
interface RouteNode {
  id: string;
  path?: string | undefined;
  index?: boolean | undefined;
  caseSensitive?: boolean | undefined;
  children?: RouteNode[] | undefined;
}

/**
 * This process's metrics.
 */
export function createMetrics({ defaultMetrics = true }: { defaultMetrics?: boolean } = {}) {
  const registry = new Registry();
  if (defaultMetrics) collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: "gf_http_requests_total",
    help: "HTTP requests answered, by method, route (Remix route id, or static/other) and status.",
    labelNames: ["method", "route", "status"],
    registers: [registry],
  });
  const duration = new Histogram({
    name: "gf_http_request_duration_seconds",
    help: "Time from a request's arrival to the end of its answer, by method, route and status.",
    labelNames: ["method", "route", "status"],
    buckets: REQUEST_BUCKETS,
    registers: [registry],
  });
  const saves = new Counter({
    name: "gf_team_saves_total",
    help: "Team saves that were kept.",
    registers: [registry],
  });
  const refusals = new Counter({
    name: "gf_team_save_refusals_total",
    help: "Team saves refused, by reason (invalid, locked, not-open, not-found, bad-form).",
    labelNames: ["reason"],
    registers: [registry],
  });
  const jobs = new Histogram({
    name: "gf_job_duration_seconds",
    help: "Duration of settlements and scheduled jobs, by job and outcome (ok or failed).",
    labelNames: ["job", "outcome"],
    buckets: JOB_BUCKETS,
    registers: [registry],
  });
  const rankingCache = new Counter({
    name: "gf_ranking_cache_total",
    help: "Visitors' ranking pages by cache result: hit, miss (rendered) or revalidated (304).",
    labelNames: ["result"],
    registers: [registry],
  });
  const dbConnections = new Gauge({
    name: "gf_db_connections",
    help: "This process's database connections by pool (primary, replica) and state (active = a query in flight, idle, idle in transaction), as PostgreSQL reports them.",
    labelNames: ["pool", "state"],
    registers: [registry],
  });
  const dbPoolMax = new Gauge({
    name: "gf_db_pool_max",
    help: "The most connections each pool of this process opens (1 on the embedded database).",
    labelNames: ["pool"],
    registers: [registry],
  });
  // Every refusal reason and job shows from the start (0), so rates work before the first one.
  for (const reason of ["invalid", "locked", "not-open", "not-found", "bad-form"]) {
    refusals.inc({ reason }, 0);
  }
  for (const job of JOBS) jobs.zero({ job, outcome: "ok" });

  return {
    registry,
    dbConnections,
    dbPoolMax,
    /** A team save kept (`reason` null) or refused for `reason`. */
    teamSave(reason: string | null | undefined): void {
      if (reason == null) saves.inc();
      else refusals.inc({ reason: String(reason) });
    },
    /** Runs `fn`, recording how long it took under `job` (and whether it threw). */
    async timeJob<T>(job: string, fn: () => Promise<T>): Promise<T> {
      const end = jobs.startTimer({ job });
      try {
        const result = await fn();
        end({ outcome: "ok" });
        return result;
      } catch (error) {
        end({ outcome: "failed" });
        throw error;
      }
    },
    /** Express middleware counting and timing every answer, by `routeOf(req, res)`. */
    http(routeOf: (req: Request, res: Response) => string): RequestHandler {
      return (req, res, next) => {
        const start = process.hrtime.bigint();
        res.once("finish", () => {
          const labels = {
            method: req.method,
            route: routeOf(req, res),
            status: String(res.statusCode),
          };
          requests.inc(labels);
          duration.observe(labels, Number(process.hrtime.bigint() - start) / 1e9);
          const cached = res.locals.rankingCacheResult;
          if (cached) rankingCache.inc({ result: cached });
        });
        next();
      };
    },
  };
}

/**
 * The route label of a request: the Remix route id that answers the path (bounded: one per route
 * file, never the raw URL), `static` for built files, `other` for anything answered before
 * routing (a 413, a URL refused by the guard). `getBuild`: the server build (a function in
 * development, where routes are labelled `remix`).
 */
export function routeLabeller(
  getBuild: () => { routes: Record<string, BuildRoute> } | (() => unknown) | undefined,
  matchRoutes: typeof MatchRoutes,
) {
  let tree: RouteNode[] | null = null;
  const treeOf = () => {
    if (tree) return tree;
    const build = getBuild();
    if (!build || typeof build === "function") return null;
    const byParent = new Map<string | undefined, BuildRoute[]>();
    for (const r of Object.values(build.routes)) {
      const list = byParent.get(r.parentId) ?? [];
      list.push(r);
      byParent.set(r.parentId, list);
    }
    const children = (parentId: string | undefined): RouteNode[] =>
      (byParent.get(parentId) ?? []).map((r) => ({
        id: r.id,
        path: r.path,
        index: r.index,
        caseSensitive: r.caseSensitive,
        children: r.index ? undefined : children(r.id),
      }));
    tree = children(undefined);
    return tree;
  };
  // matchRoutes flattens and ranks the whole route tree on every call (a tenth of a team save's
  // CPU): the answers for recent paths are kept, a bounded number of them.
  const known = new LRUCache<string, string>({ max: 2000 });
  /** The route id for a pathname (`.data` requests too), or `remix` in development. */
  const routeOf = (pathname: string): string => {
    const routes = treeOf();
    if (!routes) return "remix";
    const hit = known.get(pathname);
    if (hit) return hit;
    let path = pathname;
    if (path === "/_root.data") path = "/";
    else if (path.endsWith(".data")) path = path.slice(0, -".data".length);
    // The nodes are route objects as matchRoutes reads them (an index route has no children).
    const matches = matchRoutes(routes as AgnosticRouteObject[], path);
    const id = matches?.length
      ? (matches[matches.length - 1]?.route.id ?? "unmatched")
      : "unmatched";
    known.set(pathname, id);
    return id;
  };
  return {
    /** Middleware placed just before Remix: the request is Remix's, label it by its route. */
    mark: ((req, res, next) => {
      try {
        res.locals.metricsRoute = routeOf(req.path);
      } catch {
        res.locals.metricsRoute = "unmatched";
      }
      next();
    }) as RequestHandler,
    /** The label at the end of the answer. */
    label: (req: Request, res: Response): string => {
      if (res.locals.metricsRoute) return res.locals.metricsRoute as string;
      if (req.route?.path && typeof req.route.path === "string") return req.route.path;
      if (req.method === "GET" || req.method === "HEAD") {
        if (
          res.statusCode < 400 &&
          (req.path.startsWith("/assets/") || /\.[a-z0-9]+$/i.test(req.path))
        ) {
          return "static";
        }
      }
      return "other";
    },
  };
}

/**
 * The database connections of this process, by pool and state, read from pg_stat_activity at
 * scrape time (postgres.js keeps no counts of its own); each pool's `query` reads the rows of
 * the connections named after this process (`application_name`), the scrape's own left out.
 */
export function watchDbPools(
  metrics: Metrics,
  pools: {
    name: string;
    max: number;
    query?: () => Promise<{ state: string | null; n: number }[]>;
  }[],
): void {
  for (const p of pools) metrics.dbPoolMax.set({ pool: p.name }, p.max);
  if (!pools.some((p) => p.query)) return;
  // prom-client calls a metric's `collect` at each scrape (set here, after construction).
  const gauge = metrics.dbConnections as client.Gauge & {
    collect?: (this: client.Gauge) => Promise<void>;
  };
  gauge.collect = async function collect(this: client.Gauge) {
    this.reset();
    for (const p of pools) {
      if (!p.query) continue;
      try {
        for (const row of await p.query()) {
          this.set({ pool: p.name, state: row.state ?? "unknown" }, Number(row.n));
        }
      } catch {
        // The database is not answering: the gauge stays empty, /readyz says why.
      }
    }
  };
}

/**
 * Answers `/metrics` with `text()` on a server of its own. With `token`, only a request carrying
 * `Authorization: Bearer <token>` gets them (401 otherwise).
 */
export function serveMetrics({
  port,
  host,
  token,
  text,
  onError = () => {},
}: {
  port: number;
  host: string;
  token?: string | undefined;
  text: MetricsText;
  onError?: (e: unknown) => void;
}): Promise<http.Server> {
  const expected = token ? Buffer.from(`Bearer ${token}`) : null;
  const server = http.createServer(async (req, res) => {
    const path = (req.url ?? "").split("?")[0];
    if (path !== "/metrics" || (req.method !== "GET" && req.method !== "HEAD")) {
      res.writeHead(404, { "Content-Type": "text/plain" }).end("Not Found\n");
      return;
    }
    if (expected) {
      const given = Buffer.from(req.headers.authorization ?? "");
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        res.writeHead(401, { "WWW-Authenticate": "Bearer", "Content-Type": "text/plain" });
        res.end("Unauthorized\n");
        return;
      }
    }
    try {
      const { body, contentType } = await text();
      res.writeHead(200, { "Content-Type": contentType, "Cache-Control": "no-store" });
      res.end(req.method === "HEAD" ? undefined : body);
    } catch (error) {
      onError(error);
      res.writeHead(500, { "Content-Type": "text/plain" }).end("Metrics unavailable\n");
    }
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve(server);
    });
  });
}

// ---- Several processes ------------------------------------------------------------------------

const ASK = "gf:metrics?";
const ANSWER = "gf:metrics!";

/** What the primary and its workers say to each other about metrics. */
interface MetricsMessage {
  type?: unknown;
  id: number;
  json?: MetricsJson;
  error?: string;
}

/** In a worker: answers the primary's requests for this process's metrics. */
export function answerPrimary(metrics: Metrics): void {
  process.on("message", async (received) => {
    const message = received as MetricsMessage | null | undefined;
    if (message?.type !== ASK) return;
    try {
      const json = await metrics.registry.getMetricsAsJSON();
      process.send?.({ type: ANSWER, id: message.id, json });
    } catch (error) {
      process.send?.({ type: ANSWER, id: message.id, json: [], error: String(error) });
    }
  });
}

/**
 * In the primary: the metrics of every worker and its own, added up by prom-client's
 * AggregatorRegistry (counters and histograms summed; default process metrics as prom-client
 * aggregates them). A worker that does not answer within 2 s is left out of that scrape.
 */
export function clusterMetricsText(own: Metrics): MetricsText {
  let next = 0;
  const waiting = new Map<number, (json: MetricsJson) => void>();
  cluster.on("message", (_worker, received) => {
    const message = received as MetricsMessage | null | undefined;
    if (message?.type !== ANSWER) return;
    waiting.get(message.id)?.(message.json ?? []);
  });
  return async () => {
    const workers = Object.values(cluster.workers ?? {}).filter(
      (w): w is Worker => w?.isConnected() ?? false,
    );
    const answers = await Promise.all(
      workers.map(
        (worker) =>
          new Promise<MetricsJson>((resolve) => {
            const id = next++;
            const timer = setTimeout(() => {
              waiting.delete(id);
              resolve([]);
            }, 2000);
            waiting.set(id, (json) => {
              clearTimeout(timer);
              waiting.delete(id);
              resolve(json);
            });
            worker.send({ type: ASK, id });
          }),
      ),
    );
    const registry = AggregatorRegistry.aggregate([
      await own.registry.getMetricsAsJSON(),
      ...answers,
    ]);
    return { body: await registry.metrics(), contentType: registry.contentType };
  };
}

/** One process's metrics as the text format. */
export function processMetricsText(metrics: Metrics): MetricsText {
  return async () => ({
    body: await metrics.registry.metrics(),
    contentType: metrics.registry.contentType,
  });
}

/** The variables of the metrics port, read by `readMetricsEnv`. */
export const METRICS_ENV_VARS = ["METRICS_PORT", "METRICS_HOST", "METRICS_TOKEN"] as const;

/**
 * METRICS_PORT (unset: no /metrics at all), METRICS_HOST (default HOST) and METRICS_TOKEN
 * (optional: then a scrape needs `Authorization: Bearer <token>`).
 */
export function readMetricsEnv(
  vars: Record<string, string | undefined>,
  appEnv: { port: number; host: string },
): MetricsEnv {
  const raw = vars.METRICS_PORT;
  let port: number | undefined;
  if (raw !== undefined && raw !== "") {
    port = Number(raw);
    if (!/^\d+$/.test(raw) || port > 65535) {
      throw new Error(`METRICS_PORT must be a port number, got "${raw}"`);
    }
    if (port !== 0 && port === appEnv.port) {
      throw new Error(
        "METRICS_PORT must differ from PORT: metrics are never served on the public port",
      );
    }
  }
  const token = vars.METRICS_TOKEN || undefined;
  if (token !== undefined && token.length < 16) {
    throw new Error("METRICS_TOKEN must be at least 16 characters long");
  }
  return { port, host: vars.METRICS_HOST || appEnv.host, token };
}
