import { describe, expect, it } from "vitest";
import { formatCountdown } from "./lock-notice";

describe("lock notice text", () => {
  it("counts down in days, hours, minutes and seconds, never below zero", () => {
    const s = 1000;
    expect(formatCountdown(((3 * 24 + 4) * 3600 + 12 * 60 + 9) * s)).toBe("3d 04h 12m 09s");
    expect(formatCountdown(59 * s + 999)).toBe("00h 00m 59s");
    expect(formatCountdown(24 * 3600 * s)).toBe("1d 00h 00m 00s");
    expect(formatCountdown(0)).toBe("00h 00m 00s");
    expect(formatCountdown(-5000)).toBe("00h 00m 00s");
  });
});
