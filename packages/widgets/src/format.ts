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

let dateFormat: Intl.DateTimeFormat | undefined;

/**
 * `2025-05-04T09:00:00Z` -> `May 4, 2025`. Formatted in UTC so the server and the browser
 * print the same text (no hydration mismatch); pass your own `formatDate` to change it.
 */
export function formatEventDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  dateFormat ??= new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" });
  return dateFormat.format(date);
}
