import type { Meta, StoryObj } from "@storybook/react-vite";
import { useState } from "react";
import { expect, fn } from "storybook/test";
import { leagueRows } from "./fixtures.js";
import { LeagueRankings } from "./league-rankings.js";
import { expectDarkTheme, expectNoHorizontalOverflow, widgetRoot } from "./story-helpers.js";

const all = leagueRows(200);
const PAGE = 10;

const meta = {
  title: "Widgets/LeagueRankings",
  component: LeagueRankings,
  args: {
    rows: all.slice(0, PAGE),
    page: 1,
    pageCount: 20,
    onPageChange: fn(),
    highlightIds: [3],
    hideCaption: false,
  },
  argTypes: {
    theme: { control: "inline-radio", options: [undefined, "light", "dark", "auto"] },
    error: { control: "text" },
    emptyMessage: { control: "text" },
  },
} satisfies Meta<typeof LeagueRankings>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {
  play: async ({ canvas, args, userEvent }) => {
    await expect(canvas.getAllByRole("columnheader").map((c) => c.textContent)).toEqual([
      "Rank",
      "League Name",
      "Total Points",
    ]);
    await userEvent.click(canvas.getByRole("button", { name: "Next page" }));
    await expect(args.onPageChange).toHaveBeenCalledWith(2, expect.anything());
  },
};

export const Paging: Story = {
  render: function Paging(args) {
    const [page, setPage] = useState(1);
    return (
      <LeagueRankings
        {...args}
        rows={all.slice((page - 1) * PAGE, page * PAGE)}
        page={page}
        pageCount={all.length / PAGE}
        onPageChange={setPage}
      />
    );
  },
};

export const LinksWithoutJs: Story = {
  name: "Links (no JS)",
  args: {
    pageHref: (p: number) => `?page=${p}`,
    onPageChange: undefined,
    leagueHref: (l) => `/leagues/${l.id}`,
  },
};

export const Empty: Story = { args: { rows: [], pageCount: 0 } };

export const Loading: Story = { args: { loading: true } };

export const ErrorState: Story = {
  name: "Error",
  args: { error: "Could not load the leagues.", onRetry: fn() },
};

export const LongNames: Story = {
  args: {
    rows: [
      {
        rank: 1,
        id: 1,
        name: "The Extremely Long League Name Of People Who Ride Bikes Downhill",
        totalPoints: 812.25,
      },
      {
        rank: 2,
        id: 2,
        name: "Supercalifragilisticexpialidocious-Downhill-Crew",
        totalPoints: 700,
      },
      ...all.slice(2, 5),
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
  globals: { theme: "dark" },
  play: async ({ canvasElement }) => {
    await expectDarkTheme(widgetRoot(canvasElement, "gf-league-rankings"));
  },
};

export const Mobile360: Story = {
  name: "Mobile (360px)",
  parameters: { frameWidth: 360 },
  play: async ({ canvasElement }) => {
    await expectNoHorizontalOverflow(widgetRoot(canvasElement, "gf-league-rankings"));
  },
};
