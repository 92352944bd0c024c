// Bundled into the widgets' own files (the published package does not depend on @game/core).
import { formatDateTime, localTimeZone } from "@game/core/dates";
import type { Racer } from "./types.js";

let money: Intl.NumberFormat | undefined;
let count: Intl.NumberFormat | undefined;

/** `75000` -> `$75,000` (the spec's price format). */
export function formatPrice(amount: number): string {
  money ??= new Intl.NumberFormat("en-US", {
    style: "currency",
    currency: "USD",
    maximumFractionDigits: 0,
  });
  return money.format(amount);
}

/** `1234.5` -> `1,234.5` (points, at most two decimals). */
export function formatPoints(value: number | null | undefined): string {
  count ??= new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });
  return count.format(typeof value === "number" && Number.isFinite(value) ? value : 0);
}

/** The display name of a racer. */
export function racerName(r: Pick<Racer, "firstName" | "lastName">): string {
  return `${r.firstName ?? ""} ${r.lastName ?? ""}`.trim();
}

/** `${imageBase}/img/racer_portrait/${picture}`, or null when the racer has no picture. */
export function portraitUrl(
  picture: string | null | undefined,
  imageBase?: string | null,
): string | null {
  if (!picture) return null;
  return `${(imageBase ?? "").replace(/\/+$/, "")}/img/racer_portrait/${encodeURIComponent(picture)}`;
}

/** Prefixes a root-relative URL (`/img/x.jpg`) with `imageBase`; other URLs are kept. */
export function assetUrl(url: string | null | undefined, imageBase?: string | null): string | null {
  if (!url) return null;
  if (imageBase && url.startsWith("/") && !url.startsWith("//")) {
    return `${imageBase.replace(/\/+$/, "")}${url}`;
  }
  return url;
}

/**
 * `2025-05-04T09:00:00Z` -> `Sunday 4 May 2025, 11:00 CEST`: in English, on the clocks of
 * `timeZone` (an IANA zone such as "Europe/Paris"), naming the zone, as the game writes every
 * date. Without a zone, the device's own: a host that renders on its server passes the reader's
 * zone, or the server's text (its own zone) would not match the browser's at hydration.
 */
export function formatEventDate(iso: string, timeZone?: string): string {
  return formatDateTime(iso, timeZone ?? localTimeZone());
}
