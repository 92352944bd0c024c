import { act, fireEvent, render, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { manyRacers, racers } from "./fixtures.js";
import { racerAvatar } from "./internal/avatar.js";
import { newTabLink, RacerTable, sortRacers } from "./racer-table.js";
import { CATEGORIES, CATEGORY_SLUGS, type Racer } from "./types.js";

const names = () =>
  within(screen.getByRole("table"))
    .getAllByRole("rowheader")
    .map((th) => th.textContent);

describe("sortRacers", () => {
  it("sorts by rank ascending with unranked last, in both directions", () => {
    const list = racers.filter((r) => r.category === "Pro Men");
    expect(sortRacers(list).map((r) => r.id)).toEqual([2, 3, 1, 4]);
    expect(sortRacers(list, { key: "rank", direction: "desc" }).map((r) => r.id)).toEqual([
      1, 3, 2, 4,
    ]);
  });

  it("sorts by price and by last name", () => {
    const list = racers.filter((r) => r.category === "Pro Men");
    expect(sortRacers(list, { key: "price", direction: "asc" }).map((r) => r.price)).toEqual([
      75000, 180000, 190000, 200000,
    ]);
    expect(sortRacers(list, { key: "name", direction: "asc" }).map((r) => r.lastName)).toEqual([
      "Bruni",
      "Goldstone",
      "Pierron",
      "Rider",
    ]);
  });
});

describe("RacerTable", () => {
  it("shows Pro Men first, sorted by rank with unranked last, with prices and ranks", () => {
    render(<RacerTable racers={racers} />);
    expect(screen.getByRole("tab", { selected: true }).textContent).toBe("Pro Men");
    expect(screen.getAllByRole("tab").map((t) => t.textContent)).toEqual([...CATEGORIES]);
    expect(names()).toEqual([
      "Amaury Pierron",
      "Jackson Goldstone",
      "Loic Bruni",
      "Newcomer Rider",
    ]);
    const rows = screen.getAllByRole("row");
    expect(rows[1]!.textContent).toContain("#1");
    expect(rows[1]!.textContent).toContain("$200,000");
    expect(rows[4]!.textContent).toContain("Unranked");
    expect(rows[4]!.textContent).toContain("$75,000");
    expect(screen.getByRole("table").querySelector("caption")!.textContent).toBe("Pro Men racers");
  });

  it("uses real table markup: caption, column and row headers", () => {
    render(<RacerTable racers={racers} />);
    const headers = screen.getAllByRole("columnheader");
    for (const th of headers) expect(th.getAttribute("scope")).toBe("col");
    expect(screen.getAllByRole("rowheader")[0]!.getAttribute("scope")).toBe("row");
    expect(screen.getByRole("tabpanel").getAttribute("aria-labelledby")).toBe(
      screen.getByRole("tab", { selected: true }).id,
    );
  });

  it("switches category on click (uncontrolled) and reports it", () => {
    const onCategoryChange = vi.fn();
    render(<RacerTable racers={racers} onCategoryChange={onCategoryChange} />);
    fireEvent.click(screen.getByRole("tab", { name: "Pro Women" }));
    expect(onCategoryChange.mock.calls[0]![0]).toBe("Pro Women");
    expect(names()).toEqual(["Vali Höll", "Tahnee Seagrave"]);
  });

  it("follows the controlled category", () => {
    const { rerender } = render(<RacerTable racers={racers} category="17-18 Men" />);
    expect(names()).toEqual(["Asa Vermette"]);
    fireEvent.click(screen.getByRole("tab", { name: "Pro Women" }));
    expect(names()).toEqual(["Asa Vermette"]);
    rerender(<RacerTable racers={racers} category="17-18 Women" />);
    expect(names()).toEqual(["Erice van Leuven"]);
  });

  it("moves between tabs with arrows, Home and End (roving tabindex)", () => {
    const onCategoryChange = vi.fn();
    render(<RacerTable racers={racers} onCategoryChange={onCategoryChange} />);
    const tabs = () => screen.getAllByRole("tab");
    expect(tabs().map((t) => t.tabIndex)).toEqual([0, -1, -1, -1]);
    act(() => tabs()[0]!.focus());

    fireEvent.keyDown(tabs()[0]!, { key: "ArrowRight" });
    expect(document.activeElement).toBe(tabs()[1]);
    expect(tabs()[1]!.getAttribute("aria-selected")).toBe("true");
    expect(tabs().map((t) => t.tabIndex)).toEqual([-1, 0, -1, -1]);

    fireEvent.keyDown(tabs()[1]!, { key: "End" });
    expect(document.activeElement).toBe(tabs()[3]);
    expect(names()).toEqual(["Erice van Leuven"]);

    fireEvent.keyDown(tabs()[3]!, { key: "ArrowRight" });
    expect(document.activeElement).toBe(tabs()[0]);

    fireEvent.keyDown(tabs()[0]!, { key: "ArrowLeft" });
    expect(document.activeElement).toBe(tabs()[3]);

    fireEvent.keyDown(tabs()[3]!, { key: "Home" });
    expect(document.activeElement).toBe(tabs()[0]);
    expect(onCategoryChange.mock.calls.map((c) => c[0])).toEqual([
      "Pro Women",
      "17-18 Women",
      "Pro Men",
      "17-18 Women",
      "Pro Men",
    ]);
  });

  it("renders tabs as links that work without JavaScript", () => {
    const onCategoryChange = vi.fn();
    render(
      <RacerTable
        racers={racers}
        category="Pro Men"
        categoryHref={(c) => `?category=${CATEGORY_SLUGS[c]}`}
        onCategoryChange={onCategoryChange}
      />,
    );
    const tabs = screen.getAllByRole("tab");
    expect(tabs[0]!.tagName).toBe("A");
    expect(tabs.map((t) => t.getAttribute("href"))).toEqual([
      "?category=pro-men",
      "?category=pro-women",
      "?category=junior-men",
      "?category=junior-women",
    ]);
    // Arrow keys only move focus on link tabs; Space activates.
    act(() => tabs[0]!.focus());
    fireEvent.keyDown(tabs[0]!, { key: "ArrowRight" });
    expect(document.activeElement).toBe(tabs[1]);
    expect(tabs[1]!.tabIndex).toBe(0);
    expect(onCategoryChange).not.toHaveBeenCalled();
    fireEvent.keyDown(tabs[1]!, { key: " " });
    expect(onCategoryChange.mock.calls[0]![0]).toBe("Pro Women");
  });

  it("renders tabs through renderLink", () => {
    render(
      <RacerTable
        racers={racers}
        categoryHref={(c) => `/view-racers/${CATEGORY_SLUGS[c]}`}
        renderLink={({ href, ...rest }) => <a data-router="yes" href={`/app${href}`} {...rest} />}
      />,
    );
    const tab = screen.getByRole("tab", { name: "Pro Women" });
    expect(tab.getAttribute("data-router")).toBe("yes");
    expect(tab.getAttribute("href")).toBe("/app/view-racers/pro-women");
  });

  it("sorts by clicking headers and reports aria-sort", () => {
    const onSortChange = vi.fn();
    render(<RacerTable racers={racers} onSortChange={onSortChange} />);
    const rankHeader = screen.getByRole("columnheader", { name: /Rank/ });
    expect(rankHeader.getAttribute("aria-sort")).toBe("ascending");
    fireEvent.click(screen.getByRole("button", { name: /Price/ }));
    expect(onSortChange.mock.calls[0]![0]).toEqual({ key: "price", direction: "asc" });
    expect(screen.getByRole("columnheader", { name: /Price/ }).getAttribute("aria-sort")).toBe(
      "ascending",
    );
    expect(rankHeader.hasAttribute("aria-sort")).toBe(false);
    expect(names()[0]).toBe("Newcomer Rider");
    fireEvent.click(screen.getByRole("button", { name: /Price/ }));
    expect(names()[0]).toBe("Amaury Pierron");
    expect(screen.getByRole("columnheader", { name: /Price/ }).getAttribute("aria-sort")).toBe(
      "descending",
    );
  });

  it("renders sort links with sortHref", () => {
    render(<RacerTable racers={racers} sortHref={(s) => `?sort=${s.key}&dir=${s.direction}`} />);
    expect(screen.getByRole("link", { name: /Rank/ }).getAttribute("href")).toBe(
      "?sort=rank&dir=desc",
    );
    expect(screen.getByRole("link", { name: /Name/ }).getAttribute("href")).toBe(
      "?sort=name&dir=asc",
    );
  });

  it("calls the action and shows disabled reasons on hover and focus", () => {
    const onSelect = vi.fn();
    const reason = (r: Racer) => (r.id === 2 ? "Already on your team" : null);
    render(
      <RacerTable racers={racers} action={{ onSelect, disabledReason: reason, header: "Add" }} />,
    );
    fireEvent.click(screen.getByRole("button", { name: "Add Loic Bruni" }));
    expect(onSelect.mock.calls[0]![0].id).toBe(1);

    const blocked = screen.getByRole("button", { name: "Add Amaury Pierron" });
    expect(blocked.getAttribute("aria-disabled")).toBe("true");
    expect(blocked.hasAttribute("disabled")).toBe(false); // stays focusable
    const tip = document.getElementById(blocked.getAttribute("aria-describedby")!)!;
    expect(tip.getAttribute("role")).toBe("tooltip");
    expect(tip.textContent).toBe("Already on your team");
    expect(blocked.parentElement!.className).toBe("gf-tip-wrap");
    fireEvent.click(blocked);
    expect(onSelect).toHaveBeenCalledTimes(1);

    // Escape dismisses the tooltip; leaving restores it.
    fireEvent.keyDown(blocked, { key: "Escape" });
    expect(blocked.parentElement!.hasAttribute("data-dismissed")).toBe(true);
    fireEvent.blur(blocked);
    expect(blocked.parentElement!.hasAttribute("data-dismissed")).toBe(false);
  });

  it("renders submit buttons for a form action, never for a disabled racer", () => {
    render(
      <RacerTable
        racers={racers}
        action={{
          name: "add",
          label: (r) => `$${r.price / 1000}k`,
          ariaLabel: (r) => `Add ${r.firstName} ${r.lastName} for $${r.price / 1000}k`,
          disabledReason: (r) => (r.price > 190000 ? "Not enough money left in your bank" : null),
        }}
      />,
    );
    const ok = screen.getByRole("button", {
      name: "Add Loic Bruni for $180k",
    }) as HTMLButtonElement;
    expect(ok.type).toBe("submit");
    expect(ok.name).toBe("add");
    expect(ok.value).toBe("1");
    expect(ok.textContent).toBe("$180k");
    const blocked = screen.getByRole("button", {
      name: "Add Amaury Pierron for $200k",
    }) as HTMLButtonElement;
    expect(blocked.type).toBe("button");
  });

  it("calls onRacerNameClick and renders racerHref links", () => {
    const onRacerNameClick = vi.fn();
    const { rerender } = render(<RacerTable racers={racers} onRacerNameClick={onRacerNameClick} />);
    fireEvent.click(screen.getByRole("button", { name: "Loic Bruni" }));
    expect(onRacerNameClick.mock.calls[0]![0].id).toBe(1);
    rerender(<RacerTable racers={racers} racerHref={(r) => `/racers/${r.id}`} />);
    expect(screen.getByRole("link", { name: "Loic Bruni" }).getAttribute("href")).toBe("/racers/1");
  });

  it("links names to the game's racer pages in a new tab (newTabLink), saying so", () => {
    render(
      <RacerTable
        racers={racers}
        racerHref={(r) => `https://game.example/racers/${r.id}`}
        renderLink={newTabLink}
      />,
    );
    const link = screen.getByRole("link", { name: "Loic Bruni (opens in a new tab)" });
    expect(link.getAttribute("href")).toBe("https://game.example/racers/1");
    expect(link.getAttribute("target")).toBe("_blank");
    expect(link.getAttribute("rel")).toBe("noopener");
    expect(link.className).toBe("gf-link");
    // Sighted readers see the name alone; the hint is for screen readers.
    expect(link.querySelector(".gf-sr-only")?.textContent).toBe("(opens in a new tab)");
    expect(link.firstChild?.textContent).toBe("Loic Bruni");
    // Only the names are links: the tabs and sort headers stay buttons on the page.
    expect(screen.getAllByRole("link")).toHaveLength(4);
    expect(screen.getAllByRole("tab").every((t) => t.tagName === "BUTTON")).toBe(true);
  });

  it("falls back to the placeholder when there is no picture or it fails", () => {
    const { container } = render(
      <RacerTable
        racers={racers}
        imageBase=""
        placeholderSrc="/img/racer_portrait/placeholder.svg"
      />,
    );
    const srcs = () =>
      [...container.querySelectorAll("tbody img")].map((i) => i.getAttribute("src"));
    expect(srcs()).toEqual([
      "/img/racer_portrait/amaury_pierron.jpg",
      "/img/racer_portrait/placeholder.svg",
      "/img/racer_portrait/loic_bruni.jpg",
      "/img/racer_portrait/placeholder.svg",
    ]);
    fireEvent.error(container.querySelector("tbody img")!);
    expect(srcs()[0]).toBe("/img/racer_portrait/placeholder.svg");
  });

  it("draws the racer's generated avatar when there is no picture or it fails", () => {
    const { container } = render(<RacerTable racers={racers} imageBase="" />);
    // Each avatar is its racer's: initials and colours from the rule, by the row's name.
    const drawn = () =>
      [...container.querySelectorAll("tbody tr")].flatMap((row) => {
        const svg = row.querySelector("svg[data-avatar]");
        if (!svg) return [];
        const name = row.querySelector("th")!.textContent;
        const racer = racers.find((r) => `${r.firstName} ${r.lastName}` === name)!;
        const want = racerAvatar(racer);
        expect(svg.textContent).toBe(want.initials);
        expect(svg.querySelector("rect")!.getAttribute("fill")).toBe(want.background);
        expect(svg.querySelector("text")!.getAttribute("fill")).toBe(want.foreground);
        return [name];
      });
    const before = drawn();
    expect(before.length).toBeGreaterThan(0);
    fireEvent.error(container.querySelector("tbody img")!);
    expect(drawn()).toHaveLength(before.length + 1);
  });

  it("shows empty, loading and error states inside the table", () => {
    const { rerender } = render(<RacerTable racers={[]} />);
    expect(screen.getByText("No racers in this category.")).toBeTruthy();
    rerender(<RacerTable racers={[]} emptyMessage="Nobody here yet" />);
    expect(screen.getByText("Nobody here yet")).toBeTruthy();
    rerender(<RacerTable racers={racers} loading />);
    expect(screen.getByRole("status").textContent).toContain("Loading...");
    expect(screen.getByRole("table").getAttribute("aria-busy")).toBe("true");
    rerender(<RacerTable racers={racers} error="Could not load racers" />);
    expect(screen.getByRole("alert").textContent).toBe("Could not load racers");
    // The tabs stay usable in every state.
    expect(screen.getAllByRole("tab")).toHaveLength(4);
  });

  it("lists every racer without tabs, and handles 200 rows", () => {
    render(<RacerTable racers={manyRacers(200)} showTabs={false} />);
    expect(screen.queryByRole("tablist")).toBeNull();
    expect(screen.getAllByRole("row")).toHaveLength(201);
  });

  it("can hide columns", () => {
    render(<RacerTable racers={racers} hideColumns={["portrait", "rank"]} />);
    expect(screen.getAllByRole("columnheader").map((th) => th.textContent)).toEqual([
      "Name↕",
      "Price↕",
    ]);
  });
});
