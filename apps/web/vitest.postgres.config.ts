import { configDefaults, defineConfig } from "vitest/config";
import base from "./vitest.config";

/**
 * The web test files whose run depends on `DATABASE_URL`: the server process on PostgreSQL (its
 * pool, several processes, readiness, the jobs, the caches and the fuzz through a real server),
 * the read replicas and the two commands. The app reaches the database only through @game/db,
 * whose own tests all run on PostgreSQL too; the other server tests pin the embedded database
 * (a data folder's lock, upgrades, the socket) or use none, so a second run would repeat the first.
 * `server/postgres-pass.test.ts` keeps this list whole. The list replaces the base config's (a
 * merge would add them to it).
 */
export const POSTGRES_PASS = [
  "server/bad-input.fuzz.test.ts",
  "server/freeze-teams.test.ts",
  "server/live.test.ts",
  "server/maintenance.test.ts",
  "server/metrics.test.ts",
  "server/ranking-cache.test.ts",
  "server/readiness.test.ts",
  "server/reminders.test.ts",
  "server/scheduler.test.ts",
  "server/several-processes.test.ts",
  "app/two-commands.test.ts",
  "app/features/rankings/read-replica.test.ts",
];

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: POSTGRES_PASS,
    exclude: [...configDefaults.exclude],
  },
});
