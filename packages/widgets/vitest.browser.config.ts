/**
 * Tests that drive Debian's Chromium from Node with playwright-core (`*.browser.test.ts`): the
 * themes of the shipped stylesheet. Nothing is downloaded. `npm run test:themes`, after a build.
 */
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "browser",
    environment: "node",
    include: ["test/**/*.browser.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
