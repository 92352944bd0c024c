import type { Meta, StoryObj } from "@storybook/react-vite";
import { useState } from "react";
import { expect, fn } from "storybook/test";
import { playerRows } from "./fixtures.js";
import { PlayerRankings } from "./player-rankings.js";
import { expectDarkTheme, expectNoHorizontalOverflow, widgetRoot } from "./story-helpers.js";

const all = playerRows(200);
const PAGE = 10;

const meta = {
  title: "Widgets/PlayerRankings",
  component: PlayerRankings,
  args: {
    rows: all.slice(0, PAGE),
    page: 1,
    pageCount: 20,
    onPageChange: fn(),
    showMovement: true,
    hideCaption: false,
  },
  argTypes: {
    theme: { control: "inline-radio", options: [undefined, "light", "dark", "auto"] },
    error: { control: "text" },
    emptyMessage: { control: "text" },
  },
} satisfies Meta<typeof PlayerRankings>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {};

/** Paging with state, the viewer (rank 37) highlighted on page 4 and pinned elsewhere. */
export const Paging: Story = {
  render: function Paging(args) {
    const [page, setPage] = useState(1);
    return (
      <PlayerRankings
        {...args}
        rows={all.slice((page - 1) * PAGE, page * PAGE)}
        page={page}
        pageCount={all.length / PAGE}
        onPageChange={setPage}
        me={all[36]}
      />
    );
  },
  play: async ({ canvas, userEvent }) => {
    await expect(canvas.getByText("Your position")).toBeInTheDocument();
    await userEvent.click(canvas.getByRole("button", { name: "Page 2" }));
    await expect(canvas.getByText("Page 2 of 20")).toBeInTheDocument();
    await userEvent.click(canvas.getByRole("button", { name: "Next page" }));
    await userEvent.click(canvas.getByRole("button", { name: "Next page" }));
    const mine = canvas.getAllByRole("row").filter((r) => r.getAttribute("aria-current"));
    await expect(mine).toHaveLength(1);
    await expect(mine[0]).toHaveTextContent("rider_37");
    await expect(canvas.queryByText("Your position")).toBeNull();
  },
};

export const PinnedOwnRow: Story = {
  args: { me: { rank: 143, id: "me", username: "you_the_player", points: 12, previousRank: 150 } },
};

/** Links (`pageHref`): paging works without JavaScript. */
export const LinksWithoutJs: Story = {
  name: "Links (no JS)",
  args: {
    page: 3,
    rows: all.slice(20, 30),
    pageHref: (p: number) => `?page=${p}`,
    onPageChange: undefined,
  },
};

/** `playerHref` makes usernames links, e.g. to each player's page. */
export const PlayerLinks: Story = {
  args: { playerHref: (p) => `#player-${p.username}` },
  play: async ({ canvasElement }) => {
    const first = canvasElement.querySelector("tbody a.gf-link");
    await expect(first?.getAttribute("href")).toBe(`#player-${all[0]!.username}`);
  },
};

export const Fallbacks: Story = {
  name: "Anonymous, 0 points, shared ranks",
  args: {
    rows: [
      { rank: 1, username: "alice", points: 300, previousRank: 2 },
      { rank: 1, username: null, points: 300, previousRank: 1 },
      { rank: 3, username: "carol", points: null },
      { rank: 3, points: null },
    ],
    pageCount: 1,
  },
  play: async ({ canvas }) => {
    await expect(canvas.getAllByText("Anonymous")).toHaveLength(2);
  },
};

export const Empty: Story = { args: { rows: [], pageCount: 0 } };

export const Loading: Story = { args: { loading: true } };

export const ErrorState: Story = {
  name: "Error",
  args: { error: "Could not load the rankings.", onRetry: fn() },
};

export const LongNames: Story = {
  args: {
    rows: [
      { rank: 1, username: "the_longest_username_anyone_has_ever_typed_into_a_form", points: 9999 },
      { rank: 2, username: "x".repeat(60), points: 1234567 },
      ...all.slice(2, 6),
    ],
  },
};

export const ManyRows: Story = {
  name: "200 rows",
  args: { rows: all, pageCount: 1 },
  play: async ({ canvas }) => {
    await expect(canvas.getAllByRole("row")).toHaveLength(201);
  },
};

export const Dark: Story = {
  args: { me: all[3] },
  globals: { theme: "dark" },
  play: async ({ canvasElement }) => {
    await expectDarkTheme(widgetRoot(canvasElement, "gf-player-rankings"));
  },
};

export const Mobile360: Story = {
  name: "Mobile (360px)",
  args: { me: all[150] },
  parameters: { frameWidth: 360 },
  play: async ({ canvasElement }) => {
    await expectNoHorizontalOverflow(widgetRoot(canvasElement, "gf-player-rankings"));
  },
};
