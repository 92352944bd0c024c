import type { Meta, StoryObj } from "@storybook/react-vite";
import { expect } from "storybook/test";
import { requirements } from "./fixtures.js";
import { RequirementChecklist } from "./requirement-checklist.js";
import { expectDarkTheme, widgetRoot } from "./story-helpers.js";

const meta = {
  title: "Widgets/RequirementChecklist",
  component: RequirementChecklist,
  args: { requirements, title: "Team requirements", headingLevel: 3 },
  argTypes: {
    theme: { control: "inline-radio", options: [undefined, "light", "dark", "auto"] },
    error: { control: "text" },
    emptyMessage: { control: "text" },
  },
} satisfies Meta<typeof RequirementChecklist>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {
  play: async ({ canvas }) => {
    await expect(canvas.getByText("2 requirements not met.")).toBeInTheDocument();
  },
};

export const AllMet: Story = {
  args: { requirements: requirements.map((r) => ({ ...r, met: true })) },
};

export const Empty: Story = { args: { requirements: [] } };

export const Loading: Story = { args: { loading: true } };

export const ErrorState: Story = {
  name: "Error",
  args: { error: "Could not check your team." },
};

export const LongNames: Story = {
  name: "Long labels",
  args: {
    requirements: [
      {
        id: "female",
        label:
          "At least two female riders from the Pro Women or the 17-18 Women categories, whichever you prefer",
        met: false,
        detail: "1/2",
      },
      ...requirements.slice(2),
    ],
  },
};

export const Dark: Story = {
  globals: { theme: "dark" },
  play: async ({ canvasElement }) => {
    await expectDarkTheme(widgetRoot(canvasElement, "gf-checklist"));
  },
};
