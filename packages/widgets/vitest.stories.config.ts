/**
 * Runs every Storybook story as a test (render + play function) in a real browser: Debian's
 * Chromium driven by Playwright. Nothing is downloaded. `npm run test:stories`.
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { storybookTest } from "@storybook/addon-vitest/vitest-plugin";
import { playwright } from "@vitest/browser-playwright";
import { defineConfig } from "vitest/config";

const here = dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  test: {
    projects: [
      {
        plugins: [
          storybookTest({
            configDir: join(here, "../../.storybook"),
            storybookScript: "npm run storybook",
          }),
        ],
        optimizeDeps: {
          include: ["react", "react-dom", "react-dom/client", "react/jsx-dev-runtime"],
        },
        test: {
          name: "storybook",
          testTimeout: 30_000,
          browser: {
            enabled: true,
            headless: true,
            provider: playwright({
              launchOptions: {
                executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
                headless: true,
                // Playwright refuses a --user-data-dir argument: it always starts Chromium with
                // a fresh profile made by mkdtemp under os.tmpdir() and deletes it afterwards,
                // so nothing is written to ~/.config/chromium.
                args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
              },
            }),
            instances: [{ browser: "chromium" }],
          },
        },
      },
    ],
  },
});
