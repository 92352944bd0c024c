import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { frameMessage } from "../app/features/embed/messages";
import { MAX_FRAME_HEIGHT, parseFrameMessage } from "./messages";

describe("parseFrameMessage", () => {
  it("accepts the frame's messages", () => {
    expect(parseFrameMessage({ type: "gf:resize", height: 812.5 })).toEqual({
      type: "gf:resize",
      height: 812.5,
    });
    expect(parseFrameMessage({ type: "gf:saved", eventId: 5 })).toEqual({
      type: "gf:saved",
      eventId: 5,
    });
  });

  it("refuses anything else", () => {
    for (const bad of [
      null,
      "gf:resize",
      [],
      { type: "gf:resize" },
      { type: "gf:resize", height: -1 },
      { type: "gf:resize", height: MAX_FRAME_HEIGHT + 1 },
      { type: "gf:resize", height: Number.NaN },
      { type: "gf:resize", height: "100" },
      { type: "gf:resize", height: 100, extra: 1 },
      { type: "gf:saved", eventId: 0 },
      { type: "gf:saved", eventId: 1.5 },
      { type: "gf:auth", token: "x".repeat(40) },
    ]) {
      expect(parseFrameMessage(bad), JSON.stringify(bad)).toBeNull();
    }
  });

  it("agrees with the zod schema the iframe uses, on any input", () => {
    const candidate = fc.oneof(
      fc.anything(),
      fc.record({
        type: fc.constantFrom("gf:resize", "gf:saved", "gf:auth", "other"),
        height: fc.oneof(fc.double(), fc.integer(), fc.string()),
      }),
      fc.record(
        {
          type: fc.constantFrom("gf:resize", "gf:saved"),
          eventId: fc.oneof(fc.integer(), fc.double(), fc.constant(Number.MAX_SAFE_INTEGER + 1)),
          height: fc.double({ min: -10, max: MAX_FRAME_HEIGHT + 10 }),
          more: fc.string(),
        },
        { requiredKeys: ["type"] },
      ),
    );
    fc.assert(
      fc.property(candidate, (data) => {
        const guard = parseFrameMessage(data);
        const schema = frameMessage.safeParse(data);
        expect(guard !== null).toBe(schema.success);
        if (guard && schema.success) expect(guard).toEqual(schema.data);
      }),
      { numRuns: 2000 },
    );
  });
});
