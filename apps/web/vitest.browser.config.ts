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
    // expect.poll gives up after 1 s by default: a page still loading on a busy machine is not a
    // failure. Waits end as soon as the page is right, so this costs nothing when it is.
    expect: { poll: { timeout: 30_000, interval: 100 } },
    // CI retries a failed browser test once: a real break fails twice, a timing hiccup on a
    // loaded machine does not block a landing. Locally a failure shows at once.
    retry: process.env.CI ? 1 : 0,
  },
});
