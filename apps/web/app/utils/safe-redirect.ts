/**
 * Where a `redirectTo` (a form field or a query parameter) may send the browser: a path of this
 * site, or the fallback (docs/decisions/0153-proxies-origins-and-redirects.md).
 *
 * Judged on the final location, the way a browser reads it: the text is resolved as a URL, and
 * the normalised path is what comes back. Checking the text and normalising it afterwards let
 * `/.//evil.example` through as `//evil.example` (another site); browsers also drop tabs and
 * newlines and read `\` as `/`, which the URL parser does the same way.
 */

/** A made-up origin to resolve against: only ever compared, never linked to. */
const DUMMY_ORIGIN = "http://redirect-check.invalid";

export function safeRedirect(
  to: FormDataEntryValue | string | null | undefined,
  fallback = "/",
): string {
  // Only an absolute path: a relative one would resolve against whichever page the browser is on.
  if (typeof to !== "string" || !to.startsWith("/")) return fallback;
  let url: URL;
  try {
    url = new URL(to, DUMMY_ORIGIN);
  } catch {
    return fallback;
  }
  if (url.origin !== DUMMY_ORIGIN) return fallback;
  const location = `${url.pathname}${url.search}${url.hash}`;
  // "//host" is a scheme-relative address of another site, wherever it came from.
  if (!location.startsWith("/") || location.startsWith("//")) return fallback;
  return location;
}
