import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "~": new URL("./app", import.meta.url).pathname } },
  test: {
    include: ["app/**/*.test.{ts,tsx}", "server/**/*.test.{ts,js}", "embed/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
