import type { Meta, StoryObj } from "@storybook/react-vite";
import { useState } from "react";
import { expect, fn, waitFor } from "storybook/test";
import { longNameRacers, manyRacers, racers } from "./fixtures.js";
import { formatPrice } from "./format.js";
import { newTabLink, type RacerSort, RacerTable } from "./racer-table.js";
import { expectDarkTheme, expectNoHorizontalOverflow, widgetRoot } from "./story-helpers.js";
import { CATEGORY_SLUGS, type Category, type Racer } from "./types.js";

const onTeam = new Set([2]);
const teamBuilderAction = {
  label: (r: Racer) => formatPrice(r.price),
  ariaLabel: (r: Racer) => `Add ${r.firstName} ${r.lastName} for ${formatPrice(r.price)}`,
  onSelect: fn(),
  disabledReason: (r: Racer) =>
    onTeam.has(r.id)
      ? "Already on your team"
      : r.price > 185_000
        ? "Not enough money left in your bank"
        : null,
  header: "Price",
};

const meta = {
  title: "Widgets/RacerTable",
  component: RacerTable,
  args: {
    racers,
    onCategoryChange: fn(),
    onSortChange: fn(),
    onRacerNameClick: fn(),
    showTabs: true,
    hideCaption: false,
  },
  argTypes: {
    theme: { control: "inline-radio", options: [undefined, "light", "dark", "auto"] },
    category: {
      control: "select",
      options: [undefined, "Pro Men", "Pro Women", "17-18 Men", "17-18 Women"],
    },
    error: { control: "text" },
    emptyMessage: { control: "text" },
  },
} satisfies Meta<typeof RacerTable>;

export default meta;
type Story = StoryObj<typeof meta>;

/** View Racers: Pro Men first, sorted by 2024 rank with unranked riders last. */
export const Default: Story = {
  play: async ({ canvas, args, userEvent }) => {
    await expect(canvas.getByRole("tab", { selected: true })).toHaveTextContent("Pro Men");
    const names = canvas.getAllByRole("rowheader").map((th) => th.textContent);
    await expect(names).toEqual([
      "Amaury Pierron",
      "Jackson Goldstone",
      "Loic Bruni",
      "Newcomer Rider",
    ]);
    await userEvent.click(canvas.getByRole("button", { name: "Loic Bruni" }));
    await expect(args.onRacerNameClick).toHaveBeenCalled();
  },
};

/** Tabs follow the WAI-ARIA pattern: arrows, Home and End move (and select), Tab leaves. */
export const KeyboardTabs: Story = {
  play: async ({ canvas, args, userEvent }) => {
    const tabs = canvas.getAllByRole("tab");
    tabs[0]!.focus();
    await userEvent.keyboard("{ArrowRight}");
    await expect(document.activeElement).toBe(tabs[1]);
    await expect(tabs[1]).toHaveAttribute("aria-selected", "true");
    await expect(canvas.getByRole("table")).toHaveTextContent("Vali Höll");
    await userEvent.keyboard("{End}");
    await expect(document.activeElement).toBe(tabs[3]);
    await userEvent.keyboard("{Home}");
    await expect(document.activeElement).toBe(tabs[0]);
    await expect(args.onCategoryChange).toHaveBeenCalledTimes(3);
    // Only the selected tab is in the Tab sequence.
    await expect(tabs.map((t) => t.tabIndex)).toEqual([0, -1, -1, -1]);
    await userEvent.tab();
    await expect(document.activeElement).not.toHaveAttribute("role", "tab");
  },
};

/** Team setup: the price button adds a racer; blocked racers explain why on hover and focus. */
export const TeamBuilder: Story = {
  args: { action: teamBuilderAction, hideColumns: ["price"] },
  play: async ({ canvas, userEvent }) => {
    await userEvent.click(canvas.getByRole("button", { name: "Add Loic Bruni for $180,000" }));
    await expect(teamBuilderAction.onSelect).toHaveBeenCalled();
    const blocked = canvas.getByRole("button", { name: "Add Amaury Pierron for $200,000" });
    await expect(blocked).toHaveAttribute("aria-disabled", "true");
    await expect(blocked).toHaveAccessibleDescription("Already on your team");
    const tip = document.getElementById(blocked.getAttribute("aria-describedby")!)!;
    await expect(getComputedStyle(tip).visibility).toBe("hidden");
    blocked.focus();
    await waitFor(() => expect(getComputedStyle(tip).visibility).toBe("visible"));
    await userEvent.keyboard("{Escape}");
    await waitFor(() => expect(getComputedStyle(tip).visibility).toBe("hidden"));
    blocked.blur();
  },
};

/** Tabs and sort headers as plain links: the page works without JavaScript. */
export const LinksWithoutJs: Story = {
  name: "Links (no JS)",
  args: {
    category: "Pro Women",
    categoryHref: (c: Category) => `?category=${CATEGORY_SLUGS[c]}`,
    sortHref: (s: RacerSort) => `?sort=${s.key}&dir=${s.direction}`,
    onCategoryChange: undefined,
    onSortChange: undefined,
  },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole("tab", { name: "17-18 Men" })).toHaveAttribute(
      "href",
      "?category=junior-men",
    );
  },
};

/**
 * On a partner's page: names link to the racer's page on the game's site (`racerHref`, absolute),
 * each in a new tab (`renderLink={newTabLink}`), which screen readers are told.
 */
export const RacerPagesInNewTab: Story = {
  name: "Racer links (new tab)",
  args: {
    onRacerNameClick: undefined,
    racerHref: (r: Racer) => `https://gravity-fantasy.example/racers/${r.id}`,
    renderLink: newTabLink,
  },
  play: async ({ canvas }) => {
    const link = canvas.getByRole("link", { name: "Loic Bruni (opens in a new tab)" });
    await expect(link).toHaveAttribute("href", "https://gravity-fantasy.example/racers/1");
    await expect(link).toHaveAttribute("target", "_blank");
  },
};

/** Controlled: the host keeps category and sort (e.g. in the URL). */
export const Controlled: Story = {
  render: function Controlled(args) {
    const [category, setCategory] = useState<Category>("Pro Men");
    const [sort, setSort] = useState<RacerSort>({ key: "price", direction: "desc" });
    return (
      <RacerTable
        {...args}
        category={category}
        onCategoryChange={setCategory}
        sort={sort}
        onSortChange={setSort}
      />
    );
  },
};

const HOST_CSS = `
  * { box-sizing: content-box; }
  button { text-transform: uppercase; background: #f0f; color: #ff0; padding: 20px; border: 5px solid #0f0; font-family: serif; }
  table, th, td { border: 3px solid #f0f; padding: 30px; }
  caption { text-align: right; font-size: 40px; }
  a { color: #f00; }
`;

/** Aggressive global element styles of a host page do not restyle the widget. */
export const HostStylesDoNotLeakIn: Story = {
  args: { action: teamBuilderAction },
  render: (args) => (
    <>
      <style>{HOST_CSS}</style>
      <RacerTable {...args} />
    </>
  ),
  play: async ({ canvas }) => {
    const tab = getComputedStyle(canvas.getByRole("tab", { name: "Pro Women" }));
    await expect(tab.textTransform).toBe("none");
    await expect(tab.backgroundColor).toBe("rgba(0, 0, 0, 0)");
    await expect(tab.boxSizing).toBe("border-box");
    const cell = getComputedStyle(canvas.getAllByRole("cell")[0]!);
    await expect(cell.paddingTop).toBe("8px");
    await expect(cell.borderTopWidth).toBe("0px");
    const add = getComputedStyle(canvas.getByRole("button", { name: /Add Loic Bruni/ }));
    await expect(add.backgroundColor).toBe("rgb(184, 58, 6)");
    await expect(add.fontFamily.startsWith("system-ui")).toBe(true);
  },
};

/** A host re-themes the widgets by setting `--gf-*` variables; its rule wins over the defaults. */
export const HostTheme: Story = {
  args: { action: teamBuilderAction },
  render: (args) => (
    <>
      <style>{".gf-root { --gf-color-accent: #0b5cad; --gf-radius: 0px; }"}</style>
      <RacerTable {...args} />
    </>
  ),
  play: async ({ canvas }) => {
    const add = getComputedStyle(canvas.getByRole("button", { name: /Add Loic Bruni/ }));
    await expect(add.backgroundColor).toBe("rgb(11, 92, 173)");
    await expect(add.borderTopLeftRadius).toBe("0px");
  },
};

export const Empty: Story = {
  args: { racers: [], emptyMessage: "No racers in this category yet." },
};

export const Loading: Story = { args: { loading: true } };

export const ErrorState: Story = {
  name: "Error",
  args: { error: "Could not load the racers.", onRetry: fn() },
};

export const LongNames: Story = {
  args: { racers: [...longNameRacers, ...racers], action: teamBuilderAction },
};

export const ManyRows: Story = {
  name: "200 rows",
  args: { racers: manyRacers(200), showTabs: false, action: teamBuilderAction },
  play: async ({ canvas }) => {
    await expect(canvas.getAllByRole("row")).toHaveLength(201);
  },
};

export const Dark: Story = {
  args: { action: teamBuilderAction },
  globals: { theme: "dark" },
  play: async ({ canvasElement }) => {
    await expectDarkTheme(widgetRoot(canvasElement, "gf-racers"));
  },
};

/**
 * The read-only table as on View Racers: on a 360px phone (the host page leaves it about 316px)
 * portrait, rank, name and price fit without scrolling sideways.
 */
export const Mobile360ReadOnly: Story = {
  name: "Mobile (360px), read-only",
  args: { racers },
  parameters: { frameWidth: 348 },
  play: async ({ canvasElement }) => {
    const scroller = canvasElement.querySelector<HTMLElement>(".gf-table-scroll");
    await expect(scroller).not.toBeNull();
    await expectNoHorizontalOverflow(scroller!);
  },
};

export const Mobile360: Story = {
  name: "Mobile (360px)",
  args: { racers: [...longNameRacers, ...racers], action: teamBuilderAction },
  parameters: { frameWidth: 360 },
  play: async ({ canvasElement }) => {
    // The widget fits; the table scrolls inside its own region when it must.
    await expectNoHorizontalOverflow(widgetRoot(canvasElement, "gf-racers"));
  },
};
