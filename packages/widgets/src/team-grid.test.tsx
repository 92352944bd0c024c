import { fireEvent, render, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { racers } from "./fixtures.js";
import { newTabLink, TeamGrid } from "./team-grid.js";

const team = [racers[0]!, racers[4]!, racers[6]!];

describe("TeamGrid", () => {
  it("renders six slots in order, the empty ones labelled", () => {
    render(<TeamGrid racers={team} />);
    const list = screen.getByRole("list", { name: "Your team" });
    const slots = within(list).getAllByRole("listitem");
    expect(slots).toHaveLength(6);
    expect(slots[0]!.textContent).toContain("Loic Bruni");
    expect(slots[0]!.textContent).toContain("$180,000");
    expect(slots[1]!.textContent).toContain("Vali Höll");
    expect(slots[3]!.textContent).toContain("Empty slot");
    expect(slots[5]!.textContent).toContain("(6 of 6)");
  });

  it("keeps slot positions when a slot in the middle is empty", () => {
    render(<TeamGrid racers={[racers[0], null, racers[4]]} />);
    const slots = screen.getAllByRole("listitem");
    expect(slots[1]!.textContent).toContain("Empty slot");
    expect(slots[2]!.textContent).toContain("Vali Höll");
  });

  it("shows the empty message with six empty slots", () => {
    render(<TeamGrid racers={[]} emptyMessage="Pick six riders to start." />);
    expect(screen.getByText("Pick six riders to start.")).toBeTruthy();
    expect(screen.getAllByText("Empty slot")).toHaveLength(6);
  });

  it("calls onRemove with the racer", () => {
    const onRemove = vi.fn();
    render(<TeamGrid racers={team} onRemove={onRemove} />);
    fireEvent.click(screen.getByRole("button", { name: "Remove Vali Höll" }));
    expect(onRemove).toHaveBeenCalledTimes(1);
    expect(onRemove.mock.calls[0]![0]).toBe(team[1]);
  });

  it("renders submit buttons for a plain form post", () => {
    render(
      <form>
        <TeamGrid racers={team} removeFormName="remove" />
      </form>,
    );
    const button = screen.getByRole("button", { name: "Remove Loic Bruni" }) as HTMLButtonElement;
    expect(button.type).toBe("submit");
    expect(button.name).toBe("remove");
    expect(button.value).toBe("1");
  });

  it("has no remove buttons when read-only or without an action", () => {
    const { rerender } = render(<TeamGrid racers={team} onRemove={() => {}} readOnly />);
    expect(screen.queryByRole("button")).toBeNull();
    rerender(<TeamGrid racers={team} />);
    expect(screen.queryByRole("button")).toBeNull();
  });

  it("makes names buttons for a details modal", () => {
    const onRacerClick = vi.fn();
    render(<TeamGrid racers={team} onRacerClick={onRacerClick} />);
    fireEvent.click(screen.getByRole("button", { name: "Asa Vermette" }));
    expect(onRacerClick).toHaveBeenCalledWith(team[2]);
  });

  it("makes names links with racerHref, through renderLink when given", () => {
    const onRacerClick = vi.fn();
    const { rerender } = render(
      <TeamGrid racers={team} racerHref={(r) => `/racers/${r.id}`} onRacerClick={onRacerClick} />,
    );
    const link = screen.getByRole("link", { name: "Loic Bruni" });
    expect(link.getAttribute("href")).toBe("/racers/1");
    expect(link.className).toBe("gf-slot-name gf-link");
    expect(screen.queryByRole("button")).toBeNull();

    rerender(
      <TeamGrid
        racers={team}
        racerHref={(r) => `/racers/${r.id}`}
        renderLink={({ href, ...rest }) => <a data-router={href} href={`#${href}`} {...rest} />}
      />,
    );
    expect(screen.getByRole("link", { name: "Vali Höll" }).getAttribute("data-router")).toBe(
      `/racers/${team[1]!.id}`,
    );
    expect(onRacerClick).not.toHaveBeenCalled();
  });

  it("links names to the game's racer pages in a new tab with newTabLink", () => {
    render(
      <TeamGrid
        racers={team}
        readOnly
        racerHref={(r) => `https://game.example/racers/${r.id}`}
        renderLink={newTabLink}
      />,
    );
    const links = screen.getAllByRole("link");
    expect(links.map((a) => a.getAttribute("href"))).toEqual(
      team.map((r) => `https://game.example/racers/${r.id}`),
    );
    const link = screen.getByRole("link", { name: "Vali Höll (opens in a new tab)" });
    expect(link.getAttribute("target")).toBe("_blank");
    expect(link.getAttribute("rel")).toBe("noopener");
    expect(link.className).toBe("gf-slot-name gf-link");
  });

  it("replaces the meta line with renderMeta and adds renderAside before Remove", () => {
    render(
      <TeamGrid
        racers={team}
        onRemove={() => {}}
        renderMeta={(r) => `${r.category}, 1st`}
        renderAside={(r) => <strong data-testid="aside">{r.rank2024} pts</strong>}
      />,
    );
    const slot = screen.getAllByRole("listitem")[0]!;
    expect(slot.querySelector(".gf-slot-meta")!.textContent).toBe("Pro Men, 1st");
    expect(slot.textContent).not.toContain("$180,000");
    const aside = within(slot).getByTestId("aside");
    expect(aside.textContent).toBe(`${team[0]!.rank2024} pts`);
    // In reading order: name and meta, the aside, then the Remove button.
    expect(aside.previousElementSibling!.className).toBe("gf-slot-body");
    expect(aside.nextElementSibling!.textContent).toContain("Remove");
    expect(screen.getAllByTestId("aside")).toHaveLength(3);
  });

  it("keeps the default meta line and no aside without the render props", () => {
    const { container } = render(<TeamGrid racers={team} />);
    const slot = container.querySelector(".gf-slot")!;
    expect(slot.querySelector(".gf-slot-meta")!.textContent).toBe("Pro Men · $180,000");
    expect(slot.lastElementChild!.className).toBe("gf-slot-body");
  });

  it("uses the portrait path with imageBase, and the generated avatar without a picture", () => {
    const { container } = render(<TeamGrid racers={team} imageBase="https://cdn.example/" />);
    const imgs = container.querySelectorAll("img");
    expect(imgs[0]!.getAttribute("src")).toBe(
      "https://cdn.example/img/racer_portrait/loic_bruni.jpg",
    );
    expect(imgs[0]!.getAttribute("alt")).toBe("");
    // Asa Vermette has no picture: his avatar, inline, with his initials.
    const avatars = container.querySelectorAll("svg[data-avatar]");
    expect(avatars).toHaveLength(1);
    expect(avatars[0]!.textContent).toBe("AV");
    expect(container.querySelectorAll("svg[data-placeholder]")).toHaveLength(0);
  });

  it("uses placeholderSrc when given", () => {
    const { container } = render(
      <TeamGrid racers={[racers[2]!]} placeholderSrc="/img/racer_portrait/placeholder.svg" />,
    );
    expect(container.querySelector("img")!.getAttribute("src")).toBe(
      "/img/racer_portrait/placeholder.svg",
    );
  });

  it("shows cost and bank from a budget", () => {
    render(<TeamGrid racers={team} budget={1_000_000} />);
    expect(screen.getByText("$430,000")).toBeTruthy();
    expect(screen.getByText("$570,000")).toBeTruthy();
  });

  it("shows loading and error states", () => {
    const onRetry = vi.fn();
    const { rerender, container } = render(<TeamGrid racers={team} loading />);
    expect(screen.getByRole("status").textContent).toContain("Loading...");
    expect(container.querySelector("ol")!.getAttribute("aria-busy")).toBe("true");
    expect(screen.queryByText("Loic Bruni")).toBeNull();

    rerender(<TeamGrid racers={team} error={new Error("Team unavailable")} onRetry={onRetry} />);
    expect(screen.getByRole("alert").textContent).toContain("Team unavailable");
    fireEvent.click(screen.getByRole("button", { name: "Try again" }));
    expect(onRetry).toHaveBeenCalled();
  });

  it("scopes itself under gf-root with an optional theme", () => {
    const { container } = render(<TeamGrid racers={[]} theme="dark" className="mine" />);
    const root = container.firstElementChild!;
    expect(root.className).toBe("gf-root gf-team mine");
    expect(root.getAttribute("data-theme")).toBe("dark");
  });
});
