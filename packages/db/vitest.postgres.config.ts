import { configDefaults, defineConfig } from "vitest/config";
import base from "./vitest.config";

/**
 * The db test files CI's PostgreSQL pass leaves out: they open the embedded database by name
 * (`url: ""`: data folders, their lock, the admin socket, backups) or none, so their run does not
 * change with `DATABASE_URL` and a second run would repeat the first. Every other file makes its
 * databases with `createTestDb` or the migration fixture, which follow `DATABASE_URL`.
 * `src/postgres-pass.test.ts` keeps this list true (docs/decisions/0174).
 */
export const EMBEDDED_ONLY = [
  "src/architecture.test.ts",
  "src/backup.test.ts",
  "src/data-dir-lock.test.ts",
  "src/db-socket.test.ts",
];

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    exclude: [...configDefaults.exclude, ...EMBEDDED_ONLY],
  },
});
