/**
 * The widgets declare their own copies of the rules package's types and constants (so the
 * published package never needs it). This test fails when the two drift apart.
 */
import * as core from "@game/core";
import { describe, expect, expectTypeOf, it } from "vitest";
import { formatPrice, racerName } from "./format.js";
import type { Category, EventStatus, Requirement } from "./types.js";
import { CATEGORIES, CATEGORY_SLUGS } from "./types.js";

describe("widgets types match @game/core", () => {
  it("has the same categories, order and slugs", () => {
    expect(CATEGORIES).toEqual(core.CATEGORIES);
    expect(CATEGORY_SLUGS).toEqual(core.CATEGORY_SLUGS);
  });

  it("accepts core's types", () => {
    expectTypeOf<core.Category>().toEqualTypeOf<Category>();
    expectTypeOf<core.EventStatus>().toEqualTypeOf<EventStatus>();
    expectTypeOf<core.Requirement>().toMatchTypeOf<Requirement>();
    // A checklist computed by the rules can be passed straight to RequirementChecklist.
    const list: Requirement[] = core.requirementChecklist([]);
    expect(list.map((r) => r.id)).toEqual(["size", "female", "junior", "budget"]);
  });

  it("formats prices and names like core", () => {
    for (const n of [0, 75000, 1000000, 1234567]) expect(formatPrice(n)).toBe(core.formatPrice(n));
    expect(racerName({ firstName: "Loic", lastName: "Bruni" })).toBe(
      core.racerName({ firstName: "Loic", lastName: "Bruni" }),
    );
  });
});
