// CPU time from Linux /proc, for the benchmarks: a process, a process with its children (cluster
// workers), and the PostgreSQL server's processes. Each returns milliseconds used so far, or
// null where /proc is missing (another OS).
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

let msPerTick;
/** Milliseconds per tick of /proc's CPU times (1000 / CLK_TCK; CLK_TCK is 100 as a rule). */
function tickMs() {
  if (msPerTick === undefined) {
    try {
      msPerTick =
        1000 / (Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" })) || 100);
    } catch {
      msPerTick = 10;
    }
  }
  return msPerTick;
}

/** utime + stime of one process (fields 14 and 15 of stat). */
function statOf(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return { name, ms: (Number(fields[11]) + Number(fields[12])) * tickMs() };
}

/** CPU of one process in ms, or null. */
export function processCpuMs(pid) {
  try {
    return statOf(pid).ms;
  } catch {
    return null;
  }
}

/** The child processes of `pid` (those of its main thread, where node forks). */
function childrenOf(pid) {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").split(/\s+/).filter(Boolean);
  } catch {
    return [];
  }
}

/**
 * CPU of a process and all its descendants (an app's cluster workers) in ms, or null. A worker
 * that ended takes its time with it.
 */
export function processTreeCpuMs(pid) {
  const own = processCpuMs(pid);
  if (own === null) return null;
  let ms = own;
  const queue = childrenOf(pid);
  while (queue.length > 0) {
    const child = queue.shift();
    ms += processCpuMs(child) ?? 0;
    queue.push(...childrenOf(child));
  }
  return ms;
}

/**
 * CPU of the PostgreSQL server processes on this machine in ms, or null when none are visible.
 * The server is shared: other databases' work counts too.
 */
export function postgresCpuMs() {
  let ms = 0;
  let seen = false;
  let pids;
  try {
    pids = readdirSync("/proc").filter((p) => /^\d+$/.test(p));
  } catch {
    return null;
  }
  for (const pid of pids) {
    try {
      const stat = statOf(pid);
      if (stat.name !== "postgres") continue;
      ms += stat.ms;
      seen = true;
    } catch {
      // The process ended meanwhile.
    }
  }
  return seen ? ms : null;
}
