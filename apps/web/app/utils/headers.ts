import type { HeadersFunction } from "@remix-run/node";

/** The headers an action or loader sets that must reach the client (Remix drops the rest). */
const KEPT = ["Retry-After"] as const;

/**
 * A route's `headers` export for pages that rate-limit: without a `headers` export Remix sends
 * only the cookies of `data(…, { headers })`, so a 429 would lose its exact `Retry-After`.
 */
export const keepRetryAfter: HeadersFunction = ({
  parentHeaders,
  loaderHeaders,
  actionHeaders,
  errorHeaders,
}) => {
  const headers = new Headers(parentHeaders);
  for (const source of [loaderHeaders, actionHeaders, errorHeaders]) {
    for (const name of KEPT) {
      const value = source?.get(name);
      if (value) headers.set(name, value);
    }
  }
  return headers;
};
