// The viewers of bench/live: a worker thread holding every live stream, so the main thread of
// the benchmark only runs the app and the CLI and stamps their moments, and a stream's arrival
// is stamped by a thread that does nothing else.
//
// Each stream is a node:http GET of the live path on one keep-alive agent; its body is parsed
// incrementally (text up to each blank line, only `event: scores` blocks read as JSON) and each
// scores event is stamped with Date.now(), the wall clock the main thread and the app share.
//
// Messages from the main thread: "open" (opens every stream, BENCH_OPEN_CONCURRENCY at a time,
// each counted open at its first event), "mark" (a round starts: the next scores event of each
// stream is its update), "collect" (the round's stamps and versions), "close". The worker posts
// "arrived" once every stream has its update, "ended" once every stream has ended.
import http from "node:http";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { parentPort, workerData } from "node:worker_threads";

const { port, path, streams: N, concurrency } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });

/** Text after the last blank line of each stream, and its scores events so far. */
const pending = new Array(N).fill("");
const count = new Int32Array(N);
/** The round's mark: each stream's event count when it started. */
const markAt = new Int32Array(N);
/** The round's update of each stream: when it came and its version, its final flag. */
let stamp = new Float64Array(N).fill(Number.NaN);
let version = new Array(N).fill(null);
let finalFlag = new Uint8Array(N);
let waiting = 0;
let marked = false;
const ended = new Uint8Array(N);
let endedCount = 0;
let endedEarly = 0;
let firstOpen = null;
const responses = new Array(N).fill(null);
const lag = monitorEventLoopDelay({ resolution: 10 });

function onEvent(i, data, t) {
  count[i] += 1;
  if (count[i] === 1) firstOpen?.(i);
  if (marked && count[i] === markAt[i] + 1) {
    const state = JSON.parse(data);
    stamp[i] = t;
    version[i] = state.version;
    finalFlag[i] = state.final ? 1 : 0;
    waiting -= 1;
    if (waiting === 0) parentPort.postMessage({ type: "arrived" });
  }
}

function onData(i, chunk) {
  const t = Date.now();
  let text = pending[i] + chunk.toString("latin1");
  let at = text.indexOf("\n\n");
  while (at >= 0) {
    if (text.startsWith("event: scores\n")) {
      const data = text.indexOf("data: ");
      if (data >= 0 && data < at) onEvent(i, text.slice(data + 6, text.indexOf("\n", data)), t);
    }
    text = text.slice(at + 2);
    at = text.indexOf("\n\n");
  }
  pending[i] = text;
}

function openOne(i) {
  return new Promise((resolve) => {
    const req = http.get({ agent, host: "127.0.0.1", port, path }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        resolve(`status ${res.statusCode}`);
        return;
      }
      responses[i] = res;
      res.on("data", (chunk) => onData(i, chunk));
      res.on("end", () => {
        ended[i] = 1;
        endedCount += 1;
        if (count[i] === 0) resolve("ended before its first event");
        if (endedCount === N) parentPort.postMessage({ type: "ended" });
      });
      res.on("error", () => {});
      res.on("close", () => {
        if (!ended[i]) endedEarly += 1;
      });
    });
    req.on("error", (error) => resolve(String(error.code ?? error)));
    // Opened once its first event is in: the state the page compares with its own.
    openers.set(i, () => resolve(null));
  });
}

const openers = new Map();
firstOpen = (i) => {
  const done = openers.get(i);
  openers.delete(i);
  done?.();
};

async function openAll() {
  const t0 = Date.now();
  const failures = new Map();
  let next = 0;
  const lane = async () => {
    while (next < N) {
      const i = next++;
      const failure = await openOne(i);
      if (failure) failures.set(failure, (failures.get(failure) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, N) }, lane));
  return { ms: Date.now() - t0, failures: Object.fromEntries(failures) };
}

parentPort.on("message", async (msg) => {
  if (msg.type === "open") {
    const opened = await openAll();
    parentPort.postMessage({ type: "opened", ...opened, rss: process.memoryUsage().rss });
  } else if (msg.type === "mark") {
    markAt.set(count);
    stamp = new Float64Array(N).fill(Number.NaN);
    version = new Array(N).fill(null);
    finalFlag = new Uint8Array(N);
    waiting = N;
    marked = true;
    lag.reset();
    lag.enable();
    parentPort.postMessage({ type: "marked" });
  } else if (msg.type === "collect") {
    marked = false;
    lag.disable();
    const versions = {};
    for (const v of version) if (v !== null) versions[v] = (versions[v] ?? 0) + 1;
    let finals = 0;
    for (const f of finalFlag) finals += f;
    parentPort.postMessage({
      type: "round",
      stamps: stamp,
      versions,
      finals,
      ended: endedCount,
      endedEarly,
      // The worker's own event loop, late by this much at most during the round: how far its
      // stamps may trail the bytes' arrival.
      lagMaxMs: lag.max / 1e6,
    });
  } else if (msg.type === "close") {
    for (const res of responses) res?.destroy();
    agent.destroy();
    parentPort.postMessage({ type: "closed" });
  }
});
