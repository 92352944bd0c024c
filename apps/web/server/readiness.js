// `/readyz`: whether this instance can serve players now, for load balancers and orchestrators.
// `/healthz` stays liveness (the process answers); readiness asks the database, briefly, so an
// outage takes the instance out of rotation instead of hanging requests
// (docs/decisions/0071-outages-and-shutdown.md).

/**
 * @param {{ db: import("@game/db").Db, timeoutMs?: number, stopping?: () => boolean }} opts
 * @returns {import("express").RequestHandler}
 */
export function readiness({ db, timeoutMs = 2000, stopping = () => false }) {
  return async (_req, res) => {
    res.set("Cache-Control", "no-store");
    if (stopping()) {
      res.status(503).json({ status: "unavailable", database: "unknown", reason: "shutting down" });
      return;
    }
    const started = Date.now();
    const result = await checkDatabase(db, timeoutMs);
    const ms = Date.now() - started;
    if (result === "ok") {
      res.status(200).json({ status: "ready", database: "ok", ms });
    } else {
      res.status(503).json({ status: "unavailable", database: result, ms });
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
