import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    // PGlite start-up and PostgreSQL database creation take seconds on a busy 2-core machine.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Every core: a test file waits on its own engine, not on the others (vitest leaves one
    // core free by default, which is half of a 2-core machine).
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
