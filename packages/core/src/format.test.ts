import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatPrice, ordinal, racerName } from "./format.js";

describe("formatPrice", () => {
  it("formats a dollar amount with thousands separators", () => {
    expect(formatPrice(75000)).toBe("$75,000");
    expect(formatPrice(1_000_000)).toBe("$1,000,000");
    expect(formatPrice(0)).toBe("$0");
    expect(formatPrice(999)).toBe("$999");
  });

  it("shows no cents", () => {
    expect(formatPrice(75000.4)).toBe("$75,000");
  });
});

describe("racerName", () => {
  it("joins first and last name", () => {
    expect(racerName({ firstName: "Rachel", lastName: "Atherton" })).toBe("Rachel Atherton");
    expect(racerName({ firstName: "", lastName: "Atherton" })).toBe("Atherton");
  });
});

describe("ordinal", () => {
  it("says 1st, 2nd, 3rd, and th for the teens and the rest", () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111, 1002].map(ordinal)).toEqual([
      "1st",
      "2nd",
      "3rd",
      "4th",
      "11th",
      "12th",
      "13th",
      "21st",
      "22nd",
      "23rd",
      "101st",
      "111th",
      "1,002nd",
    ]);
  });

  it("property: the number, grouped, then a two-letter suffix", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), (n) => {
        const text = ordinal(n);
        expect(text.slice(0, -2).replaceAll(",", "")).toBe(String(n));
        expect(["st", "nd", "rd", "th"]).toContain(text.slice(-2));
      }),
    );
  });
});
