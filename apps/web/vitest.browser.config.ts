import { defineConfig } from "vitest/config";

// Browser tests: the built app in Debian's Chromium. One file at a time keeps a 2-core machine calm.
export default defineConfig({
  test: {
    include: ["tests/**/*.browser.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    // CI retries a failed browser test once: a real break fails twice, a timing hiccup on a
    // loaded machine does not block a landing. Locally a failure shows at once.
    retry: process.env.CI ? 1 : 0,
  },
});
