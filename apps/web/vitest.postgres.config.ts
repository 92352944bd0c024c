import { configDefaults, defineConfig } from "vitest/config";
import base from "./vitest.config";

/*
 * The web tests CI runs again on PostgreSQL (`DATABASE_URL` set): those whose behaviour depends on
 * the engine. The app reaches the database only through @game/db, whose own tests all run on
 * PostgreSQL too; what the engine changes here is the server process (its pool, several
 * processes, the admin socket, readiness, upgrades) and the tests that read `DATABASE_URL`
 * themselves (read replicas, the two commands). The lists replace the base config's (a merge
 * would add them to it).
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: [
      "server/**/*.test.{ts,js}",
      "app/two-commands.test.ts",
      "app/features/rankings/read-replica.test.ts",
    ],
    exclude: [...configDefaults.exclude, "server/**/*.production.test.ts"],
  },
});
