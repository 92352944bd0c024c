import { describe, expect, it } from "vitest";
import {
  BUDGET,
  LOCK_HOURS,
  MIN_AGE,
  MIN_FEMALE,
  MIN_JUNIOR,
  RACER_DEFAULTS,
  SIGNUP_CREDITS,
  STARTING_BANK,
  TEAM_SIZE,
  UPLOAD_PREVIEW_ROWS,
} from "./constants.js";

describe("business constants (spec section 9)", () => {
  it("match the spec", () => {
    expect(BUDGET).toBe(1_000_000);
    expect(STARTING_BANK).toBe(1_000_000);
    expect(SIGNUP_CREDITS).toBe(100);
    expect(TEAM_SIZE).toBe(6);
    expect(MIN_FEMALE).toBe(2);
    expect(MIN_JUNIOR).toBe(1);
    expect(LOCK_HOURS).toBe(12);
    expect(MIN_AGE).toBe(13);
    expect(UPLOAD_PREVIEW_ROWS).toBe(5);
    expect(RACER_DEFAULTS).toEqual({
      price: 75_000,
      gameId: 5,
      rank2024: 0,
      totalPoint2024: 0,
      origin: "",
    });
  });
});
