// The app set-ups the scale bench loads, one app (its own process or processes) per case, on
// the same generated database. What each case requests and how it counts is said here and
// printed with its figures.
import { processTreeCpuMs } from "../proc-cpu.mjs";

/**
 * Cases that measure the page cache's hits ask for the first pages of each ranking only, each
 * fetched once before the load (which renders it into the cache and gives its ETag). The cache
 * keeps 500 pages per process: with a million players (20,000 pages of players, 2,000 of
 * leagues) pages drawn from all of them would mostly miss it, and what a miss costs is the
 * `uncached` case.
 */
export const HOT_PAGES = 100;

/**
 * `engines`: where the case runs (PGlite is one process and has no replica).
 * `hot`: ranking requests draw from the first HOT_PAGES pages of each ranking, fetched once
 * before the load; otherwise from all pages.
 * `miss`: every ranking request names a page the app has not cached (a parameter unique to the
 * request, which the ranking pages ignore), so each one is rendered from the database as a
 * visitor's page is the first time it is asked after a settlement. The app has no switch that
 * turns its page cache off, and the bench adds none.
 * `revalidate`: clients send If-None-Match with the ETag they got; a 304 counts as success.
 * `replica`: DATABASE_REPLICA_URL names a streaming replica of the bench database.
 */
export const CASES = [
  {
    name: "cached",
    engines: ["postgres", "pglite"],
    env: {},
    hot: true,
    what: `the default app: a visitor's ranking page comes from the per-process page cache (random pages among the first ${HOT_PAGES} of each ranking, each fetched once before); the case the targets judge`,
  },
  {
    name: "uncached",
    engines: ["postgres", "pglite"],
    env: {},
    miss: true,
    what: "random pages among all of each ranking, every request a page cache miss (a query parameter unique to the request, which the page ignores), so each page is read and rendered as the first request after a settlement is; the app has no setting that turns the cache off",
  },
  {
    name: "revalidated",
    engines: ["postgres"],
    env: {},
    hot: true,
    revalidate: true,
    what: `clients send If-None-Match with the ETag they got (random pages among the first ${HOT_PAGES} of each ranking, each fetched once before); 304 counts as success`,
  },
  {
    name: "replica",
    engines: ["postgres"],
    env: {},
    miss: true,
    replica: true,
    what: "DATABASE_REPLICA_URL on a streaming replica; random pages, every ranking request a page cache miss as in `uncached`, so the ranking reads really go to the replica",
  },
  {
    name: "2 workers",
    engines: ["postgres"],
    env: { WEB_CONCURRENCY: "2" },
    hot: true,
    what: `WEB_CONCURRENCY=2: a primary process and two workers on one port, each with its own page cache; pages as in \`cached\``,
  },
];

/** The cases SCALE_CASES names (comma-separated; "all" or unset: every case). */
export function pickCases(list) {
  if (!list || list.trim() === "" || list.trim() === "all") return CASES;
  const norm = (s) => s.trim().toLowerCase().replace(/[-_]/g, " ");
  const wanted = list.split(",").map(norm).filter(Boolean);
  const unknown = wanted.filter((w) => !CASES.some((c) => c.name === w));
  if (unknown.length > 0) {
    throw new Error(
      `SCALE_CASES: unknown case ${unknown.map((u) => `"${u}"`).join(", ")}; cases are ${CASES.map((c) => c.name).join(", ")}`,
    );
  }
  return CASES.filter((c) => wanted.includes(c.name));
}

/**
 * CPU seconds used so far by the app process `pid` and its descendants (the workers of
 * WEB_CONCURRENCY), or null where /proc cannot tell.
 */
export function appCpuSeconds(pid) {
  const ms = processTreeCpuMs(pid);
  return ms === null ? null : ms / 1000;
}

/** The `gf_ranking_cache_total` counters of the app's /metrics: { hit, miss, revalidated }. */
export async function rankingCacheCounts(metricsUrl) {
  try {
    const text = await (await fetch(metricsUrl)).text();
    const counts = { hit: 0, miss: 0, revalidated: 0 };
    for (const m of text.matchAll(/^gf_ranking_cache_total\{result="(\w+)"\} (\d+(?:\.\d+)?)/gm)) {
      counts[m[1]] = Number(m[2]);
    }
    return counts;
  } catch {
    return null;
  }
}
