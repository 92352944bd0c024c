// Team-save rush: many players saving their teams at once against the app on PostgreSQL, the
// way the last minutes before a lock look: one app process, then two worker processes
// (WEB_CONCURRENCY=2) on the one port.
//
//   npm run bench -- team-save
//
// Starts the built app on a fresh database on the local PostgreSQL server, signs N players in
// (sessions made directly in the database, cookies signed like the app does), then C concurrent
// clients POST team saves (mostly valid, some over budget or missing riders, some forged) to
// the team-setup action for D seconds, twice: flat out (each client sends its next save as soon
// as the last one is answered: the most the process can take), then paced (each client pauses
// a random 0-2 x BENCH_THINK_MS between saves, like players clicking), for each worker count.
// Prints requests/s, latency percentiles, answers by status and the app's CPU per save (all its
// processes, from /proc) for each, the issue's targets with met/missed, then checks every team
// in the database against the rules. Drops the database after.
//
// Environment: BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres),
// BENCH_CLIENTS (500), BENCH_SECONDS (15), BENCH_PLAYERS (2000), BENCH_THINK_MS (5000),
// BENCH_APP_ARGS (extra node flags for the app process, e.g. "--cpu-prof"), BENCH_WORKERS
// (worker counts to run, "1,2"; 1 is one plain process), BENCH_VIEW_SECONDS (8: after the saves,
// each signed-in page measured that long with 20 clients for what it costs; 0 skips them).
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { BUDGET, isFemale, isJunior, validateTeam } from "@game/core";
import { createAccount, createDb, createSession, listTeamRacers, rowsOf, seed } from "@game/db";
import { createCookie } from "@remix-run/node";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { postgresCpuMs, processTreeCpuMs } from "../proc-cpu.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const webRoot = path.resolve(here, "../../apps/web");

// Run by hand, never by turbo: these settings do not belong in turbo.json.
const {
  BENCH_PG_URL,
  BENCH_CLIENTS,
  BENCH_SECONDS,
  BENCH_PLAYERS,
  BENCH_THINK_MS,
  BENCH_APP_ARGS,
  BENCH_WORKERS,
  BENCH_VIEW_SECONDS,
} = process.env;
const PG_URL = BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const CLIENTS = Number(BENCH_CLIENTS ?? 500);
const SECONDS = Number(BENCH_SECONDS ?? 15);
const PLAYERS = Number(BENCH_PLAYERS ?? 2000);
const THINK_MS = Number(BENCH_THINK_MS ?? 5000);
const WORKERS = (BENCH_WORKERS ?? "1,2").split(",").map(Number);
/**
 * Flat-out saves/s of one process before issue 16's work: the mean of the four quiet-machine
 * runs recorded in docs/benchmarks.md (235, 186, 190, 205). Two workers should do 2.5 times it.
 */
const BEFORE_SAVES_PER_S = 204;
const TARGET_CPU_MS = 2;
const TARGET_PACED_P99_MS = 100;
/** Seconds of each signed-in page measured after the saves (0 skips them). */
const VIEW_SECONDS = Number(BENCH_VIEW_SECONDS ?? 8);
const EVENT_ID = 5;
const SECRET = randomBytes(24).toString("hex");

function withDatabase(url, name) {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

// ---- the database -------------------------------------------------------------------------

const dbName = `gf_bench_team_save_${process.pid}`;
const admin = postgres(PG_URL, { max: 1, onnotice: () => {} });
await admin.unsafe(`create database "${dbName}"`);
const dbUrl = withDatabase(PG_URL, dbName);
/** The database's CPU is read from /proc only when the server runs on this machine. */
const dbLocal = ["127.0.0.1", "localhost", "[::1]", ""].includes(new URL(dbUrl).hostname);
let app;
/** What the app printed (its error lines are shown when a request failed). */
let appOutput = "";

async function cleanup() {
  await stopApp();
  await admin.unsafe(`drop database if exists "${dbName}" with (force)`);
  await admin.end({ timeout: 5 });
}

try {
  await main();
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await cleanup();
}

async function main() {
  const handle = await createDb({ url: dbUrl, max: 10 });
  const { db } = handle;
  await seed(db);
  const racers = await listTeamRacers(db, EVENT_ID);

  // Sessions straight in the database; the cookie is signed the way the app signs it.
  const cookie = createCookie("gf_session", {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secrets: [SECRET],
  });
  const started = Date.now();
  const cookies = [];
  for (let i = 0; i < PLAYERS; i += 20) {
    const batch = Array.from({ length: Math.min(20, PLAYERS - i) }, async (_, k) => {
      const user = await createAccount(db, {
        email: `bench${i + k}@example.com`,
        username: `bench_${i + k}`,
        passwordHash: "bench:unusable",
      });
      const { token } = await createSession(db, user.id);
      return (await cookie.serialize(token)).split(";")[0];
    });
    cookies.push(...(await Promise.all(batch)));
  }
  console.log(`${PLAYERS} players signed in in ${Date.now() - started} ms`);

  const teams = makeRequests(racers);

  const results = [];
  for (const workers of WORKERS) {
    console.log(
      `\n== ${workers === 1 ? "1 process" : `${workers} worker processes (WEB_CONCURRENCY=${workers})`}`,
    );
    results.push({ workers, phases: await rush(workers, teams, cookies) });
    await stopApp();
  }

  const check = await checkTeams(db, racers);
  await handle.close();
  console.log(`\nteams         ${check.teams} in the database, ${check.invalid} invalid`);
  summarize(results, check);
  const failed = results.some((r) => r.phases.some((p) => p.serverErrors > 0 || p.wrong > 0));
  if (failed || check.invalid > 0) process.exitCode = 1;
}

/** Starts the built app (`workers` > 1: that many cluster workers), resolving to its port. */
async function startApp(workers) {
  const nodeArgs = (BENCH_APP_ARGS ?? "").split(" ").filter(Boolean);
  app = spawn(process.execPath, [...nodeArgs, "build/server.js"], {
    cwd: webRoot,
    env: {
      ...process.env,
      NODE_ENV: "production",
      DATABASE_URL: dbUrl,
      SESSION_SECRET: SECRET,
      PORT: "0",
      HOST: "127.0.0.1",
      WEB_CONCURRENCY: String(workers),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  appOutput = "";
  app.stdout.on("data", (d) => {
    out += d;
    appOutput += d;
  });
  app.stderr.on("data", (d) => {
    out += d;
    appOutput += d;
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`app did not start:\n${out}`)), 90_000);
    const onData = () => {
      const m = out.match(/http:\/\/localhost:(\d+)/);
      if (m) {
        clearTimeout(timer);
        app.stdout.off("data", onData);
        resolve(Number(m[1]));
      }
    };
    app.stdout.on("data", onData);
    app.once("exit", (code) => reject(new Error(`app exited with ${code}:\n${out}`)));
  });
}

async function stopApp() {
  if (!app || app.exitCode !== null) return;
  const child = app;
  await new Promise((resolve) => {
    child.once("exit", resolve);
    child.kill("SIGTERM");
    setTimeout(() => child.kill("SIGKILL"), 15_000).unref();
  });
}

/** One app set-up: sanity check, warm-up, then the flat-out and paced phases. */
async function rush(workers, teams, cookies) {
  const port = await startApp(workers);
  const origin = `http://127.0.0.1:${port}`;
  const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
  // The request the team page's form sends (single fetch: `<route>.data`).
  const post = (body, playerCookie, t0 = process.hrtime.bigint()) =>
    new Promise((resolve) => {
      const req = http.request(
        {
          agent,
          host: "127.0.0.1",
          port,
          method: "POST",
          path: `/team-setup.data?game=${EVENT_ID}`,
          headers: {
            "Content-Type": "application/x-www-form-urlencoded",
            "Content-Length": Buffer.byteLength(body),
            Cookie: playerCookie,
            Origin: origin,
          },
        },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (c) => {
            text += c;
          });
          res.on("end", () =>
            resolve({
              status: res.statusCode,
              text,
              ms: Number(process.hrtime.bigint() - t0) / 1e6,
            }),
          );
        },
      );
      req.on("error", (error) => {
        // The server closed an idle keep-alive connection just as it was reused: nothing was
        // processed, so send again, as browsers do (the latency counts from the first try).
        if (req.reusedSocket && error.code === "ECONNRESET") {
          resolve(post(body, playerCookie, t0));
          return;
        }
        resolve({ status: 0, text: String(error), ms: Number(process.hrtime.bigint() - t0) / 1e6 });
      });
      req.end(body);
    });

  // Sanity: one valid and one invalid save answer as the page expects.
  const ok = await post(teams.valid[0].body, cookies[0]);
  const bad = await post(teams.invalid[0].body, cookies[0]);
  if (!ok.text.includes("Team saved successfully!") || !bad.text.includes("Failed to save team.")) {
    throw new Error(`unexpected answers: ${ok.status} ${ok.text.slice(0, 200)} / ${bad.status}`);
  }

  // Warm-up, then the rush: flat out, then paced.
  await runLoad({ post, teams, cookies, seconds: 2, clients: 50, thinkMs: 0 });
  console.log(`app: ${origin}; ${CLIENTS} clients, ${SECONDS} s per phase`);
  const phases = [];
  for (const [name, thinkMs] of [
    ["flat out", 0],
    [`paced (${THINK_MS} ms mean pause)`, THINK_MS],
  ]) {
    const appBefore = processTreeCpuMs(app.pid);
    const dbBefore = dbLocal ? postgresCpuMs() : null;
    const selfBefore = process.cpuUsage();
    const stats = await runLoad({
      post,
      teams,
      cookies,
      seconds: SECONDS,
      clients: CLIENTS,
      thinkMs,
    });
    const self = process.cpuUsage(selfBefore);
    stats.appCpuMs =
      appBefore === null ? null : (processTreeCpuMs(app.pid) - appBefore) / stats.requests;
    stats.dbCpuMs = dbBefore === null ? null : (postgresCpuMs() - dbBefore) / stats.requests;
    stats.clientCpuMs = (self.user + self.system) / 1000 / stats.requests;
    stats.paced = thinkMs > 0;
    phases.push({ name, ...stats });
    report(name, stats);
    if (stats.serverErrors > 0) {
      const errors = appOutput.split("\n").filter((line) => /"level":50|Error/.test(line));
      console.error(`  the app's errors (${errors.length}):\n${errors.slice(0, 5).join("\n")}`);
    }
  }
  // What a signed-in player's pages cost around the saves (for the capacity estimate in
  // docs/benchmarks.md): their team page and the player ranking with their own row pinned.
  for (const path of VIEW_SECONDS > 0 ? [`/team-setup?game=${EVENT_ID}`, "/players-ranking"] : []) {
    const appBefore = processTreeCpuMs(app.pid);
    const dbBefore = dbLocal ? postgresCpuMs() : null;
    const stats = await viewLoad({
      port,
      agent,
      path,
      cookies,
      seconds: VIEW_SECONDS,
      clients: 20,
    });
    const f = (n) => (n === null ? "?" : n.toFixed(1));
    const appCpu =
      appBefore === null ? null : (processTreeCpuMs(app.pid) - appBefore) / stats.requests;
    const dbCpu = dbBefore === null ? null : (postgresCpuMs() - dbBefore) / stats.requests;
    console.log(
      `-- signed-in page ${path}: ${f(stats.rps)} views/s (20 clients), p50 ${f(stats.p50)} ms, p99 ${f(stats.p99)} ms, app CPU ${f(appCpu)} ms/view, database ${f(dbCpu)} ms/view, ${stats.failed} not 200`,
    );
    phases.push({
      name: `view ${path}`,
      view: true,
      rps: stats.rps,
      p50: stats.p50,
      p99: stats.p99,
      appCpuMs: appCpu,
      dbCpuMs: dbCpu,
      serverErrors: stats.failed,
      wrong: 0,
    });
  }
  agent.destroy();
  return phases;
}

/** Signed-in GETs of one page by `clients` closed-loop clients for `seconds`. */
async function viewLoad({ port, agent, path, cookies, seconds, clients }) {
  const get = (cookie) =>
    new Promise((resolve) => {
      const t0 = process.hrtime.bigint();
      const req = http.get(
        { agent, host: "127.0.0.1", port, path, headers: { Cookie: cookie } },
        (res) => {
          res.resume();
          res.on("end", () =>
            resolve({ status: res.statusCode, ms: Number(process.hrtime.bigint() - t0) / 1e6 }),
          );
        },
      );
      req.on("error", () => resolve({ status: 0, ms: Number(process.hrtime.bigint() - t0) / 1e6 }));
    });
  const latencies = [];
  let failed = 0;
  const until = Date.now() + seconds * 1000;
  const t0 = Date.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (Date.now() < until) {
        const r = await get(cookies[Math.floor(Math.random() * cookies.length)]);
        latencies.push(r.ms);
        if (r.status !== 200) failed += 1;
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const pct = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
  return {
    requests: latencies.length,
    rps: latencies.length / ((Date.now() - t0) / 1000),
    p50: pct(0.5),
    p99: pct(0.99),
    failed,
  };
}

// ---- requests -----------------------------------------------------------------------------

function makeRequests(racers) {
  const pick = (pred) => racers.filter(pred);
  const women = pick((r) => isFemale(r.category));
  const juniors = pick((r) => isJunior(r.category));
  const anyone = racers;
  const rand = (list) => list[Math.floor(Math.random() * list.length)];
  const body = (ids, extra = "") =>
    `game=${EVENT_ID}&${ids.map((id) => `racer=${encodeURIComponent(id)}`).join("&")}&intent=save${extra}`;

  const valid = [];
  const invalid = [];
  while (valid.length < 300 || invalid.length < 100) {
    const team = new Set([rand(women).id, rand(women).id, rand(juniors).id]);
    while (team.size < 6) team.add(rand(anyone).id);
    const ids = [...team].sort(() => Math.random() - 0.5);
    const ok = validateTeam(ids, racers, { gameId: EVENT_ID }).ok;
    if (ok && valid.length < 300) valid.push({ body: body(ids), expect: 200 });
    if (!ok && invalid.length < 100) invalid.push({ body: body(ids), expect: 422 });
  }
  // Forged: prices in the form (ignored), duplicates, unknown riders, garbage ids.
  const forged = [
    ...valid.slice(0, 20).map((v) => ({ body: `${v.body}&price=1&price=1`, expect: 200 })),
    ...valid.slice(0, 20).map((v) => {
      const ids = new URLSearchParams(v.body).getAll("racer");
      return { body: body([...ids.slice(0, 5), ids[0]]), expect: 422 };
    }),
    ...valid.slice(0, 10).map((v) => {
      const ids = new URLSearchParams(v.body).getAll("racer");
      return { body: body([...ids.slice(0, 5), "999999"]), expect: 422 };
    }),
    ...valid.slice(0, 10).map((v) => {
      const ids = new URLSearchParams(v.body).getAll("racer");
      return { body: body([...ids.slice(0, 5), "abc"]), expect: 400 };
    }),
  ];
  return { valid, invalid, forged };
}

/** 80 % valid saves, 12 % refused by the rules, 8 % forged. */
function nextRequest(teams) {
  const x = Math.random();
  const list = x < 0.8 ? teams.valid : x < 0.92 ? teams.invalid : teams.forged;
  return list[Math.floor(Math.random() * list.length)];
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function runLoad({ post, teams, cookies, seconds, clients, thinkMs }) {
  const latencies = [];
  const statuses = new Map();
  let wrong = 0;
  let serverErrors = 0;
  const until = Date.now() + seconds * 1000;
  const t0 = Date.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      // Paced clients start spread out, as players do.
      if (thinkMs > 0) await sleep(Math.random() * thinkMs);
      while (Date.now() < until) {
        const r = nextRequest(teams);
        const res = await post(r.body, cookies[Math.floor(Math.random() * cookies.length)]);
        latencies.push(res.ms);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status === 0 || res.status >= 500) {
          serverErrors += 1;
          if (serverErrors <= 3) console.error(`  failed: ${res.status} ${res.text.slice(0, 160)}`);
        } else if (res.status !== r.expect) wrong += 1;
        if (thinkMs > 0) await sleep(Math.min(until - Date.now(), Math.random() * 2 * thinkMs));
      }
    }),
  );
  const elapsed = (Date.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p) =>
    latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
  return {
    requests: latencies.length,
    elapsed,
    rps: latencies.length / elapsed,
    p50: pct(50),
    p90: pct(90),
    p99: pct(99),
    max: latencies.at(-1),
    statuses: Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])),
    serverErrors,
    wrong,
  };
}

// ---- afterwards: every team in the database must satisfy the rules ---------------------------

async function checkTeams(db, racers) {
  const rows = rowsOf(
    await db.execute(sql`
      select t.id, array_agg(r.id order by tr.slot) as ids
      from teams t left join team_racers tr on tr.team_id = t.id
      left join racers r on r.game_id = ${EVENT_ID} and r.person_id = tr.person_id
      where t.competition_id = (select competition_id from events where id = ${EVENT_ID})
      group by t.id`),
  );
  let invalid = 0;
  for (const row of rows) {
    const ids = (row.ids ?? []).filter((id) => id != null).map(Number);
    const v = validateTeam(ids, racers, { gameId: EVENT_ID, budget: BUDGET });
    if (!v.ok) invalid += 1;
  }
  return { teams: rows.length, invalid };
}

function report(name, s) {
  const f = (n) => n.toFixed(1);
  console.log(
    [
      `-- ${name}`,
      `requests      ${s.requests} in ${f(s.elapsed)} s`,
      `throughput    ${f(s.rps)} requests/s`,
      `latency       p50 ${f(s.p50)} ms, p90 ${f(s.p90)} ms, p99 ${f(s.p99)} ms, max ${f(s.max)} ms`,
      `statuses      ${JSON.stringify(s.statuses)}`,
      `5xx/failed    ${s.serverErrors}`,
      `unexpected    ${s.wrong} (answers other than the expected 200/422/400)`,
      `cpu/request   app ${s.appCpuMs === null ? "?" : f(s.appCpuMs)} ms, database ${s.dbCpuMs === null ? "?" : f(s.dbCpuMs)} ms, load generator ${f(s.clientCpuMs)} ms`,
      `target        CPU per save <= ${TARGET_CPU_MS} ms: ${s.appCpuMs !== null && s.appCpuMs <= TARGET_CPU_MS ? "met" : "missed"}; zero 5xx: ${s.serverErrors === 0 ? "met" : "missed"}${s.paced ? `; p99 under ${TARGET_PACED_P99_MS} ms: ${s.p99 < TARGET_PACED_P99_MS ? "met" : "missed"}` : ""}`,
    ].join("\n"),
  );
}

/** One line per worker count and phase, and the issue's targets judged on them. */
function summarize(results, check) {
  const f = (n) => (n === null ? "?" : n.toFixed(1));
  console.log("\nSummary");
  for (const { workers, phases } of results) {
    for (const p of phases) {
      console.log(
        `  ${String(workers).padStart(2)} ${workers === 1 ? "process " : "workers "} ${p.name.padEnd(30)} ${f(p.rps).padStart(7)} ${p.view ? "views" : "saves"}/s, p50 ${f(p.p50)} ms, p99 ${f(p.p99)} ms, app CPU ${f(p.appCpuMs)} ms, database ${f(p.dbCpuMs)} ms, ${p.serverErrors} ${p.view ? "not 200" : "5xx"}`,
      );
    }
  }
  const flat = (w) => results.find((r) => r.workers === w)?.phases.find((p) => !p.paced && !p.view);
  const two = flat(2);
  const saves = (r) => r.phases.filter((p) => !p.view);
  const cpu = results.flatMap((r) => saves(r).map((p) => p.appCpuMs ?? Number.POSITIVE_INFINITY));
  const paced = results.flatMap((r) => saves(r).filter((p) => p.paced));
  const verdict = (ok) => (ok ? "met" : "missed");
  console.log(
    [
      `targets       CPU per save <= ${TARGET_CPU_MS} ms: ${verdict(cpu.every((c) => c <= TARGET_CPU_MS))} (${cpu.map((c) => f(c)).join(", ")} ms)`,
      two
        ? `              flat out with 2 workers >= 2.5 x ${BEFORE_SAVES_PER_S} saves/s (before): ${verdict(two.rps >= 2.5 * BEFORE_SAVES_PER_S)} (${(two.rps / BEFORE_SAVES_PER_S).toFixed(2)} x${flat(1) ? `; ${(two.rps / flat(1).rps).toFixed(2)} x this run's 1 process` : ""})`
        : "              flat out with 2 workers: not run (BENCH_WORKERS)",
      `              paced p99 under ${TARGET_PACED_P99_MS} ms: ${verdict(paced.every((p) => p.p99 < TARGET_PACED_P99_MS))} (${paced.map((p) => f(p.p99)).join(", ")} ms)`,
      `              zero 5xx: ${verdict(results.every((r) => r.phases.every((p) => p.serverErrors === 0)))}; zero invalid teams: ${verdict(check.invalid === 0)}`,
    ].join("\n"),
  );
}
