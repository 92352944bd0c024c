import { configDefaults, defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "~": new URL("./app", import.meta.url).pathname } },
  test: {
    include: ["app/**/*.test.{ts,tsx}", "server/**/*.test.{ts,js}", "embed/**/*.test.ts"],
    // Installs from the registry: its own step (vitest.production.config.ts).
    exclude: [...configDefaults.exclude, "server/**/*.production.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
