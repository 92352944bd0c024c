// CPU time from Linux /proc, for the benchmarks: a process, a process with its children (cluster
// workers), and the PostgreSQL server's processes. Each returns milliseconds used so far, or
// null where /proc is missing (another OS).
import { readdirSync, readFileSync } from "node:fs";

/** utime + stime of one process (fields 14 and 15 of stat, in 1/100 s ticks). */
function statOf(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return { name, ms: (Number(fields[11]) + Number(fields[12])) * 10 };
}

/** CPU of one process in ms, or null. */
export function processCpuMs(pid) {
  try {
    return statOf(pid).ms;
  } catch {
    return null;
  }
}

/** CPU of a process and its direct children (an app's cluster workers) in ms, or null. */
export function processTreeCpuMs(pid) {
  const own = processCpuMs(pid);
  if (own === null) return null;
  let children = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").split(" ").filter(Boolean);
  } catch {
    // No children file: count the process alone.
  }
  return children.reduce((sum, child) => sum + (processCpuMs(child) ?? 0), own);
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
