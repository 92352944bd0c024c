import { render, screen, within } from "@testing-library/react";
import { expect, it } from "vitest";
import { racers } from "./fixtures.js";
import { priceChangeText, RacerTable } from "./racer-table.js";

it("words the change since the last round", () => {
  expect(priceChangeText({ price: 92_000, previousPrice: 80_000 })).toBe("+$12,000");
  expect(priceChangeText({ price: 75_000, previousPrice: 80_000 })).toBe("-$5,000");
  expect(priceChangeText({ price: 80_000, previousPrice: 80_000 })).toBe("No change");
  expect(priceChangeText({ price: 80_000 })).toBe("New");
  expect(priceChangeText({ price: 80_000, previousPrice: null })).toBe("New");
});

it("shows a 'Since last round' column only when asked", () => {
  const men = racers
    .filter((r) => r.category === "Pro Men")
    .map((r, i) => ({ ...r, previousPrice: i === 0 ? null : r.price - 10_000 }));
  const { unmount } = render(<RacerTable racers={men} />);
  expect(screen.queryByRole("columnheader", { name: "Since last round" })).toBeNull();
  unmount();

  render(<RacerTable racers={men} showPriceChange />);
  expect(screen.getByRole("columnheader", { name: "Since last round" })).toBeTruthy();
  const cells = within(screen.getByRole("table"))
    .getAllByRole("row")
    .slice(1)
    .map((row) => row.querySelector(".gf-col-change")?.textContent);
  expect(cells.sort()).toEqual(["+$10,000", "+$10,000", "+$10,000", "New"].sort());
});
