import { fireEvent, render, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { playerRows } from "./fixtures.js";
import { pageWindow } from "./internal/pagination.js";
import { PlayerRankings } from "./player-rankings.js";

const bodyRows = () => screen.getAllByRole("row").slice(1);

describe("PlayerRankings", () => {
  it("shows Rank, Username, Points with Anonymous and 0 fallbacks and shared ranks as given", () => {
    render(
      <PlayerRankings
        rows={[
          { rank: 1, username: "alice", points: 300 },
          { rank: 1, username: "bob", points: 300 },
          { rank: 3, username: null, points: 1234.5 },
          { rank: 4, username: "dan" },
        ]}
      />,
    );
    expect(screen.getAllByRole("columnheader").map((c) => c.textContent)).toEqual([
      "Rank",
      "Username",
      "Points",
    ]);
    const cells = bodyRows().map((r) => [...r.children].map((c) => c.textContent));
    expect(cells).toEqual([
      ["1", "alice", "300"],
      ["1", "bob", "300"],
      ["3", "Anonymous", "1,234.5"],
      ["4", "dan", "0"],
    ]);
    expect(screen.getByRole("table").querySelector("caption")!.textContent).toBe("Player rankings");
  });

  it("highlights the viewer's row when it is on the page", () => {
    const rows = playerRows(10);
    render(<PlayerRankings rows={rows} me={{ ...rows[4]! }} />);
    const mine = bodyRows().filter((r) => r.getAttribute("aria-current") === "true");
    expect(mine).toHaveLength(1);
    expect(mine[0]!.className).toContain("gf-row--me");
    expect(mine[0]!.textContent).toContain("rider_5");
    expect(mine[0]!.textContent).toContain("You");
    expect(document.querySelector(".gf-pinned")).toBeNull();
  });

  it("pins the viewer's row below the page when it is elsewhere", () => {
    render(
      <PlayerRankings
        rows={playerRows(10)}
        me={{ rank: 57, id: "me", username: "me_myself", points: 12 }}
      />,
    );
    const pinned = document.querySelector(".gf-pinned")!;
    expect(pinned.textContent).toContain("57");
    expect(pinned.textContent).toContain("me_myself");
    expect(pinned.querySelector("tr.gf-row--pinned")!.getAttribute("aria-current")).toBe("true");
  });

  it("matches the viewer by id before username", () => {
    render(
      <PlayerRankings
        rows={[{ rank: 1, id: 7, username: "same" }]}
        me={{ rank: 9, id: 8, username: "same" }}
      />,
    );
    expect(document.querySelector(".gf-pinned")).not.toBeNull();
  });

  it("shows movement arrows from previousRank with screen-reader text", () => {
    render(
      <PlayerRankings
        rows={[
          { rank: 1, username: "up", points: 9, previousRank: 3 },
          { rank: 2, username: "down", points: 8, previousRank: 1 },
          { rank: 3, username: "same", points: 7, previousRank: 3 },
          { rank: 4, username: "new", points: 6 },
        ]}
      />,
    );
    const ranks = bodyRows().map((r) => r.querySelector("td")!.textContent);
    expect(ranks).toEqual(["1▲2, up 2 places", "2▼1, down 1 place", "3–, no change", "4"]);
  });

  it("links usernames through playerHref and renderLink, leaving Anonymous as text", () => {
    render(
      <PlayerRankings
        rows={[
          { rank: 1, username: "alice", points: 300 },
          { rank: 2, username: null, points: 10 },
        ]}
        me={{ rank: 9, username: "zoe", points: 1 }}
        playerHref={(p) => `/players/${p.username}`}
        renderLink={({ href, children, ...rest }) => (
          <a href={href} data-router="yes" {...rest}>
            {children}
          </a>
        )}
      />,
    );
    const links = screen.getAllByRole("link");
    expect(links.map((a) => [a.textContent, a.getAttribute("href"), a.dataset.router])).toEqual([
      ["alice", "/players/alice", "yes"],
      ["zoe", "/players/zoe", "yes"],
    ]);
    expect(bodyRows()[1]!.textContent).toContain("Anonymous");
  });

  it("hides movement when asked", () => {
    render(<PlayerRankings rows={playerRows(3)} showMovement={false} />);
    expect(document.querySelector(".gf-move")).toBeNull();
  });

  it("pages with buttons (controlled)", () => {
    const onPageChange = vi.fn();
    render(
      <PlayerRankings
        rows={playerRows(10, 11)}
        page={2}
        pageCount={5}
        onPageChange={onPageChange}
      />,
    );
    const nav = screen.getByRole("navigation", { name: "Player rankings pages" });
    expect(within(nav).getByText("Page 2 of 5")).toBeTruthy();
    expect(nav.querySelector("[aria-current=page]")!.textContent).toBe("Page 2");
    fireEvent.click(within(nav).getByRole("button", { name: "Next page" }));
    fireEvent.click(within(nav).getByRole("button", { name: "Previous page" }));
    fireEvent.click(within(nav).getByRole("button", { name: "Page 5" }));
    expect(onPageChange.mock.calls.map((c) => c[0])).toEqual([3, 1, 5]);
  });

  it("pages with links (no JavaScript needed)", () => {
    render(
      <PlayerRankings
        rows={playerRows(10)}
        page={1}
        pageCount={3}
        pageHref={(p) => `?page=${p}`}
      />,
    );
    const nav = screen.getByRole("navigation");
    expect(within(nav).getByRole("link", { name: "Next page" }).getAttribute("href")).toBe(
      "?page=2",
    );
    expect(within(nav).getByRole("link", { name: "Page 3" }).getAttribute("href")).toBe("?page=3");
    expect(within(nav).queryByRole("link", { name: "Previous page" })).toBeNull();
    expect(within(nav).getByText("Previous").getAttribute("aria-disabled")).toBe("true");
  });

  it("has no pager for a single page", () => {
    render(<PlayerRankings rows={playerRows(3)} page={1} pageCount={1} onPageChange={() => {}} />);
    expect(screen.queryByRole("navigation")).toBeNull();
  });

  it("shows empty, loading and error states", () => {
    const { rerender } = render(<PlayerRankings rows={[]} />);
    expect(screen.getByText("No players ranked yet.")).toBeTruthy();
    rerender(<PlayerRankings rows={[]} loading />);
    expect(screen.getByRole("status").textContent).toContain("Loading...");
    rerender(<PlayerRankings rows={[]} error={new Error("Rankings are down")} />);
    expect(screen.getByRole("alert").textContent).toContain("Rankings are down");
  });
});

describe("pageWindow", () => {
  it("shows every page up to 7, then first, last and neighbours with gaps", () => {
    expect(pageWindow(1, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(1, 20)).toEqual([1, 2, null, 20]);
    expect(pageWindow(10, 20)).toEqual([1, null, 9, 10, 11, null, 20]);
    expect(pageWindow(4, 20)).toEqual([1, 2, 3, 4, 5, null, 20]);
    expect(pageWindow(20, 20)).toEqual([1, null, 19, 20]);
  });
});
