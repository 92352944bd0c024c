import { defineConfig } from "vitest/config";

// Browser tests: the built app in Debian's Chromium. Each file starts its own app (a free port,
// its own data folder) and browser, so two files run at once: one alone left a third of a 2-core
// machine idle while pages loaded. The timeouts catch a hang, not a busy machine.
export default defineConfig({
  test: {
    include: ["tests/**/*.browser.test.ts"],
    testTimeout: 180_000,
    hookTimeout: 180_000,
    maxWorkers: 2,
    // CI retries a failed browser test once: a real break fails twice, a timing hiccup on a
    // loaded machine does not block a landing. Locally a failure shows at once.
    retry: process.env.CI ? 1 : 0,
  },
});
