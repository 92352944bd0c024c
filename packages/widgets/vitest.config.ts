import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

/**
 * Unit tests (jsdom) and the pack test. No browser: `npm test` runs anywhere (the Chromium tests,
 * `*.browser.test.ts`, run with `test:browser`).
 */
export default defineConfig({
  plugins: [react()],
  test: {
    name: "unit",
    environment: "jsdom",
    include: ["src/**/*.test.{ts,tsx}", "test/**/*.test.ts"],
    exclude: ["**/node_modules/**", "**/*.browser.test.ts"],
    setupFiles: ["test/setup.ts"],
    restoreMocks: true,
    // Bounded by run counts, not by a clock: a busy 2-core machine is slow, never wrong.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
