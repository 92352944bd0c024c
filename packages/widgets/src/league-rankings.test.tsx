import { fireEvent, render, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { leagueRows } from "./fixtures.js";
import { LeagueRankings } from "./league-rankings.js";

describe("LeagueRankings", () => {
  it("shows Rank, League Name, Total Points", () => {
    render(
      <LeagueRankings
        rows={[
          { rank: 1, id: 3, name: "Shredders", totalPoints: 812.5 },
          { rank: 2, id: 9, name: "Mud Club", totalPoints: null },
        ]}
      />,
    );
    expect(screen.getAllByRole("columnheader").map((c) => c.textContent)).toEqual([
      "Rank",
      "League Name",
      "Total Points",
    ]);
    const rows = screen.getAllByRole("row").slice(1);
    expect(rows.map((r) => r.textContent)).toEqual(["1Shredders812.5", "2Mud Club0"]);
  });

  it("highlights the viewer's leagues and links names", () => {
    render(
      <LeagueRankings
        rows={leagueRows(5)}
        highlightIds={["3"]}
        leagueHref={(l) => `/leagues/${l.id}`}
      />,
    );
    const mine = document.querySelectorAll("tr.gf-row--me");
    expect(mine).toHaveLength(1);
    expect(mine[0]!.textContent).toContain("League 3");
    expect(screen.getByRole("link", { name: "League 2" }).getAttribute("href")).toBe("/leagues/2");
  });

  it("pages like the player ranking, links calling onPageChange too", () => {
    const onPageChange = vi.fn((_page: number, event?: { preventDefault(): void }) =>
      event?.preventDefault(),
    );
    render(
      <LeagueRankings
        rows={leagueRows(10, 21)}
        page={3}
        pageCount={9}
        pageHref={(p) => `/leagues-ranking?page=${p}`}
        onPageChange={onPageChange}
      />,
    );
    const nav = screen.getByRole("navigation", { name: "League rankings pages" });
    const next = within(nav).getByRole("link", { name: "Next page" });
    expect(next.getAttribute("href")).toBe("/leagues-ranking?page=4");
    fireEvent.click(next);
    expect(onPageChange.mock.calls[0]![0]).toBe(4);
  });

  it("shows empty, loading and error states", () => {
    const onRetry = vi.fn();
    const { rerender } = render(
      <LeagueRankings rows={[]} emptyMessage="Create the first league!" />,
    );
    expect(screen.getByText("Create the first league!")).toBeTruthy();
    rerender(<LeagueRankings rows={[]} loading />);
    expect(screen.getByRole("status")).toBeTruthy();
    rerender(<LeagueRankings rows={[]} error="Nope" onRetry={onRetry} />);
    fireEvent.click(screen.getByRole("button", { name: "Try again" }));
    expect(onRetry).toHaveBeenCalled();
  });
});
