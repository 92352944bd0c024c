// `/readyz`: whether this instance can serve players now, for load balancers and orchestrators.
// `/healthz` stays liveness (the process answers); readiness asks the database, briefly, so an
// outage takes the instance out of rotation instead of hanging requests
// (docs/decisions/0071-outages-and-shutdown.md).

/**
 * `replica` (DATABASE_REPLICA_URL) is asked too and reported, but readiness follows the primary:
 * an instance whose replica is away still takes sign-ins and saves, and every instance usually
 * shares the replica, so failing them all would turn a degraded site into no site
 * (docs/decisions/0131-read-replicas.md).
 * @param {{ db: import("@game/db").Db, replica?: import("@game/db").Db, timeoutMs?: number, stopping?: () => boolean }} opts
 * @returns {import("express").RequestHandler}
 */
export function readiness({ db, replica, timeoutMs = 2000, stopping = () => false }) {
  return async (_req, res) => {
    res.set("Cache-Control", "no-store");
    if (stopping()) {
      res.status(503).json({ status: "unavailable", database: "unknown", reason: "shutting down" });
      return;
    }
    const started = Date.now();
    const [result, replicaResult] = await Promise.all([
      checkDatabase(db, timeoutMs),
      replica ? checkDatabase(replica, timeoutMs) : undefined,
    ]);
    const ms = Date.now() - started;
    const extra = replicaResult ? { replica: replicaResult } : {};
    if (result === "ok") {
      res.status(200).json({ status: "ready", database: "ok", ...extra, ms });
    } else {
      res.status(503).json({ status: "unavailable", database: result, ...extra, ms });
    }
  };
}

/** "ok", "timeout" (no answer within `timeoutMs`) or "error" (the database refused or is gone). */
export async function checkDatabase(db, timeoutMs) {
  let timer;
  const timeout = new Promise((resolve) => {
    timer = setTimeout(() => resolve("timeout"), timeoutMs);
  });
  const query = db.execute("select 1").then(
    () => "ok",
    () => "error",
  );
  try {
    return await Promise.race([query, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
