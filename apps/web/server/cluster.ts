// Several app processes on one port (WEB_CONCURRENCY, node's cluster module), on PostgreSQL
// only (docs/decisions/0130-several-app-processes.md). The primary process migrates and seeds
// the database once, forks the workers (each runs build/server.js as a whole app: requests only),
// replaces a worker that dies, runs the scheduled jobs (freezing teams, reminders, maintenance;
// each tick claimed in the database, so other machines never run them twice) and, on SIGTERM or
// Ctrl-C, lets every worker drain before it exits.
import cluster, { type Worker } from "node:cluster";
import type { AddressInfo } from "node:net";
import { connectionStates, createDb, type DbHandle, redactUrl, seed } from "@game/db";
import type { Env } from "./env.js";
import { startFreezing } from "./freeze-teams.js";
import { startMaintenance } from "./maintenance.js";
import {
  clusterMetricsText,
  createMetrics,
  type MetricsEnv,
  readMetricsEnv,
  serveMetrics,
  watchDbPools,
} from "./metrics.js";
import { startReminders } from "./reminders.js";
import { describeError, messageOf, openWithRetry, StartError } from "./start-db.js";

export type ProcessRole = "single" | "primary" | "worker";

/**
 * What this process is: the one process of the app ("single"), the primary of several workers,
 * or one of those workers. The embedded database (PGlite) is one process's files: asking for
 * more processes without DATABASE_URL is refused with one warning line and the app runs as one.
 */
export function processRole(
  env: { webConcurrency: number; databaseUrl?: string | undefined },
  {
    isWorker = cluster.isWorker,
    warn = console.warn,
  }: { isWorker?: boolean; warn?: (line: string) => void } = {},
): ProcessRole {
  if (isWorker) return "worker";
  if (env.webConcurrency <= 1) return "single";
  if (!env.databaseUrl) {
    warn(
      `WEB_CONCURRENCY=${env.webConcurrency} ignored: the embedded database runs in one process. Set DATABASE_URL (PostgreSQL) to run several.`,
    );
    return "single";
  }
  return "primary";
}

/** How long workers get to finish their requests and close (their own limit is 15 s). */
const WORKERS_STOP_MS = 20_000;

/**
 * Runs the primary: never resolves; the process ends through `process.exit` (a failed start,
 * or the end of a shutdown).
 */
export async function runPrimary(env: Env, { started }: { started: number }): Promise<never> {
  function fail(line: string): never {
    console.error(line);
    process.exit(1);
  }
  let metricsEnv: MetricsEnv;
  try {
    metricsEnv = readMetricsEnv(process.env, env);
  } catch (error) {
    fail(`Configuration error: ${messageOf(error)}`);
  }
  // The primary's own metrics (the scheduled jobs, its connections), added to its workers' at
  // each scrape (docs/decisions/0136-metrics-and-logs.md).
  const metrics = createMetrics();
  const applicationName = `gravity-fantasy:${process.pid}`;
  const handle = await openPrimaryDb(env, applicationName, fail);

  const wanted = env.webConcurrency;
  /** Workers that have listened at least once: a worker dying before that is a failed start. */
  const listened = new Set<number>();
  let stopping = false;
  let stops: (() => void)[] = [];

  const stopJobs = () => {
    for (const stop of stops) stop();
    stops = [];
  };

  // A worker's own message, not cluster's "listening" event: in development Vite's HMR socket
  // listens too.
  cluster.on("message", (worker, received) => {
    const message = received as { gravity?: unknown; port?: unknown } | null | undefined;
    if (message?.gravity !== "listening") return;
    listened.add(worker.id);
    if (stops.length > 0) {
      // A replacement for a worker that stopped: the operator learns it serves again.
      console.log(`Worker process ${worker.process.pid} serves.`);
      return;
    }
    if (listened.size !== wanted) return;
    // Every worker serves now: the one start line, then the scheduled jobs (their links need
    // the port, which PORT=0 leaves to the system).
    if (typeof message.port === "number") env.port = message.port;
    announceStart(env, handle, wanted, started);
    const time = metrics.timeJob;
    stops = [
      startMaintenance(handle.db, { time }),
      startFreezing(handle.db, { time }),
      startReminders(handle.db, env, { time }),
    ];
  });

  cluster.on("exit", (worker, code, signal) => {
    if (stopping) return;
    const how = signal ? `signal ${signal}` : `code ${code}`;
    if (!listened.has(worker.id)) {
      // It never served (no build, port taken, database refused): the start fails, whole.
      void shutdown(`A worker process failed to start (${how})`, 1);
      return;
    }
    console.error(`Worker process ${worker.process.pid} stopped (${how}); starting another.`);
    // A second's pause: a worker that keeps crashing does not spin the machine.
    setTimeout(() => {
      if (!stopping) cluster.fork();
    }, 1000);
  });

  async function shutdown(reason: string, exitCode = 0): Promise<void> {
    if (stopping) return;
    stopping = true;
    console.log(`${reason}: shutting down ${Object.keys(cluster.workers ?? {}).length} workers`);
    stopJobs();
    const cut = await stopWorkers();
    await handle.close().catch(() => {});
    process.exit(cut ? 1 : exitCode);
  }
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));

  watchDbPools(metrics, [
    { name: "primary", max: 3, query: () => connectionStates(handle.db, applicationName) },
  ]);
  // /metrics of all the processes, on a port of their own.
  if (metricsEnv.port !== undefined) {
    const server = await serveMetrics({
      port: metricsEnv.port,
      host: metricsEnv.host,
      token: metricsEnv.token,
      text: clusterMetricsText(metrics),
    }).catch((error) =>
      fail(`Could not serve metrics on port ${metricsEnv.port}: ${describeError(error)}`),
    );
    console.log(`Metrics on port ${(server.address() as AddressInfo).port} (/metrics)`);
  }

  for (let i = 0; i < wanted; i++) cluster.fork();
  return new Promise(() => {});
}

/**
 * The primary's database: opened (waiting for a server still starting), migrated once for every
 * worker, seeded. A small pool: the primary runs the scheduled jobs only.
 */
async function openPrimaryDb(
  env: Env,
  applicationName: string,
  fail: (line: string) => never,
): Promise<DbHandle> {
  let handle: DbHandle;
  try {
    handle = await openWithRetry(
      // An upgrade logs each migration it applies (docs/decisions/0163-backup-and-restore.md).
      () => createDb({ url: env.databaseUrl, max: 3, applicationName, log: (l) => console.log(l) }),
      { url: env.databaseUrl, timeoutMs: env.dbStartTimeoutMs },
    );
  } catch (error) {
    fail(error instanceof StartError ? error.message : `Start failed: ${describeError(error)}`);
  }
  try {
    const seeded = await seed(handle.db);
    if (seeded.eventsAdded || seeded.racersAdded) {
      console.log(`Seeded ${seeded.eventsAdded} events and ${seeded.racersAdded} racers.`);
    }
  } catch (error) {
    await handle.close().catch(() => {});
    fail(`Start failed while seeding the database: ${describeError(error)}`);
  }
  return handle;
}

/** The one start line once every worker serves, and the warning when links lack an address. */
function announceStart(env: Env, handle: DbHandle, workers: number, started: number) {
  const replica = env.databaseReplicaUrl ? `, reads from ${redactUrl(env.databaseReplicaUrl)}` : "";
  console.log(
    `Gravity Fantasy on http://localhost:${env.port} (${handle.kind}: ${handle.location}${replica}) with ${workers} worker processes in ${Date.now() - started} ms`,
  );
  if (!env.publicUrl) {
    console.warn(
      `PUBLIC_URL is not set: links in e-mails point to http://localhost:${env.port}. Set PUBLIC_URL to the address players use.`,
    );
  }
}

/**
 * Stops every worker: each drains its requests in flight (10 s), then closes its database and
 * exits; one still running after WORKERS_STOP_MS is killed. Returns whether any was.
 */
async function stopWorkers(): Promise<boolean> {
  const alive = Object.values(cluster.workers ?? {}).filter((w): w is Worker => Boolean(w));
  const exited = alive.map(
    (worker) => new Promise((resolve) => worker.process.once("exit", () => resolve(worker))),
  );
  for (const worker of alive) worker.process.kill("SIGTERM");
  let cut = false;
  const timer = setTimeout(() => {
    cut = true;
    for (const worker of alive) worker.process.kill("SIGKILL");
  }, WORKERS_STOP_MS);
  await Promise.all(exited);
  clearTimeout(timer);
  if (cut) console.error(`Workers still running after ${WORKERS_STOP_MS / 1000} s were killed.`);
  return cut;
}
