import { sql } from "drizzle-orm";
import { type DbOrTx, rowsOf } from "../client.js";

/**
 * The connections named `applicationName` by state (active = a query in flight, idle, idle in
 * transaction), as the server sees them in pg_stat_activity, the asking connection left out.
 * For metrics: postgres.js keeps no pool counts of its own.
 */
export async function connectionStates(
  db: DbOrTx,
  applicationName: string,
): Promise<{ state: string | null; n: number }[]> {
  return rowsOf<{ state: string | null; n: number }>(
    await db.execute(sql`
      select state, count(*)::int as n from pg_stat_activity
      where application_name = ${applicationName} and pid <> pg_backend_pid()
      group by state`),
  );
}
