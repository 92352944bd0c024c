/**
 * Messages the team-builder iframe posts to the partner page. The embed script checks them with
 * these small guards: zod would add about 6 KB gzip to a script that has a 20 KB budget. The
 * iframe side builds its messages from the zod schemas in `app/features/embed/messages.ts`;
 * `messages.test.ts` checks that guards and schemas accept exactly the same values.
 */

/** Tallest height the iframe may ask for (px): a hostile frame cannot grow the page forever. */
export const MAX_FRAME_HEIGHT = 20_000;

export type FrameMessage =
  | { type: "gf:resize"; height: number }
  | { type: "gf:saved"; eventId: number };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function exactKeys(value: Record<string, unknown>, keys: readonly string[]): boolean {
  const own = Object.keys(value);
  return own.length === keys.length && keys.every((k) => own.includes(k));
}

/** The message, or null when `data` is not exactly one of the frame's messages. */
export function parseFrameMessage(data: unknown): FrameMessage | null {
  if (!isRecord(data)) return null;
  if (data.type === "gf:resize" && exactKeys(data, ["type", "height"])) {
    const h = data.height;
    return typeof h === "number" && Number.isFinite(h) && h >= 0 && h <= MAX_FRAME_HEIGHT
      ? { type: "gf:resize", height: h }
      : null;
  }
  if (data.type === "gf:saved" && exactKeys(data, ["type", "eventId"])) {
    const id = data.eventId;
    return typeof id === "number" && Number.isSafeInteger(id) && id > 0
      ? { type: "gf:saved", eventId: id }
      : null;
  }
  return null;
}
