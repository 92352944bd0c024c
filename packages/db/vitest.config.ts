import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    // PGlite start-up and PostgreSQL database creation take seconds on a busy 2-core machine.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
