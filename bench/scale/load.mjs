// A closed-loop HTTP load generator: `concurrency` clients on keep-alive connections, each
// sending its next GET as soon as the previous answer is read, for `seconds`. Loopback only.
import http from "node:http";

function get(agent, url, headers) {
  return new Promise((resolve) => {
    const t0 = process.hrtime.bigint();
    const req = http.get(url, { agent, headers }, (res) => {
      res.on("data", () => {});
      res.on("end", () =>
        resolve({
          status: res.statusCode,
          etag: res.headers.etag,
          ms: Number(process.hrtime.bigint() - t0) / 1e6,
        }),
      );
    });
    req.on("error", () => resolve({ status: 0, ms: Number(process.hrtime.bigint() - t0) / 1e6 }));
  });
}

function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/**
 * Runs the load. `nextPath()` gives the path of each request (e.g. a random ranking page).
 * With `etags` (a Map from path to ETag, shared by the clients and kept by the caller), each
 * request for a path whose ETag is known sends `If-None-Match` with it, every ETag answered is
 * remembered, and a 304 counts as success. `measure()`, when given, is awaited at the start and
 * at the end of the measured window (after the warm-up), e.g. to read CPU times or counters.
 * Returns requests/s, p50/p99 latency in ms, how many answers were not a success (200, or 304
 * with `etags`), how many were 304, and `measured`: what `measure()` gave at start and end.
 */
export async function runLoad(
  baseUrl,
  nextPath,
  { seconds, concurrency, warmupSeconds = 2, etags, measure },
) {
  const base = new URL(baseUrl);
  if (!["127.0.0.1", "localhost", "[::1]"].includes(base.hostname)) {
    throw new Error(`load runs on loopback only, not ${base.hostname}`);
  }
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const one = async () => {
    const path = nextPath();
    const known = etags?.get(path);
    const r = await get(agent, new URL(path, base), known ? { "if-none-match": known } : {});
    if (etags && r.etag) etags.set(path, r.etag);
    return r;
  };
  const loop = async (until, record) => {
    const worker = async () => {
      while (performance.now() < until) record?.(await one());
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
  };
  await loop(performance.now() + warmupSeconds * 1000);
  const latencies = [];
  let failed = 0;
  let notModified = 0;
  const measured0 = await measure?.();
  const started = performance.now();
  await loop(started + seconds * 1000, (r) => {
    latencies.push(r.ms);
    if (r.status === 304 && etags) notModified += 1;
    else if (r.status !== 200) failed += 1;
  });
  const elapsed = (performance.now() - started) / 1000;
  const measured1 = await measure?.();
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    rps: latencies.length / elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    failed,
    notModified,
    measured: measure ? [measured0, measured1] : null,
  };
}
