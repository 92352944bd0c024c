// Addresses no page can answer: a NUL byte (PostgreSQL text cannot hold one) or a broken
// percent-escape. They are refused here, as the ordinary 404 or 400, before any route reads them.

import type { RequestHandler } from "express";

/** `raw`: the request target, e.g. `/players/%00?x=1`. */
export function checkUrl(raw: string): { status: 400 | 404 } | null {
  const q = raw.indexOf("?");
  const path = q < 0 ? raw : raw.slice(0, q);
  const query = q < 0 ? "" : raw.slice(q + 1);
  if (/%00/.test(path) || path.includes("\0")) return { status: 404 };
  try {
    decodeURIComponent(path);
  } catch {
    return { status: 404 };
  }
  if (/%00/.test(query) || query.includes("\0")) return { status: 400 };
  return null;
}

const API_MESSAGES: Record<400 | 404, { code: string; message: string }> = {
  400: { code: "bad_request", message: "The query cannot be read." },
  404: { code: "not_found", message: "There is no such API endpoint. See /api/v1/openapi.json." },
};

/**
 * Express middleware answering such addresses: JSON in the API's error shape under /api/, plain
 * text elsewhere.
 */
export function urlGuard(): RequestHandler {
  return (req, res, next) => {
    const bad = checkUrl(req.originalUrl);
    if (!bad) return next();
    res.status(bad.status).set("Cache-Control", "no-store");
    if (req.originalUrl.startsWith("/api/")) {
      res.json({ error: API_MESSAGES[bad.status] });
      return;
    }
    res.type("text/plain").send(bad.status === 404 ? "Not Found" : "Bad Request");
  };
}
