/**
 * Tests that drive Debian's Chromium from Node with playwright-core (`*.browser.test.ts`): the
 * themes of the shipped stylesheet (`npm run test:themes`, after a build) and the visual check of
 * every story at five widths (`npm run test:visual`, after `npm run build-storybook`). Nothing is
 * downloaded.
 */
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "browser",
    environment: "node",
    include: ["test/**/*.browser.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
