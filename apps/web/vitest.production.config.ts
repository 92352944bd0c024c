import { defineConfig } from "vitest/config";

// The production folder test: the built app (`npm run build`) installed with its runtime
// dependencies only (from the registry) and started. Not in `npm test`, which stays offline: CI
// runs it (`npm run test:production`) beside its PostgreSQL pass, as it mostly waits on downloads.
export default defineConfig({
  test: {
    include: ["server/**/*.production.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 300_000,
  },
});
