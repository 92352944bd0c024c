/**
 * Web origins (`https://news.example`, `http://localhost:8080`): the one home of how the game reads
 * them, for the partner list (db, web, CLI), CORS and the iframe's handshake, and the web
 * server's same-origin guard.
 */

/**
 * The origin of any http(s) URL (`https://A.example:443/path?q` -> `https://a.example`), or null.
 * Lenient: a path, query or credentials are dropped. For what a browser sends (`Origin`,
 * `Referer`) and for comparing stored origins.
 */
export function normalizeOrigin(value: string): string | null {
  try {
    const url = new URL(value.trim());
    if (url.protocol !== "https:" && url.protocol !== "http:") return null;
    return url.origin;
  } catch {
    return null;
  }
}

/**
 * An origin exactly as browsers send it, from what an admin typed; null when it is not one (a
 * path, a query, credentials, another scheme). Strict, unlike `normalizeOrigin`: a typed path
 * is a mistake worth naming, not something to drop silently.
 */
export function parseOrigin(value: string): string | null {
  const text = value.trim();
  if (!text || text.length > 300) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  if (url.username || url.password || url.search || url.hash) return null;
  if (url.pathname !== "/" && url.pathname !== "") return null;
  return url.origin;
}
