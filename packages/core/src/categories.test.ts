import { describe, expect, it } from "vitest";
import {
  CATEGORIES,
  type Category,
  categoryFromSlug,
  categoryToSlug,
  isCategory,
  isFemale,
  isJunior,
  normalizeCategory,
} from "./categories.js";

describe("categories", () => {
  it("lists the four categories in tab order", () => {
    expect(CATEGORIES).toEqual(["Pro Men", "Pro Women", "17-18 Men", "17-18 Women"]);
  });

  it("knows which are female and which are junior", () => {
    const table: Record<Category, [boolean, boolean]> = {
      "Pro Men": [false, false],
      "Pro Women": [true, false],
      "17-18 Men": [false, true],
      "17-18 Women": [true, true],
    };
    for (const c of CATEGORIES) expect([isFemale(c), isJunior(c)]).toEqual(table[c]);
  });

  it("recognises only exact category names", () => {
    for (const c of CATEGORIES) expect(isCategory(c)).toBe(true);
    for (const v of ["pro men", "Masters", "", null, 3]) expect(isCategory(v)).toBe(false);
  });

  it("maps categories to slugs and back", () => {
    expect(CATEGORIES.map(categoryToSlug)).toEqual([
      "pro-men",
      "pro-women",
      "junior-men",
      "junior-women",
    ]);
    for (const c of CATEGORIES) expect(categoryFromSlug(categoryToSlug(c))).toBe(c);
    expect(categoryFromSlug("masters")).toBeUndefined();
  });

  it("reads loosely written categories", () => {
    const cases: [string, Category][] = [
      ["Pro Men", "Pro Men"],
      ["pro women", "Pro Women"],
      ["  PRO   WOMEN ", "Pro Women"],
      ["17-18 women", "17-18 Women"],
      ["Junior Men", "17-18 Men"],
      ["junior_women", "17-18 Women"],
      ["pro-women", "Pro Women"],
      ["junior-men", "17-18 Men"],
      ["Elite Men", "Pro Men"],
      ["women junior", "17-18 Women"],
    ];
    for (const [input, expected] of cases) expect(normalizeCategory(input)).toBe(expected);
    for (const input of ["", "   ", "Masters", "men", "pro"]) {
      expect(normalizeCategory(input)).toBeUndefined();
    }
  });
});
