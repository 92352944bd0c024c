/**
 * Every message crossing windows in the partner embed, checked with these small guards by every
 * side: the embed script on the partner page, the team-builder iframe and the sign-in popup.
 * Receivers check the sender's origin AND the message; anything else is ignored. zod would add
 * about 6 KB gzip to the embed script and 24 KB to the iframe's pages (docs/decisions/0179);
 * `messages.test.ts` holds the guards to zod schemas of the same messages, on any input.
 *
 *  - popup -> iframe (both on the game's origin): `gf:auth` with the single-use handoff token;
 *  - iframe -> partner page (the exact partner origin): `gf:resize`, `gf:saved`.
 */

/** Tallest height the iframe may ask for (px): a hostile frame cannot grow the page forever. */
export const MAX_FRAME_HEIGHT = 20_000;

/** What the iframe may tell the partner page. */
export type FrameMessage =
  | { type: "gf:resize"; height: number }
  | { type: "gf:saved"; eventId: number };

/** What the sign-in popup tells the iframe: the single-use handoff token. */
export interface AuthMessage {
  type: "gf:auth";
  token: string;
}

/** The handoff token's shape (base64url, as the server makes it). */
const TOKEN = /^[A-Za-z0-9_-]{20,200}$/;

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

/** The message, or null when `data` is not exactly the popup's message. */
export function parseAuthMessage(data: unknown): AuthMessage | null {
  if (!isRecord(data) || data.type !== "gf:auth" || !exactKeys(data, ["type", "token"])) {
    return null;
  }
  return typeof data.token === "string" && TOKEN.test(data.token)
    ? { type: "gf:auth", token: data.token }
    : null;
}
