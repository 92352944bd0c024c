import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { MAX_FRAME_HEIGHT, parseAuthMessage, parseFrameMessage } from "./messages";

/**
 * The messages as zod schemas: the statement the guards are held to (docs/decisions/0179). The
 * guards, not these, run in the browser: zod is too big for the embed's pages.
 */
const authMessage = z.strictObject({
  type: z.literal("gf:auth"),
  token: z.string().regex(/^[A-Za-z0-9_-]{20,200}$/),
});
const frameMessage = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("gf:resize"), height: z.number().min(0).max(MAX_FRAME_HEIGHT) }),
  z.strictObject({
    type: z.literal("gf:saved"),
    eventId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  }),
]);

/** The guard accepts exactly what the schema accepts, and answers the same value. */
function agreeOnAnyInput(
  guard: (data: unknown) => unknown,
  schema: z.ZodType,
  candidate: fc.Arbitrary<unknown>,
) {
  fc.assert(
    fc.property(candidate, (data) => {
      const guarded = guard(data);
      const parsed = schema.safeParse(data);
      expect(guarded !== null).toBe(parsed.success);
      if (guarded !== null && parsed.success) expect(guarded).toEqual(parsed.data);
    }),
    { numRuns: 2000 },
  );
}

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
    agreeOnAnyInput(parseFrameMessage, frameMessage, candidate);
  });
});

describe("parseAuthMessage", () => {
  const token = "abcDEF012_-".repeat(3);

  it("accepts the popup's message, and nothing else", () => {
    expect(parseAuthMessage({ type: "gf:auth", token })).toEqual({ type: "gf:auth", token });
    for (const bad of [
      null,
      token,
      { type: "gf:auth" },
      { type: "gf:auth", token: "short" },
      { type: "gf:auth", token: `${token}!` },
      { type: "gf:auth", token: "x".repeat(201) },
      { type: "gf:auth", token, extra: 1 },
      { type: "gf:saved", eventId: 5 },
    ]) {
      expect(parseAuthMessage(bad), JSON.stringify(bad)).toBeNull();
    }
  });

  it("agrees with the zod schema, on any input", () => {
    const tokenLike = fc.oneof(
      fc.string(),
      fc.stringMatching(/^[A-Za-z0-9_-]{15,210}$/),
      fc.stringMatching(/^[A-Za-z0-9_-]{20,40}[^A-Za-z0-9_-]$/),
    );
    const candidate = fc.oneof(
      fc.anything(),
      fc.record(
        {
          type: fc.constantFrom("gf:auth", "gf:saved", "other"),
          token: fc.oneof(tokenLike, fc.integer()),
          more: fc.string(),
        },
        { requiredKeys: ["type"] },
      ),
    );
    agreeOnAnyInput(parseAuthMessage, authMessage, candidate);
  });
});
