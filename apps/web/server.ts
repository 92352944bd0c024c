// The web server: Express + Remix, one database handle for the process, clean shutdown.
//
// It runs compiled, as build/server.js (`npm run build`, server/build.ts): the paths below that
// name the build (the client files, Remix's server build) are relative to that file.

import { existsSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import {
  connectionStates,
  createDb,
  DataDirLockedError,
  type DbHandle,
  getRankingVersions,
  liveRoundStates,
  lockDataDir,
  resolveDataDir,
  seed,
  tightenPermissions,
} from "@game/db";
import { createRequestHandler } from "@remix-run/express";
import {
  type AppLoadContext,
  createRequestHandler as createRemixHandler,
  type ServerBuild,
} from "@remix-run/node";
import { matchRoutes } from "@remix-run/router";
import compression from "compression";
import express, { type Request, type Response } from "express";
import type { ViteDevServer } from "vite";
import type * as AppEntry from "./app/entry.server";
import { bodyLimit, lateErrors } from "./server/body-limit.js";
import { processRole, runPrimary } from "./server/cluster.js";
import { serveDbSocket } from "./server/db-socket.js";
import { type Env, readEnv } from "./server/env.js";
import { startFreezing } from "./server/freeze-teams.js";
import { liveHub } from "./server/live.js";
import { createLogger, requestLogger } from "./server/logger.js";
import { startMaintenance } from "./server/maintenance.js";
import {
  answerPrimary,
  createMetrics,
  type MetricsEnv,
  processMetricsText,
  readMetricsEnv,
  routeLabeller,
  serveMetrics,
  watchDbPools,
} from "./server/metrics.js";
import { isOneClickUnsubscribe, sameOriginOnly } from "./server/origin.js";
import {
  rankingCacheKey,
  rankingCacheServe,
  rankingVersionReader,
  remixRequestOf,
} from "./server/ranking-cache.js";
import { readiness } from "./server/readiness.js";
import { startReminders } from "./server/reminders.js";
import { helmetHeaders, securityHeaders } from "./server/security-headers.js";
import { closeConnectionsWhen, drainServer } from "./server/shutdown.js";
import { describeError, messageOf, openWithRetry, StartError } from "./server/start-db.js";
import { staticFiles } from "./server/static-files.js";
import { urlGuard } from "./server/url-guard.js";

const started = Date.now();
// Everything the app writes (database files, session secret, socket file) is its owner's only.
process.umask(0o077);

/** A start that cannot go on: one line, no stack trace, exit 1. */
function fail(line: string): never {
  console.error(line);
  process.exit(1);
}

// One owner per data folder (docs/decisions/0070-data-folder-lock.md): take it before anything
// is read or written there, so a second start leaves a running app and its files alone.
if (!process.env.DATABASE_URL) {
  try {
    lockDataDir(resolveDataDir());
  } catch (error) {
    fail(
      error instanceof DataDirLockedError ? error.message : `Start failed: ${describeError(error)}`,
    );
  }
}

let env: Env;
try {
  env = readEnv();
} catch (error) {
  fail(`Configuration error: ${messageOf(error)}`);
}
// Folders and files left readable by earlier versions (and PGlite's 0666 files) become private.
if (existsSync(env.dataDir)) tightenPermissions(env.dataDir);

// WEB_CONCURRENCY on PostgreSQL: this process becomes the primary of that many workers and
// serves nothing itself (server/cluster.ts); each worker runs the rest of this file, serving
// requests only. `runPrimary` never returns: its process ends in its own shutdown.
const role = processRole(env);
if (role === "primary") await runPrimary(env, { started });

// Metrics for /metrics (on METRICS_PORT only) and JSON logs (docs/decisions/0136).
let metricsEnv: MetricsEnv;
try {
  metricsEnv = readMetricsEnv(process.env, env);
} catch (error) {
  fail(`Configuration error: ${messageOf(error)}`);
}
const metrics = createMetrics();
// A worker's metrics are served by its primary, which adds up every worker's.
if (role === "worker") answerPrimary(metrics);
const logger = createLogger({ production: env.production });
/** Names this process's database connections, so the metrics can find them. */
const applicationName = `gravity-fantasy:${process.pid}`;

let handle: DbHandle;
try {
  const open = () =>
    createDb({
      url: env.databaseUrl,
      dataDir: env.dataDir,
      // Public pages read here (rankings, racers, events, the public API); a player's own data
      // and every write go to the primary (docs/decisions/0131-read-replicas.md).
      replicaUrl: env.databaseReplicaUrl,
      // The primary process migrated before forking the workers.
      migrate: role !== "worker",
      applicationName,
      // An upgrade says what it does: the backup it took first (embedded), each migration
      // applied, how to go back (docs/decisions/0163-backup-and-restore.md).
      log: (line) => console.log(line),
    });
  handle = await openWithRetry(open, {
    url: env.databaseUrl,
    timeoutMs: env.dbStartTimeoutMs,
  });
} catch (error) {
  fail(error instanceof StartError ? error.message : `Start failed: ${describeError(error)}`);
}
// The admin CLI reaches the embedded database through the app while it runs.
const dbSocket = await serveDbSocket(handle, env);
try {
  const seeded: { eventsAdded?: number; racersAdded?: number } =
    role === "worker" ? {} : await seed(handle.db);
  if (seeded.eventsAdded || seeded.racersAdded) {
    console.log(`Seeded ${seeded.eventsAdded} events and ${seeded.racersAdded} racers.`);
  }
} catch (error) {
  await dbSocket.close();
  await handle.close().catch(() => {});
  fail(`Start failed while seeding the database: ${describeError(error)}`);
}

let stopping = false;

const viteDevServer: ViteDevServer | undefined = env.production
  ? undefined
  : await import("vite").then((vite) => vite.createServer({ server: { middlewareMode: true } }));

const app = express();
app.disable("x-powered-by");
app.set("trust proxy", env.trustProxy);
// Route labels of metrics and logs: the Remix route id, never the raw URL.
const labels = routeLabeller(() => build, matchRoutes);
// A request id for every request (X-Request-Id), one JSON line per request in production.
app.use(requestLogger(logger, { production: env.production, routeOf: labels.label }));
app.use(metrics.http(labels.label));
// Liveness and readiness answer before anything else (no headers work, no body, no session).
app.get(
  "/readyz",
  readiness({
    db: handle.db,
    replica: handle.replicaLocation ? handle.readDb : undefined,
    stopping: () => stopping,
    // A queue of the app refusing work (password checks): send new requests elsewhere.
    busy: () => (typeof build === "object" ? (entryOf(build).busyReason?.() ?? null) : null),
  }),
);
app.use(closeConnectionsWhen(() => stopping));
// Live scores (docs/decisions/0171): before compression, which would hold events back.
const live = liveHub({
  read: (ids) => liveRoundStates(handle.readDb ?? handle.db, ids),
  maxStreams: env.liveMaxStreams,
  perIp: env.liveStreamsPerIp,
  onError: (error) => logger.error({ error: describeError(error) }, "live scores: read failed"),
});
app.use(live.handler);
app.use(compression());
// Ranking versions: read from where the rankings are read (a replica never runs ahead of its
// own rows), at most once a second per process.
const rankingVersions = rankingVersionReader(() => getRankingVersions(handle.readDb ?? handle.db));
/** Names this deploy's code: a cached page or ETag never outlives it. */
const buildVersion = () => (typeof build === "object" ? build.assets.version : "development");
// A visitor's ranking page: its cache key, ETag and CSP nonce, before helmet writes the CSP
// (docs/decisions/0135-cached-rankings.md).
// Production only: in development the code changes under a running server.
if (env.production) {
  app.use(rankingCacheKey({ versions: rankingVersions, buildVersion, secret: env.sessionSecret }));
}
// Script CSP with a per-request nonce, HSTS behind https, nosniff, Referrer-Policy.
app.use(helmetHeaders({ publicUrl: env.publicUrl, production: env.production }));
// No framing, except the partner iframe pages (their routes set frame-ancestors themselves).
app.use(securityHeaders());
// 413 for an over-long body before anything reads it (sign-in checks included).
app.use(bodyLimit());
// A NUL or a broken escape in the address: the ordinary 404/400, before any route reads it.
app.use(urlGuard());
// Before any route: no action can forget the cross-site check (mail apps' one-click unsubscribe
// excepted: its link carries its own token).
app.use(sameOriginOnly({ publicUrl: env.publicUrl, isExempt: isOneClickUnsubscribe }));
// Partner pages import the embed's widget modules (`/embed/v1/*.js`): module scripts need CORS.
// Public code, so any origin (whether it may show the widgets is the API's and hello's call).
// The loader keeps its name but names this deploy's modules: cached 5 minutes, not an hour.
// The modules are named by their content (a widget's hash, or a shared chunk's): a year,
// immutable, so a returning reader of a partner's page fetches only the loader.
app.use("/embed/v1", (req, res, next) => {
  if (req.path.endsWith(".js")) res.setHeader("Access-Control-Allow-Origin", "*");
  if (req.path === "/widgets.js") res.setHeader("Cache-Control", "public, max-age=300");
  else if (/^\/(?:[a-z-]+-[0-9a-f]{10}|shared-[A-Z0-9]{8})\.js$/.test(req.path)) {
    res.setHeader("Cache-Control", "public, max-age=31536000, immutable");
  }
  next();
});

if (viteDevServer) {
  app.use(viteDevServer.middlewares);
} else {
  // From memory: no file-system call (thread pool) for a file, a page or /healthz.
  app.use(staticFiles(fileURLToPath(new URL("./client", import.meta.url))));
}

/** The build's entry module, with what the app exports beside Remix's own. */
function entryOf(serverBuild: ServerBuild): Partial<typeof AppEntry> {
  return serverBuild.entry.module as Partial<typeof AppEntry>;
}

/** Remix's server build, beside this file in build/ (what `remix vite:build` wrote). */
const SERVER_BUILD = new URL("./server/index.js", import.meta.url).href;

const build: ServerBuild | (() => Promise<ServerBuild>) = viteDevServer
  ? () =>
      viteDevServer
        .ssrLoadModule("virtual:remix/server-build")
        .then((m) => withGuardedActions(m as ServerBuild))
  : withGuardedActions(
      await (import(SERVER_BUILD) as Promise<ServerBuild>).catch((error) =>
        fail(
          error?.code === "ERR_MODULE_NOT_FOUND" &&
            String(error.url).endsWith("build/server/index.js")
            ? "No production build in build/: run `npm run build` first (`npm start` at the repository root does)."
            : `Start failed loading the build: ${describeError(error)}`,
        ),
      ),
    );

/**
 * The build with every route's action guarded: a save the database cannot take (out of disk,
 * memory or connections) is answered 503 "We cannot save right now, try again in a minute" and
 * logged in one line for the admin, not a generic 500 (docs/decisions/0150).
 */
function withGuardedActions(serverBuild: ServerBuild): ServerBuild {
  const guard = entryOf(serverBuild).guardActions;
  return guard ? { ...serverBuild, routes: guard(serverBuild.routes) } : serverBuild;
}

/** Work to finish before the database closes (e.g. counts held in memory), see `onClose`. */
const closers = new Set<() => Promise<void>>();

const context: AppLoadContext = {
  db: handle.db,
  readDb: handle.readDb,
  ...(env.production ? { rankingVersions, buildVersion } : {}),
  metrics,
  dbKind: handle.kind,
  env,
  now: () => new Date(),
  onClose: (fn) => closers.add(fn),
};

const loadContextOf = (req: Request, res: Response): AppLoadContext => ({
  ...context,
  clientIp: req.ip,
  cspNonce: res.locals.cspNonce as string | undefined,
  // Work the answer must not wait for (mail): once the response is out, or the client gone.
  afterResponse: (start) => {
    res.once("close", start);
  },
  // A page's loaders share one session lookup; an action's loaders look again (see the type).
  ...(req.method === "GET" || req.method === "HEAD" ? { viewer: {} } : {}),
});
const remixHandler = createRemixHandler(build, env.production ? "production" : "development");
app.use(labels.mark);
// Visitors' ranking pages: 304, or the page this process rendered for this version.
app.use(
  rankingCacheServe({
    render: (req, res) => remixHandler(remixRequestOf(req), loadContextOf(req, res)),
  }),
);
app.all("*", createRequestHandler({ build, getLoadContext: loadContextOf }));
app.use(lateErrors());
// Scheduled jobs, each tick run by one process across all of them (docs/decisions/0130); with
// several workers their primary runs them.
const noJob = () => {};
const time = metrics.timeJob;
const stopMaintenance = role === "worker" ? noJob : startMaintenance(handle.db, { time });
// Teams freeze at each event's lock moment (12 h before the start), what scoring reads.
const stopFreezing = role === "worker" ? noJob : startFreezing(handle.db, { time });
// Deadline reminders, 24 h before each lock, once per player per round (docs/decisions/0103).
const stopReminders = role === "worker" ? noJob : startReminders(handle.db, env, { time });
// Database connections by state, read when /metrics is scraped.
watchDbPools(
  metrics,
  handle.kind === "pglite"
    ? [{ name: "embedded", max: 1 }]
    : [
        { name: "primary", max: 10, query: () => connectionStates(handle.db, applicationName) },
        ...(handle.replicaLocation
          ? [
              {
                name: "replica",
                max: 10,
                query: () => connectionStates(handle.readDb, applicationName),
              },
            ]
          : []),
      ],
);
// Errors logged by Remix code (one line each, decision 0073) become JSON lines with the request id.
if (env.production && typeof build === "object") {
  entryOf(build).setErrorSink?.((entry) => logger.error(entry, `${entry.where}: ${entry.error}`));
}
// /metrics on a port of its own, never the public one (a worker's go through its primary).
const metricsServer =
  role === "single" && metricsEnv.port !== undefined
    ? await serveMetrics({
        port: metricsEnv.port,
        host: metricsEnv.host,
        token: metricsEnv.token,
        text: processMetricsText(metrics),
      }).catch((error) =>
        fail(`Could not serve metrics on port ${metricsEnv.port}: ${describeError(error)}`),
      )
    : undefined;
if (metricsServer) {
  console.log(`Metrics on port ${(metricsServer.address() as AddressInfo).port} (/metrics)`);
}

const server = app.listen(env.port, env.host, () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : env.port;
  // With PORT=0 the system picked the port: links fall back to it (see below).
  env.port = port;
  // The admin CLI's reminders link here too (docs/decisions/0143-reminder-links.md).
  dbSocket.publish({ publicUrl: env.publicUrl || `http://localhost:${port}` });
  // A worker is quiet: it tells its primary, which says once that all of them serve.
  if (role === "worker") {
    process.send?.({ gravity: "listening", port });
    return;
  }
  const replica = handle.replicaLocation ? `, reads from ${handle.replicaLocation}` : "";
  console.log(
    `Gravity Fantasy on http://localhost:${port} (${handle.kind}: ${handle.location}${replica}) in ${Date.now() - started} ms`,
  );
  if (!env.publicUrl) {
    console.warn(
      `PUBLIC_URL is not set: links in e-mails point to http://localhost:${port}. Set PUBLIC_URL to the address players use.`,
    );
  }
});
server.on("error", async (error) => {
  stopMaintenance();
  stopFreezing();
  stopReminders();
  await dbSocket.close();
  await handle.close().catch(() => {});
  fail(`Could not listen on ${env.host}:${env.port}: ${describeError(error)}`);
});

// Stop accepting, let requests in flight finish (up to 10 s), then close the database
// (docs/decisions/0071-outages-and-shutdown.md).
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: shutting down`);
  // Whatever happens below, the process ends: in-flight requests get 10 s, closing 5 s more.
  setTimeout(() => {
    console.error("Shutdown took too long; exiting.");
    process.exit(1);
  }, 15_000).unref();
  stopMaintenance();
  stopFreezing();
  stopReminders();
  metricsServer?.close();
  // Live streams never finish by themselves: end them, and their pages reconnect elsewhere.
  live.close();
  const drained = await drainServer(server, { drainMs: 10_000 });
  if (!drained) console.error("Requests still running after 10 s were cut.");
  await Promise.allSettled([...closers].map((close) => close()));
  await viteDevServer?.close();
  await dbSocket.close();
  await handle.close();
  process.exit(0);
}
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));
// A worker whose primary is gone (killed) gets no new connections: it finishes and exits.
if (role === "worker") process.on("disconnect", () => void shutdown("Primary process gone"));
