import type { Meta, StoryObj } from "@storybook/react-vite";
import { expect, fn } from "storybook/test";
import { EventCard, EventList } from "./event-list.js";
import { events } from "./fixtures.js";
import {
  demoCover,
  demoLogo,
  expectDarkTheme,
  expectNoHorizontalOverflow,
  widgetRoot,
} from "./story-helpers.js";
import type { GameEvent } from "./types.js";

const withImages: GameEvent[] = events.map((e) => ({ ...e, cover: demoCover, logo: demoLogo }));

const meta = {
  title: "Widgets/EventList",
  component: EventList,
  args: { events: withImages, onEnter: fn(), onSignIn: fn(), visitor: false },
  argTypes: {
    theme: { control: "inline-radio", options: [undefined, "light", "dark", "auto"] },
    error: { control: "text" },
    emptyMessage: { control: "text" },
  },
} satisfies Meta<typeof EventList>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Only the open event can be entered; closed and archived ones show their status. */
export const Default: Story = {
  play: async ({ canvas, args, userEvent }) => {
    const enter = canvas.getAllByRole("button", { name: /Enter Event/ });
    await expect(enter).toHaveLength(1);
    await userEvent.click(enter[0]!);
    await expect(args.onEnter).toHaveBeenCalledWith(withImages[0], expect.anything());
    await expect(canvas.getByText("Closed")).toBeInTheDocument();
    await expect(canvas.getByText("Archived")).toBeInTheDocument();
  },
};

export const Visitor: Story = {
  args: { visitor: true },
  play: async ({ canvas, args, userEvent }) => {
    await userEvent.click(canvas.getByRole("button", { name: /Sign In to Play/ }));
    await expect(args.onSignIn).toHaveBeenCalled();
  },
};

/** `eventHref`: the open card is a link (works without JS, or through `renderLink`). */
export const Links: Story = {
  args: { eventHref: (e: GameEvent) => `/game/${e.id}`, onEnter: undefined },
};

export const WithoutImages: Story = { args: { events } };

export const Empty: Story = { args: { events: [] } };

export const Loading: Story = {
  args: { events: [], loading: true, loadingMessage: "Loading game data..." },
};

export const ErrorState: Story = {
  name: "Error",
  args: { events: [], error: "Could not load the events.", onRetry: fn() },
};

export const LongNames: Story = {
  args: {
    events: [
      {
        ...withImages[0]!,
        name: "UCI Downhill World Cup Presented By A Very Long Sponsor Name — Finals Weekend",
      },
      { ...withImages[1]!, name: "Championnat-Régional-Descente-Vélo-Tout-Terrain-Haute-Savoie" },
      withImages[2]!,
    ],
  },
};

export const ManyEvents: Story = {
  args: {
    events: Array.from({ length: 12 }, (_, i) => ({
      ...withImages[i % 3]!,
      id: i + 1,
      name: `Round ${i + 1}`,
    })),
  },
};

export const SingleCard: Story = {
  render: (args) => <EventCard event={withImages[0]!} onEnter={args.onEnter} />,
};

export const Dark: Story = {
  globals: { theme: "dark" },
  play: async ({ canvasElement }) => {
    await expectDarkTheme(widgetRoot(canvasElement, "gf-event-list"));
  },
};

export const Mobile360: Story = {
  name: "Mobile (360px)",
  args: { events: [...withImages] },
  parameters: { frameWidth: 360 },
  play: async ({ canvasElement }) => {
    await expectNoHorizontalOverflow(widgetRoot(canvasElement, "gf-event-list"));
  },
};
