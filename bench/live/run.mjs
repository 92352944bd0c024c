// Live scores: how soon 10,000 open live streams on one app process hear of a results import
// (docs/decisions/0171-live-provisional-results.md).
//
//   npm run bench -- live
//   LIVE_STREAMS=2000 BENCH_ROUNDS=2 node bench/live/run.mjs
//
// Starts the built app (`node build/server.js`, production mode, one process) on a fresh
// embedded database in a temporary data folder (or, with BENCH_PG_URL, on a fresh PostgreSQL
// database), with LIVE_MAX_STREAMS and LIVE_STREAMS_PER_IP above the stream count, then:
//
// 1. opens LIVE_STREAMS streams to /api/v1/events/5/live from a worker thread (client.mjs), each
//    counted open at its first `scores` event; prints how long that took and the app's memory;
// 2. BENCH_ROUNDS times, after a random pause of up to a second (so the commit falls anywhere in
//    the app's one-second tick), imports a provisional results file through the CLI
//    (`game-admin results import 5 <file> --provisional`, each file a different order so
//    the round's version changes) and stamps, for every stream, the arrival of its next `scores`
//    event. The commit is taken as the moment the CLI exits successfully: an upper bound on the
//    commit, so the delay measured from it is a lower bound. The event's version is the
//    settlement's clock, taken before the commit: the delay from it is an upper bound. Both are
//    printed; the target is judged, as set, from the CLI's exit;
// 3. imports the final results (no --provisional) and checks every stream hears `final: true`
//    and ends.
//
// Target (the race-day issue): 10,000 open streams on one process receive an update within 2 s
// of the import's commit. The script exits 1 when missed.
//
// Environment: LIVE_STREAMS (10000), BENCH_ROUNDS (3), BENCH_OPEN_CONCURRENCY (200 streams being
// opened at a time), BENCH_PG_URL (PostgreSQL instead of the embedded database: a database is
// created there and dropped after), BENCH_APP_LOG (a file to keep the app's last log lines in),
// BENCH_APP_ARGS (node flags for the app process, e.g. "--cpu-prof").
// Each stream is an open file in this process and in the app's: the open-file limit must be above
// LIVE_STREAMS (Node raises its soft limit to the hard one by itself; the hard one is the system's).
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { processCpuMs } from "../proc-cpu.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const webRoot = path.join(root, "apps/web");
const cliBin = path.join(root, "cli/bin/game-admin.js");

// Run by hand or by bench/run.mjs, never by turbo: these settings do not belong in turbo.json.
const {
  LIVE_STREAMS,
  BENCH_ROUNDS,
  BENCH_OPEN_CONCURRENCY,
  BENCH_PG_URL,
  BENCH_APP_LOG,
  BENCH_APP_ARGS,
} = process.env;
const STREAMS = Number(LIVE_STREAMS ?? 10_000);
const ROUNDS = Number(BENCH_ROUNDS ?? 3);
const OPEN_CONCURRENCY = Number(BENCH_OPEN_CONCURRENCY ?? 200);
const EVENT_ID = 5;
const TARGET_MS = 2000;
/** How long a round waits for its last stream before counting the rest as missed. */
const ROUND_TIMEOUT_MS = 20_000;
/** Open files besides the streams: the app's database files, sockets, pipes; ours. */
const SPARE_FILES = 256;

const fmt = (ms) => (Number.isFinite(ms) ? `${Math.round(ms)} ms` : "-");
const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** The app's CPU time in ms (NaN where /proc is missing). */
const appCpuMs = () => processCpuMs(app.pid) ?? Number.NaN;

/** The open-file limits (soft, hard) this process runs under, as a shell it starts sees them. */
function openFileLimits() {
  try {
    const [soft, hard] = execFileSync("sh", ["-c", "ulimit -Sn; ulimit -Hn"], { encoding: "utf8" })
      .trim()
      .split(/\s+/)
      .map((v) => (v === "unlimited" ? Number.POSITIVE_INFINITY : Number(v)));
    return { soft, hard };
  } catch {
    return null;
  }
}

const limits = openFileLimits();
const needed = STREAMS + SPARE_FILES;
if (limits && limits.soft < needed) {
  console.error(
    `live: ${STREAMS} streams need about ${needed} open files in this process and as many in the app's, and the open-file limit here is ${limits.soft} (hard limit ${limits.hard}). Node raises its soft limit to the hard one when it starts, so raise the hard limit (ulimit -Hn ${needed} as root, or LimitNOFILE= in a systemd unit, or nofile in /etc/security/limits.conf), or run fewer streams: LIVE_STREAMS=${Math.max(0, (Number.isFinite(limits.hard) ? limits.hard : limits.soft) - SPARE_FILES)}.`,
  );
  process.exit(1);
}

const pg = BENCH_PG_URL ? await import("postgres").then((m) => m.default) : null;
const dbName = `gf_bench_live_${process.pid}`;
const dataDir = pg ? null : mkdtempSync(path.join(os.tmpdir(), "gf-bench-live-"));
const workDir = mkdtempSync(path.join(os.tmpdir(), "gf-bench-live-files-"));
let admin = null;
let dbUrl;
if (pg) {
  admin = pg(BENCH_PG_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${dbName}"`);
  const u = new URL(BENCH_PG_URL);
  u.pathname = `/${dbName}`;
  dbUrl = u.toString();
}

/** The database of the app and the CLI: DATABASE_URL, or the app's data folder. */
function dbEnv() {
  const env = { ...process.env };
  delete env.DATABASE_URL;
  delete env.DATABASE_REPLICA_URL;
  delete env.DATA_DIR;
  if (dbUrl) env.DATABASE_URL = dbUrl;
  else env.DATA_DIR = dataDir;
  return env;
}

let app = null;
/** The app's last log lines, for a failure's report (each stream logs a line when it ends). */
let appLog = [];
let worker = null;
let stopping = false;

async function cleanUp() {
  if (stopping) return;
  stopping = true;
  if (worker) await worker.terminate().catch(() => {});
  await stopApp();
  if (BENCH_APP_LOG) writeFileSync(BENCH_APP_LOG, `${appLog.join("\n")}\n`);
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  rmSync(workDir, { recursive: true, force: true });
  if (admin) {
    await admin.unsafe(`drop database if exists "${dbName}" with (force)`);
    await admin.end({ timeout: 5 });
  }
}
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    console.error(`live: ${signal}, cleaning up`);
    cleanUp().finally(() => process.exit(130));
  });
}

try {
  await main();
} catch (error) {
  console.error(error);
  console.error(appLog.slice(-20).join("\n"));
  process.exitCode = 1;
} finally {
  await cleanUp();
}

async function main() {
  const t0 = Date.now();
  const port = await startApp();
  console.log(
    `live: app on http://127.0.0.1:${port} (${pg ? "PostgreSQL" : "embedded PGlite"}, one process, production) started in ${secs(Date.now() - t0)}; ${os.cpus().length} cores, Node ${process.version}, open-file limit ${limits ? limits.soft : "unknown"}`,
  );
  const files = await resultFiles();
  // Race day: the round starts in an hour, so its teams are locked and it is live (a round
  // before its lock has nothing to follow: its stream ends at once, decision 0171).
  const scheduled = await runCli([
    "events",
    "schedule",
    String(EVENT_ID),
    new Date(Date.now() + 3600_000).toISOString(),
  ]);
  if (scheduled.code !== 0) throw new Error(`events schedule failed:\n${scheduled.output}`);

  // ---- 1. the viewers -------------------------------------------------------------------
  const rssBefore = rssMb(app.pid);
  const cpuBefore = appCpuMs();
  worker = new Worker(new URL("./client.mjs", import.meta.url), {
    workerData: {
      port,
      path: `/api/v1/events/${EVENT_ID}/live`,
      streams: STREAMS,
      concurrency: OPEN_CONCURRENCY,
    },
  });
  worker.on("error", (error) => {
    console.error("live: the client worker failed", error);
    process.exitCode = 1;
  });
  const opened = await ask("open", "opened");
  const failed = Object.values(opened.failures).reduce((a, b) => a + b, 0);
  const rssAfter = rssMb(app.pid);
  console.log(
    `live: opened ${STREAMS - failed} of ${STREAMS} streams in ${secs(opened.ms)} (${OPEN_CONCURRENCY} being opened at a time, each counted at its first event); app CPU ${fmt(appCpuMs() - cpuBefore)}; app memory (RSS) ${rssBefore} MB before, ${rssAfter} MB after (${(((rssAfter - rssBefore) * 1024) / STREAMS).toFixed(1)} KB a stream); this process (the viewers) ${Math.round(opened.rss / 1024 / 1024)} MB`,
  );
  if (failed > 0) {
    throw new Error(`streams not opened: ${JSON.stringify(opened.failures)}`);
  }
  // Let the opening's garbage settle and a tick or two pass before the first import.
  await sleep(2000);

  // ---- 2. provisional rounds, 3. the final ----------------------------------------------
  const all = [];
  let missed = 0;
  let worstFromSettlement = 0;
  for (let round = 1; round <= ROUNDS + 1; round++) {
    const final = round > ROUNDS;
    const name = final ? "final" : `round ${round} (provisional)`;
    const args = ["results", "import", String(EVENT_ID), files[final ? 0 : round]];
    if (!final) args.push("--provisional");

    // A random pause first, so the commit falls anywhere in the app's one-second tick (each
    // round would otherwise start at the same point of it, right after the last update).
    await sleep(Math.random() * 1000);
    await ask("mark", "marked");
    const arrived = once("arrived");
    const endedAll = final ? once("ended") : null;
    const cpu0 = appCpuMs();
    const cli = await runCli(args);
    if (cli.code !== 0) throw new Error(`the import failed (exit ${cli.code}):\n${cli.output}`);
    await Promise.race([arrived, sleep(ROUND_TIMEOUT_MS)]);
    if (endedAll) await Promise.race([endedAll, sleep(ROUND_TIMEOUT_MS)]);
    const cpu = appCpuMs() - cpu0;
    const r = await ask("collect", "round");

    const versions = Object.entries(r.versions);
    const got = versions.reduce((n, [, k]) => n + k, 0);
    missed += STREAMS - got;
    if (versions.length > 1) {
      throw new Error(`${name}: several versions ${JSON.stringify(versions)}`);
    }
    if (versions.length === 0) {
      console.log(`live: ${name}: no stream got the update within ${secs(ROUND_TIMEOUT_MS)}`);
      continue;
    }
    const settledAt = Number.parseInt(versions[0][0], 10);
    const fromExit = [];
    const fromSettlement = [];
    for (const t of r.stamps) {
      if (Number.isNaN(t)) continue;
      fromExit.push(t - cli.exitAt);
      fromSettlement.push(t - settledAt);
    }
    fromExit.sort((a, b) => a - b);
    fromSettlement.sort((a, b) => a - b);
    all.push(...fromExit);
    worstFromSettlement = Math.max(worstFromSettlement, fromSettlement.at(-1) ?? 0);
    console.log(
      `live: ${name}: the CLI ran ${fmt(cli.exitAt - cli.startAt)} (start to exit), its settlement stamped ${fmt(settledAt - cli.startAt)} after the start; ${got} of ${STREAMS} streams got the update`,
    );
    console.log(
      `  from the CLI's exit (no earlier than the commit): p50 ${fmt(percentile(fromExit, 50))}, p99 ${fmt(percentile(fromExit, 99))}, max ${fmt(fromExit.at(-1))}, first ${fmt(fromExit[0])}`,
    );
    console.log(
      `  from the settlement's clock (before the commit): p50 ${fmt(percentile(fromSettlement, 50))}, p99 ${fmt(percentile(fromSettlement, 99))}, max ${fmt(fromSettlement.at(-1))}`,
    );
    console.log(
      `  first to last stream ${fmt((fromExit.at(-1) ?? 0) - (fromExit[0] ?? 0))}; app CPU in the round ${fmt(cpu)}; the viewers' event loop late by ${fmt(r.lagMaxMs)} at most`,
    );
    if (final) {
      const ok = r.finals === STREAMS && r.ended === STREAMS;
      console.log(
        `  final: ${r.finals} of ${STREAMS} streams heard final: true, ${r.ended} ended${r.endedEarly ? `, ${r.endedEarly} cut before their end` : ""} ${ok ? "(all)" : "MISSED"}`,
      );
      if (!ok) missed += Math.max(STREAMS - r.finals, STREAMS - r.ended);
    }
  }

  all.sort((a, b) => a - b);
  const met = missed === 0 && (all.at(-1) ?? Number.POSITIVE_INFINITY) <= TARGET_MS;
  console.log(
    `live: ${STREAMS} streams, ${ROUNDS} provisional import${ROUNDS === 1 ? "" : "s"} and the final, update p50 ${fmt(percentile(all, 50))}, p99 ${fmt(percentile(all, 99))}, max ${fmt(all.at(-1))} after the CLI's exit${missed ? `, ${missed} updates missed` : ""} (target: all within ${TARGET_MS} ms) ${met ? "MET" : "MISSED"}`,
  );
  console.log(
    `live: from the settlement's clock instead (before the commit, so an upper bound): max ${fmt(worstFromSettlement)}, ${worstFromSettlement <= TARGET_MS ? "within the target too" : "over the target (the commit lies between the two)"}`,
  );
  await ask("close", "closed");
  if (!met) process.exitCode = 1;
}

/** Asks the worker for something and waits for its answer. */
function ask(type, answer) {
  const reply = once(answer);
  worker.postMessage({ type });
  return reply;
}

function once(type) {
  return new Promise((resolve) => {
    const on = (msg) => {
      if (msg.type !== type) return;
      worker.off("message", on);
      resolve(msg);
    };
    worker.on("message", on);
  });
}

/** `game-admin ...` on the app's database; resolves with its exit code and moments. */
function runCli(args) {
  return new Promise((resolve, reject) => {
    const startAt = Date.now();
    const child = spawn(process.execPath, [cliBin, ...args], {
      cwd: root,
      env: dbEnv(),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d) => {
      output += d;
    });
    child.stderr.on("data", (d) => {
      output += d;
    });
    child.on("error", reject);
    child.on("exit", (code) => {
      const exitAt = Date.now();
      // The output is read to its end before anyone looks at it.
      child.on("close", () => resolve({ code, startAt, exitAt, output }));
    });
  });
}

/**
 * One results file for the final (index 0) and one per provisional round, each a different
 * order of every category's racers, so each import changes the round's version.
 */
async function resultFiles() {
  const listed = await runCli([
    "racers",
    "list",
    "--game",
    String(EVENT_ID),
    "--json",
    "--limit",
    "1000",
  ]);
  if (listed.code !== 0) throw new Error(`racers list failed:\n${listed.output}`);
  const byCategory = new Map();
  for (const r of JSON.parse(listed.output)) {
    if (!byCategory.has(r.category)) byCategory.set(r.category, []);
    byCategory.get(r.category).push(r.id);
  }
  const files = [];
  for (let round = 0; round <= ROUNDS; round++) {
    const rows = ["Position,Racer ID"];
    for (const ids of byCategory.values()) {
      const shift = round % ids.length;
      const order = [...ids.slice(shift), ...ids.slice(0, shift)];
      for (const [i, id] of order.entries()) rows.push(`${i + 1},${id}`);
    }
    const file = path.join(workDir, `results-${round}.csv`);
    writeFileSync(file, `${rows.join("\n")}\n`);
    files.push(file);
  }
  return files;
}

function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function rssMb(pid) {
  try {
    const m = readFileSync(`/proc/${pid}/status`, "utf8").match(/VmRSS:\s+(\d+) kB/);
    return m ? Math.round(Number(m[1]) / 1024) : 0;
  } catch {
    return 0;
  }
}

async function startApp() {
  const nodeArgs = (BENCH_APP_ARGS ?? "").split(" ").filter(Boolean);
  app = spawn(process.execPath, [...nodeArgs, "build/server.js"], {
    cwd: webRoot,
    env: {
      ...dbEnv(),
      NODE_ENV: "production",
      PORT: "0",
      HOST: "127.0.0.1",
      WEB_CONCURRENCY: "1",
      LIVE_MAX_STREAMS: String(STREAMS + 100),
      LIVE_STREAMS_PER_IP: String(STREAMS + 100),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let partial = "";
  const keep = (d) => {
    const lines = (partial + d).split("\n");
    partial = lines.pop();
    appLog.push(...lines);
    if (appLog.length > 200) appLog = appLog.slice(-100);
  };
  app.stdout.on("data", keep);
  app.stderr.on("data", keep);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the app did not start in 120 s")), 120_000);
    const onData = (d) => {
      const m = String(d).match(/Gravity Fantasy on http:\/\/localhost:(\d+)/);
      if (m) {
        clearTimeout(timer);
        app.stdout.off("data", onData);
        resolve(Number(m[1]));
      }
    };
    app.stdout.on("data", onData);
    app.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the app exited with ${code}`));
    });
  });
}

async function stopApp() {
  if (!app || app.exitCode !== null || app.signalCode !== null) return;
  const child = app;
  await new Promise((resolve) => {
    child.once("exit", resolve);
    child.kill("SIGTERM");
    setTimeout(() => child.kill("SIGKILL"), 15_000).unref();
  });
}
