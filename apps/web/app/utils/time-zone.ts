/**
 * The reader's time zone, for writing dates (docs/decisions/0144-dates-and-time-zones.md). The
 * browser remembers its zone in a cookie; the server then writes pages in it (UTC, named, until
 * it is known), and after hydration every date follows the browser's own zone.
 */
import { isTimeZone, localTimeZone } from "@game/core/dates";
import { useEffect, useState } from "react";

export const TIME_ZONE_COOKIE = "gf_tz";

/** The zone in a Cookie header (`gf_tz=Europe%2FParis`), when it names a known zone. */
export function timeZoneFromCookies(header: string | null | undefined): string | null {
  if (!header) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq === -1 || part.slice(0, eq).trim() !== TIME_ZONE_COOKIE) continue;
    try {
      const zone = decodeURIComponent(part.slice(eq + 1).trim());
      return isTimeZone(zone) ? zone : null;
    } catch {
      return null;
    }
  }
  return null;
}

// After the first hydration, a page mounted by a client navigation starts in the browser's zone.
let hydrated = false;

/**
 * The zone to write dates in: `serverZone` (what the server wrote) during hydration, so the two
 * renders agree, then the browser's own.
 */
export function useTimeZone(serverZone: string): string {
  const [zone, setZone] = useState(() => (hydrated ? localTimeZone() : serverZone));
  useEffect(() => {
    hydrated = true;
    setZone(localTimeZone());
  }, []);
  return zone;
}

/** Keeps the cookie naming the browser's zone (for a year), so the next page is written in it. */
export function useRememberTimeZone(): void {
  useEffect(() => {
    const zone = localTimeZone();
    if (timeZoneFromCookies(document.cookie) === zone) return;
    const secure = window.location.protocol === "https:" ? "; Secure" : "";
    // biome-ignore lint/suspicious/noDocumentCookie: Cookie Store API is not in every browser yet
    document.cookie = `${TIME_ZONE_COOKIE}=${encodeURIComponent(zone)}; Path=/; Max-Age=31536000; SameSite=Lax${secure}`;
  }, []);
}
