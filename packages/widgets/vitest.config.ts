import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

/** Unit tests (jsdom) and the pack test. No browser: `npm test` runs anywhere. */
export default defineConfig({
  plugins: [react()],
  test: {
    name: "unit",
    environment: "jsdom",
    include: ["src/**/*.test.{ts,tsx}", "test/**/*.test.ts"],
    setupFiles: ["test/setup.ts"],
    restoreMocks: true,
  },
});
