// `/readyz`: whether this instance can serve players now, for load balancers and orchestrators.
// `/healthz` stays liveness (the process answers); readiness asks the database, briefly, so an
// outage takes the instance out of rotation instead of hanging requests
// (docs/decisions/0071-outages-and-shutdown.md). It also fails while work queues up in this
// process: libuv's thread pool slow to take a file-system call, or a queue of expensive work
// refusing newcomers (docs/decisions/0150-abuse-proof-load.md).

import { stat } from "node:fs/promises";
import type { Db } from "@game/db";
import type { RequestHandler } from "express";

type DbCheck = "ok" | "timeout" | "error";

/**
 * `replica` (DATABASE_REPLICA_URL) is asked too and reported, but readiness follows the primary:
 * an instance whose replica is away still takes sign-ins and saves, and every instance usually
 * shares the replica, so failing them all would turn a degraded site into no site
 * (docs/decisions/0131-read-replicas.md).
 *
 * `busy` names a queue of this process that is refusing work (or null); `threadPool` is a small
 * call through libuv's thread pool (a `stat`), which must come back within `threadPoolMs`.
 */
export function readiness({
  db,
  replica,
  timeoutMs = 2000,
  stopping = () => false,
  busy = () => null,
  threadPool = () => stat("."),
  threadPoolMs = 1000,
}: {
  db: Db;
  replica?: Db | undefined;
  timeoutMs?: number;
  stopping?: () => boolean;
  busy?: () => string | null;
  threadPool?: () => Promise<unknown>;
  threadPoolMs?: number;
}): RequestHandler {
  return async (_req, res) => {
    res.set("Cache-Control", "no-store");
    if (stopping()) {
      res.status(503).json({ status: "unavailable", database: "unknown", reason: "shutting down" });
      return;
    }
    const started = Date.now();
    const [result, replicaResult, pool] = await Promise.all([
      checkDatabase(db, timeoutMs),
      replica ? checkDatabase(replica, timeoutMs) : undefined,
      withTimeout(threadPool(), threadPoolMs),
    ]);
    const ms = Date.now() - started;
    const extra = replicaResult ? { replica: replicaResult } : {};
    const queued =
      pool === "timeout" ? "requests are queuing for the thread pool" : (busy() ?? undefined);
    if (result === "ok" && !queued) {
      res.status(200).json({ status: "ready", database: "ok", ...extra, ms });
    } else {
      const reason = queued ? { reason: queued } : {};
      res.status(503).json({ status: "unavailable", database: result, ...extra, ...reason, ms });
    }
  };
}

/** "ok" when `promise` settles within `ms`, else "timeout" (a failed call still answered). */
async function withTimeout(promise: Promise<unknown>, ms: number): Promise<"ok" | "timeout"> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), ms);
  });
  try {
    return await Promise.race([
      promise.then(
        () => "ok" as const,
        () => "ok" as const,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** "ok", "timeout" (no answer within `timeoutMs`) or "error" (the database refused or is gone). */
export async function checkDatabase(db: Db, timeoutMs: number): Promise<DbCheck> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), timeoutMs);
  });
  // A real query on one of the game's tables, by its plain name: a session that cannot find the
  // tables (a lost search_path) is not ready, though it would still answer "select 1".
  const query = db.execute("select 1 from events limit 1").then(
    () => "ok" as const,
    () => "error" as const,
  );
  try {
    return await Promise.race([query, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
