import type { Meta, StoryObj } from "@storybook/react-vite";
import { expect, fn } from "storybook/test";
import { longNameRacers, racers } from "./fixtures.js";
import { expectDarkTheme, expectNoHorizontalOverflow, widgetRoot } from "./story-helpers.js";
import { TeamGrid } from "./team-grid.js";

const team = [racers[0]!, racers[4]!, racers[6]!, racers[1]!];
const fullTeam = [racers[0]!, racers[1]!, racers[2]!, racers[4]!, racers[5]!, racers[7]!];

const meta = {
  title: "Widgets/TeamGrid",
  component: TeamGrid,
  args: {
    racers: team,
    onRemove: fn(),
    onRacerClick: fn(),
    budget: 1_000_000,
    readOnly: false,
  },
  argTypes: {
    theme: { control: "inline-radio", options: [undefined, "light", "dark", "auto"] },
    error: { control: "text" },
    emptyMessage: { control: "text" },
  },
} satisfies Meta<typeof TeamGrid>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {
  play: async ({ canvas, args, userEvent }) => {
    await expect(canvas.getAllByRole("listitem")).toHaveLength(6);
    await userEvent.click(canvas.getByRole("button", { name: "Remove Vali Höll" }));
    await expect(args.onRemove).toHaveBeenCalledWith(team[1], expect.anything());
    await userEvent.click(canvas.getByRole("button", { name: "Asa Vermette" }));
    await expect(args.onRacerClick).toHaveBeenCalledWith(team[2]);
  },
};

export const FullTeam: Story = { args: { racers: fullTeam } };

export const ReadOnly: Story = {
  args: { racers: fullTeam, readOnly: true },
  play: async ({ canvas }) => {
    await expect(canvas.queryByRole("button", { name: /Remove/ })).toBeNull();
  },
};

/** Remove buttons as `<button type="submit" name="remove" value={id}>`: works without JS. */
export const PlainFormPost: Story = {
  args: { onRemove: undefined, removeFormName: "remove" },
  render: (args) => (
    <form method="post" action="#" onSubmit={(event) => event.preventDefault()}>
      <TeamGrid {...args} />
    </form>
  ),
  play: async ({ canvas }) => {
    const button = canvas.getByRole("button", { name: "Remove Loic Bruni" }) as HTMLButtonElement;
    await expect(button.type).toBe("submit");
    await expect(button.value).toBe("1");
  },
};

export const Empty: Story = {
  args: { racers: [], emptyMessage: "No riders yet: pick six racers below." },
};

export const Loading: Story = { args: { loading: true } };

export const ErrorState: Story = {
  name: "Error",
  args: { error: "Could not load your team.", onRetry: fn() },
  play: async ({ canvas, args, userEvent }) => {
    await expect(canvas.getByRole("alert")).toHaveTextContent("Could not load your team.");
    await userEvent.click(canvas.getByRole("button", { name: "Try again" }));
    await expect(args.onRetry).toHaveBeenCalled();
  },
};

export const LongNames: Story = { args: { racers: [...longNameRacers, ...team] } };

export const Dark: Story = {
  globals: { theme: "dark" },
  play: async ({ canvasElement }) => {
    await expectDarkTheme(widgetRoot(canvasElement, "gf-team"));
  },
};

export const Mobile360: Story = {
  name: "Mobile (360px)",
  args: { racers: [...longNameRacers, ...team] },
  parameters: { frameWidth: 360 },
  play: async ({ canvasElement }) => {
    await expectNoHorizontalOverflow(widgetRoot(canvasElement, "gf-team"));
  },
};
