import type { StorybookConfig } from "@storybook/react-vite";

const config: StorybookConfig = {
  stories: ["../packages/widgets/src/**/*.stories.@(ts|tsx)"],
  framework: { name: "@storybook/react-vite", options: {} },
  addons: ["@storybook/addon-docs", "@storybook/addon-vitest"],
  core: { disableTelemetry: true, disableWhatsNewNotifications: true },
  typescript: { reactDocgen: "react-docgen-typescript" },
  // The manager and preview bundles are large by nature; keep the build log quiet about it.
  viteFinal: (config) => ({
    ...config,
    build: { ...config.build, chunkSizeWarningLimit: 2000 },
  }),
};

export default config;
