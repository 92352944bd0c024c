// Security headers for every response. Helmet sets the general ones (script CSP with a per-request
// nonce, HSTS behind https, nosniff, Referrer-Policy); the framing policy is ours: nobody may frame
// the site (clickjacking), except the pages meant for partner iframes, which set their own
// `frame-ancestors` (their partner's origins).

import { randomBytes } from "node:crypto";
import type { OutgoingHttpHeaders, ServerResponse } from "node:http";
import type { RequestHandler, Response } from "express";
import helmet from "helmet";

const CSP = "Content-Security-Policy";

/** The CSP values a response carries, as a list. */
function cspValues(res: ServerResponse): string[] {
  const value = res.getHeader(CSP);
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [String(value)]).filter(Boolean);
}

/**
 * Adds `frame-ancestors 'none'` (and the legacy `X-Frame-Options: DENY`) to a response about to
 * be sent, unless a route already decided who may frame it. Another CSP without frame-ancestors
 * is kept: browsers enforce every CSP header, so the framing rule is added as one more.
 */
export function applyFramingPolicy(res: ServerResponse): void {
  const values = cspValues(res);
  if (values.some((v) => /(^|;)\s*frame-ancestors\s/i.test(v))) return;
  const all = [...values, "frame-ancestors 'none'"];
  res.setHeader(CSP, all.length === 1 ? (all[0] as string) : all);
  if (!res.hasHeader("X-Frame-Options")) res.setHeader("X-Frame-Options", "DENY");
}

/**
 * A header set here and again by a route (the API sets its own nosniff) is sent once: Remix
 * appends the route's headers to ours, which would repeat an identical value.
 */
export function collapseRepeatedHeaders(res: ServerResponse): void {
  for (const name of res.getHeaderNames()) {
    if (name === "set-cookie") continue;
    const value = res.getHeader(name);
    if (Array.isArray(value) && value.length > 1 && new Set(value).size === 1) {
      res.setHeader(name, value[0] as string);
    }
  }
}

/**
 * A client told "too many requests" (decision 0011) or "unavailable" (a save the database cannot
 * take, decision 0150) is also told when to come back.
 */
const DEFAULT_RETRY_AFTER_SECONDS = "60";

/**
 * Every 429 and 503 carries `Retry-After`: the rate limits and queues set the exact wait;
 * anything that answers without one gets a minute.
 */
export function applyRetryAfter(res: ServerResponse, status: number): void {
  if ((status === 429 || status === 503) && !res.hasHeader("Retry-After")) {
    res.setHeader("Retry-After", DEFAULT_RETRY_AFTER_SECONDS);
  }
}

/**
 * Express middleware applying the framing policy to every response (pages, data, API, static
 * files), at the moment the headers are written, so routes have had their say.
 */
export function securityHeaders(): RequestHandler {
  return (_req, res, next) => {
    const writeHead = res.writeHead;
    // writeHead's overloads (status, message?, headers?) are passed on as they came.
    res.writeHead = function writeHeadWithPolicy(this: ServerResponse, ...args: unknown[]) {
      // Headers given to writeHead itself would bypass getHeader: fold them in first.
      const last = args[args.length - 1];
      if (last && typeof last === "object" && !Array.isArray(last)) {
        for (const [k, v] of Object.entries(last as OutgoingHttpHeaders)) {
          if (v !== undefined) res.setHeader(k, v);
        }
        args.pop();
      }
      collapseRepeatedHeaders(res);
      applyFramingPolicy(res);
      const status = typeof args[0] === "number" ? args[0] : res.statusCode;
      applyRetryAfter(res, status);
      return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
    } as typeof res.writeHead;
    next();
  };
}

/** The response's nonce, made on first use. */
function nonceOf(res: ServerResponse): string {
  // Helmet hands the Node response; behind Express it is Express's, with `locals`.
  const { locals } = res as Response;
  locals.cspNonce ??= randomBytes(16).toString("base64");
  return locals.cspNonce as string;
}

/**
 * Helmet, configured for this app; it leaves the request's nonce in `res.locals.cspNonce`. Scripts run only from our origin or with the request's nonce
 * (Remix's inline hydration scripts); React's `style` attributes need inline styles; portraits
 * and icons are our files or data: URLs. `frame-ancestors` is left to the framing policy above,
 * and the Cross-Origin-Resource-Policy allows partners to load the embed script and images.
 */
export function helmetHeaders({
  publicUrl,
  production = true,
}: {
  publicUrl?: string | undefined;
  production?: boolean;
} = {}): RequestHandler {
  const https = publicUrl?.startsWith("https://") ?? false;
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        objectSrc: ["'none'"],
        // A fresh nonce per request; the server hands it to the page render (load context).
        scriptSrc: ["'self'", (_req, res) => `'nonce-${nonceOf(res)}'`],
        scriptSrcAttr: ["'none'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:"],
        fontSrc: ["'self'", "data:"],
        // Vite's dev server talks to the page over a WebSocket.
        connectSrc: production ? ["'self'"] : ["'self'", "ws:"],
        formAction: ["'self'"],
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    // Only a site served over https may promise https for a year.
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: false } : false,
    xFrameOptions: false,
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    crossOriginResourcePolicy: { policy: "cross-origin" },
    // The partner iframe's sign-in popup (/embed/auth and the login page it visits) must keep
    // its opener to hand the token back: COOP same-origin would sever it (decision 0062).
    crossOriginOpenerPolicy: false,
  });
}
