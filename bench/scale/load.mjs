// A closed-loop HTTP load generator: `concurrency` clients on keep-alive connections, each
// sending its next GET as soon as the previous answer is read, for `seconds`. Loopback only.
import http from "node:http";

function get(agent, url) {
  return new Promise((resolve) => {
    const t0 = process.hrtime.bigint();
    const req = http.get(url, { agent }, (res) => {
      res.on("data", () => {});
      res.on("end", () =>
        resolve({ status: res.statusCode, ms: Number(process.hrtime.bigint() - t0) / 1e6 }),
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
 * Returns requests/s, p50/p99 latency in ms and how many answers were not 200.
 */
export async function runLoad(baseUrl, nextPath, { seconds, concurrency, warmupSeconds = 2 }) {
  const base = new URL(baseUrl);
  if (!["127.0.0.1", "localhost", "[::1]"].includes(base.hostname)) {
    throw new Error(`load runs on loopback only, not ${base.hostname}`);
  }
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const loop = async (until, record) => {
    const worker = async () => {
      while (performance.now() < until) {
        const r = await get(agent, new URL(nextPath(), base));
        record?.(r);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
  };
  await loop(performance.now() + warmupSeconds * 1000);
  const latencies = [];
  let failed = 0;
  const started = performance.now();
  await loop(started + seconds * 1000, (r) => {
    latencies.push(r.ms);
    if (r.status !== 200) failed += 1;
  });
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    rps: latencies.length / elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    failed,
  };
}
