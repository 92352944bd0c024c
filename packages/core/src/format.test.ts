import { describe, expect, it } from "vitest";
import { formatPrice, racerName } from "./format.js";

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
