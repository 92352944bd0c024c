/**
 * Every message crossing windows in the partner embed, as zod schemas. Receivers check the
 * sender's origin AND parse with these; anything else is ignored.
 *
 *  - popup -> iframe (both on the game's origin): `gf:auth` with the single-use handoff token;
 *  - iframe -> partner page (the exact partner origin): `gf:resize`, `gf:saved`. The embed script
 *    on the partner page checks those with the guards in `embed/messages.ts` (same rules, no zod:
 *    it has a size budget); a test keeps the two in step.
 */
import { z } from "zod";
import { MAX_FRAME_HEIGHT } from "../../../embed/messages";

export const authMessage = z.strictObject({
  type: z.literal("gf:auth"),
  token: z.string().regex(/^[A-Za-z0-9_-]{20,200}$/),
});
export type AuthMessage = z.infer<typeof authMessage>;

export const resizeMessage = z.strictObject({
  type: z.literal("gf:resize"),
  height: z.number().min(0).max(MAX_FRAME_HEIGHT),
});

export const savedMessage = z.strictObject({
  type: z.literal("gf:saved"),
  eventId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});

/** What the iframe may tell the partner page. */
export const frameMessage = z.discriminatedUnion("type", [resizeMessage, savedMessage]);
export type FrameMessage = z.infer<typeof frameMessage>;
