import { defineConfig } from "vitest/config";

// Property tests are bounded by their run count, never by a clock: on 2 busy cores one took
// 5.8 s, past vitest's 5 s default. The timeout only catches a test that hangs.
export default defineConfig({
  test: { include: ["src/**/*.test.ts"], testTimeout: 120_000, hookTimeout: 120_000 },
});
