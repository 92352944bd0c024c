// Cross-site request forgery guard: a state-changing request must come from one of our own pages.

import { normalizeOrigin } from "@game/core";
import type { Request, RequestHandler } from "express";

const UNSAFE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** `https://example.com:8443` from any URL, or null when it is not an http(s) URL. */
export const originOf = normalizeOrigin;

/**
 * Decides one request. Safe methods always pass. Otherwise the `Origin` header must be one of
 * `allowed` ("null", sent by sandboxed frames and some redirects, never is); without Origin, the
 * `Referer` is checked the same way; without either (curl, server-to-server) it passes, since a
 * browser always sends one of them on a cross-site form post.
 */
export function checkOrigin({
  method,
  origin,
  referer,
  allowed,
}: {
  method: string;
  origin?: string | null | undefined;
  referer?: string | null | undefined;
  allowed: Iterable<string>;
}): { ok: true } | { ok: false; reason: string } {
  if (!UNSAFE_METHODS.has(method.toUpperCase())) return { ok: true };
  const own = new Set([...allowed].map(originOf).filter(Boolean));
  if (origin != null && origin !== "") {
    const from = originOf(origin);
    return from && own.has(from) ? { ok: true } : { ok: false, reason: `foreign origin ${origin}` };
  }
  if (referer != null && referer !== "") {
    const from = originOf(referer);
    return from && own.has(from) ? { ok: true } : { ok: false, reason: "foreign referer" };
  }
  return { ok: true };
}

/**
 * The one POST that comes from other sites by design: a mail provider's RFC 8058 one-click
 * unsubscribe to a reminder's List-Unsubscribe address. The token in its URL authorises it, not
 * its origin (docs/decisions/0143-reminder-links.md).
 */
export const isOneClickUnsubscribe = (req: Request): boolean =>
  req.path === "/reminders/unsubscribe";

/**
 * Express middleware refusing cross-site state changes with 403. Our own origin is the one the
 * request was addressed to (scheme from `req.protocol`, which honours `trust proxy`, and the Host
 * header), plus `PUBLIC_URL` when the site is served under a fixed public address (a proxy may
 * send its upstream's name as Host). This is the only origin check a request meets.
 */
export function sameOriginOnly(
  options: { publicUrl?: string | undefined; isExempt?: (req: Request) => boolean } = {},
): RequestHandler {
  return (req, res, next) => {
    if (!options.isExempt?.(req)) {
      const allowed = [`${req.protocol}://${req.get("host")}`];
      if (options.publicUrl) allowed.push(options.publicUrl);
      const verdict = checkOrigin({
        method: req.method,
        origin: req.get("origin"),
        referer: req.get("referer"),
        allowed,
      });
      if (!verdict.ok) {
        res
          .status(403)
          .type("text/plain")
          .send("Forbidden: this request did not come from this site.");
        return;
      }
    }
    // Judged here, once. Remix judges the Origin of a page's action again, against Host (or
    // X-Forwarded-Host) alone, and answers 500 when they differ: behind nginx's default
    // `proxy_set_header Host $proxy_host` every form post from PUBLIC_URL failed, and so would
    // an exempt post from another site. Once accepted, nothing after this reads it.
    if (UNSAFE_METHODS.has(req.method.toUpperCase())) delete req.headers.origin;
    next();
  };
}
