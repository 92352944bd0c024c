import type { Meta, StoryObj } from "@storybook/react-vite";
import { expect, fn, within } from "storybook/test";
import { longNameRacers, racers } from "./fixtures.js";
import { expectDarkTheme, expectNoHorizontalOverflow, widgetRoot } from "./story-helpers.js";
import { TeamGrid } from "./team-grid.js";
import type { Racer } from "./types.js";

const team = [racers[0]!, racers[4]!, racers[6]!, racers[1]!];
const fullTeam = [racers[0]!, racers[1]!, racers[2]!, racers[4]!, racers[5]!, racers[7]!];
/** A made-up race result per rider of `fullTeam`: place i + 1, 100 - 15i points. */
const place = (r: Racer) => fullTeam.indexOf(r) + 1;
const points = (r: Racer) => 115 - 15 * place(r);
const ordinal = (n: number) => `${n}${["th", "st", "nd", "rd"][n < 4 ? n : 0]}`;

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

/**
 * Someone else's locked team on a public page: names link to the racer's page (`racerHref`, through
 * `renderLink` with a router), the meta line shows the result (`renderMeta`) and each slot ends
 * with the points scored (`renderAside`).
 */
export const ScoredTeam: Story = {
  args: {
    racers: fullTeam,
    readOnly: true,
    budget: undefined,
    onRacerClick: undefined,
    label: "Team at the lock",
    racerHref: (r) => `#/racers/${r.id}`,
    renderMeta: (r) => `${r.category} · ${ordinal(place(r))}`,
    renderAside: (r) => <strong>{points(r)} pts</strong>,
  },
  play: async ({ canvas }) => {
    const list = canvas.getByRole("list", { name: "Team at the lock" });
    const slots = within(list).getAllByRole("listitem");
    await expect(slots).toHaveLength(6);
    await expect(within(slots[0]!).getByRole("link", { name: "Loic Bruni" })).toHaveAttribute(
      "href",
      "#/racers/1",
    );
    await expect(slots[0]!).toHaveTextContent("Loic BruniPro Men · 1st100 pts");
    await expect(slots[5]!).toHaveTextContent(/· 6th25 pts$/);
    await expect(slots[0]!).not.toHaveTextContent("$");
    await expect(canvas.queryByRole("button")).toBeNull();
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
