import type { Decorator, Preview } from "@storybook/react-vite";
import { createElement } from "react";
import "../packages/widgets/src/styles.css";

/**
 * Wraps every story in a themed `.gf-root`, as a host page would: the widgets (which carry no
 * `data-theme` of their own in the stories) inherit the theme chosen in the toolbar.
 */
const withTheme: Decorator = (Story, context) => {
  const theme = (context.globals.theme as string | undefined) ?? "light";
  const width = context.parameters.frameWidth as number | undefined;
  return createElement(
    "div",
    {
      className: "gf-root",
      "data-theme": theme,
      "data-testid": "theme-root",
      style: { padding: "1rem", minHeight: "100%", ...(width ? { width, maxWidth: width } : {}) },
    },
    createElement(Story),
  );
};

const preview: Preview = {
  globalTypes: {
    theme: {
      description: "Widget colour theme",
      toolbar: {
        title: "Theme",
        icon: "mirror",
        items: [
          { value: "light", title: "Light" },
          { value: "dark", title: "Dark" },
          { value: "auto", title: "Auto (system)" },
        ],
        dynamicTitle: true,
      },
    },
  },
  initialGlobals: { theme: "light" },
  decorators: [withTheme],
  parameters: {
    layout: "fullscreen",
    controls: { expanded: true, sort: "requiredFirst" },
  },
  tags: ["autodocs"],
};

export default preview;
