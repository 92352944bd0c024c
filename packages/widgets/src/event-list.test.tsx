import { fireEvent, render, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { EventCard, EventList } from "./event-list.js";
import { events } from "./fixtures.js";

const [open, closed, archived] = events as [
  (typeof events)[0],
  (typeof events)[0],
  (typeof events)[0],
];

describe("EventCard", () => {
  it("shows an open event with name, date, status and an Enter Event action", () => {
    const onEnter = vi.fn();
    render(<EventCard event={open} onEnter={onEnter} timeZone="Europe/Paris" />);
    const card = screen.getByRole("article", { name: open.name });
    expect(within(card).getByRole("heading", { level: 3 }).textContent).toBe(open.name);
    expect(card.querySelector("time")!.getAttribute("dateTime")).toBe("2025-05-04T09:00:00Z");
    expect(card.querySelector("time")!.textContent).toBe("Sunday 4 May 2025, 11:00 CEST");
    expect(card.textContent).toContain("Open");
    fireEvent.click(within(card).getByRole("button", { name: `Enter Event: ${open.name}` }));
    expect(onEnter.mock.calls[0]![0]).toBe(open);
  });

  it("writes the start in the browser's time zone, in English, when given no zone", () => {
    const real = Intl.DateTimeFormat.prototype.resolvedOptions;
    vi.spyOn(Intl.DateTimeFormat.prototype, "resolvedOptions").mockImplementation(function (
      this: Intl.DateTimeFormat,
    ) {
      return { ...real.call(this), locale: "fr-FR", timeZone: "America/Los_Angeles" };
    });
    render(<EventCard event={open} />);
    expect(screen.getByRole("article").querySelector("time")!.textContent).toBe(
      "Sunday 4 May 2025, 02:00 PDT",
    );
  });

  it("renders Enter Event as a link when given eventHref", () => {
    render(<EventCard event={open} eventHref={(e) => `/game/${e.id}`} />);
    expect(screen.getByRole("link", { name: /Enter Event/ }).getAttribute("href")).toBe("/game/5");
  });

  it("disables closed and archived events with a status label and no action", () => {
    render(
      <>
        <EventCard event={closed} onEnter={() => {}} eventHref={() => "/x"} />
        <EventCard event={archived} onEnter={() => {}} />
      </>,
    );
    const [c, a] = screen.getAllByRole("article");
    expect(c!.className).toContain("gf-event-card--disabled");
    expect(c!.textContent).toContain("Closed");
    expect(a!.textContent).toContain("Archived");
    expect(screen.queryByRole("button")).toBeNull();
    expect(screen.queryByRole("link")).toBeNull();
  });

  it("offers Sign In to Play to visitors", () => {
    const onSignIn = vi.fn();
    const { rerender } = render(<EventCard event={open} visitor onSignIn={onSignIn} />);
    fireEvent.click(screen.getByRole("button", { name: /Sign In to Play/ }));
    expect(onSignIn).toHaveBeenCalled();
    expect(screen.queryByText(/Enter Event/)).toBeNull();
    rerender(<EventCard event={open} visitor signInHref={(e) => `/login?next=/game/${e.id}`} />);
    expect(screen.getByRole("link", { name: /Sign In to Play/ }).getAttribute("href")).toBe(
      "/login?next=/game/5",
    );
  });

  it("prefixes root-relative images with imageBase", () => {
    const { container } = render(<EventCard event={open} imageBase="https://game.example" />);
    const [cover, logo] = container.querySelectorAll("img");
    expect(cover!.getAttribute("src")).toBe("https://game.example/img/events/5-cover.jpg");
    expect(logo!.getAttribute("src")).toBe("https://game.example/img/events/5-logo.png");
  });
});

describe("EventList", () => {
  it("lists the events in order", () => {
    render(<EventList events={events} eventHref={(e) => `/game/${e.id}`} />);
    const list = screen.getByRole("list", { name: "Events" });
    expect(within(list).getAllByRole("listitem")).toHaveLength(3);
    expect(within(list).getAllByRole("link")).toHaveLength(1);
    expect(
      within(list)
        .getAllByRole("heading")
        .map((h) => h.textContent),
    ).toEqual(events.map((e) => e.name));
  });

  it("shows empty, loading and error states", () => {
    const { rerender } = render(<EventList events={[]} />);
    expect(screen.getByText("No events yet.")).toBeTruthy();
    rerender(<EventList events={[]} loading loadingMessage="Loading game data..." />);
    expect(screen.getByRole("status").textContent).toBe("Loading game data...");
    rerender(<EventList events={[]} error="Game not found." />);
    expect(screen.getByRole("alert").textContent).toBe("Game not found.");
  });
});
