/** On PostgreSQL, backups are PostgreSQL's own tools' work (docs/decisions/0163). */
import type { Command } from "commander";
import { globalOptions } from "../../context.js";
import { UsageError } from "../../errors.js";

export const POSTGRES_TOOLS = {
  backup: 'pg_dump -Fc -f gravity-fantasy.dump "$DATABASE_URL"',
  restore: 'pg_restore --clean --if-exists --no-owner -d "$DATABASE_URL" gravity-fantasy.dump',
};

/** On PostgreSQL these commands are the wrong tool: say which one to use instead. */
export function refusePostgres(cmd: Command, what: "backup" | "restore"): void {
  const g = globalOptions(cmd);
  if (g.databaseUrl ?? process.env.DATABASE_URL) {
    throw new UsageError(
      `db ${what} is for the embedded database; on PostgreSQL (DATABASE_URL) use PostgreSQL's own tool: ${POSTGRES_TOOLS[what]} (README, "Backup and restore").`,
    );
  }
}
