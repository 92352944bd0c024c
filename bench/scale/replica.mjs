// A streaming replica of the bench's PostgreSQL server for the `replica` case: made after the
// season is generated and settled (a base backup of the whole server), then caught up. Making
// one needs `wal_level` replica, free WAL senders, a `host replication` entry for the loopback
// address in pg_hba.conf and the server's binaries on this machine; when anything of that is
// missing the case is skipped with the reason, the rest of the bench goes on.
import { startTestReplica } from "@game/db/testing";

/**
 * Returns `{ replica }` (url(database), stop()) caught up with everything written so far, or
 * `{ skipped: reason }`.
 */
export async function makeReplica(primaryUrl) {
  let replica;
  try {
    replica = await startTestReplica(primaryUrl);
    await replica.catchUp(10 * 60_000);
    return { replica };
  } catch (error) {
    await replica?.stop().catch(() => {});
    const reason = (error instanceof Error ? error.message : String(error)).split("\n")[0];
    return { skipped: reason };
  }
}
