import { render, screen, within } from "@testing-library/react";
import { expect, it } from "vitest";
import { racers } from "./fixtures.js";
import { pickedByText, RacerTable } from "./racer-table.js";

it("words the share of teams, and a dash before the first count", () => {
  expect(pickedByText({ pickedByPercent: 23.4 })).toBe("23.4%");
  expect(pickedByText({ pickedByPercent: 0 })).toBe("0%");
  expect(pickedByText({ pickedByPercent: null })).toBe("\u2013");
  expect(pickedByText({})).toBe("\u2013");
});

it("shows a 'Picked by' column only when asked", () => {
  const men = racers
    .filter((r) => r.category === "Pro Men")
    .map((r, i) => ({ ...r, pickedByPercent: i === 0 ? null : 10 * i + 0.5 }));
  const { unmount } = render(<RacerTable racers={men} />);
  expect(screen.queryByRole("columnheader", { name: "Picked by" })).toBeNull();
  unmount();

  render(<RacerTable racers={men} showPickedBy />);
  const header = screen.getByRole("columnheader", { name: "Picked by" });
  const column = [...header.parentElement!.children].indexOf(header);
  const cells = within(screen.getByRole("table"))
    .getAllByRole("row")
    .slice(1)
    .map((row) => row.children[column]?.textContent);
  expect(cells.sort()).toEqual(["10.5%", "20.5%", "30.5%", "\u2013"].sort());
});
