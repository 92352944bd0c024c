import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    // A test runs the binary up to sixty times; on 2 busy cores a start can take seconds. The
    // timeout only catches a test that hangs.
    testTimeout: 180_000,
    hookTimeout: 60_000,
    // Every core: a test file mostly waits on the binary it runs (vitest leaves one core free by
    // default, which is half of a 2-core machine).
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
