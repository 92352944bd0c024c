import { availableParallelism } from "node:os";
import { configDefaults, defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "~": new URL("./app", import.meta.url).pathname } },
  test: {
    include: ["app/**/*.test.{ts,tsx}", "server/**/*.test.{ts,js}", "embed/**/*.test.{ts,tsx}"],
    // Installs from the registry: its own step (vitest.production.config.ts).
    exclude: [...configDefaults.exclude, "server/**/*.production.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Every core: a test file waits on its own engine and servers, not on the others (vitest
    // leaves one core free by default, which is half of a 2-core machine).
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
