// Framing policy for every response: nobody may frame the site (clickjacking), except the pages
// meant for partner iframes, which set their own `frame-ancestors` (their partner's origins).

const CSP = "Content-Security-Policy";

/** The CSP values a response carries, as a list. */
function cspValues(res) {
  const value = res.getHeader(CSP);
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [String(value)]).filter(Boolean);
}

/**
 * Adds `frame-ancestors 'none'` (and the legacy `X-Frame-Options: DENY`) to a response about to
 * be sent, unless a route already decided who may frame it. Another CSP without frame-ancestors
 * is kept: browsers enforce every CSP header, so the framing rule is added as one more.
 * @param {import("node:http").ServerResponse} res
 */
export function applyFramingPolicy(res) {
  const values = cspValues(res);
  if (values.some((v) => /(^|;)\s*frame-ancestors\s/i.test(v))) return;
  const all = [...values, "frame-ancestors 'none'"];
  res.setHeader(CSP, all.length === 1 ? all[0] : all);
  if (!res.hasHeader("X-Frame-Options")) res.setHeader("X-Frame-Options", "DENY");
}

/**
 * Express middleware applying the framing policy to every response (pages, data, API, static
 * files), at the moment the headers are written, so routes have had their say.
 * @returns {import("express").RequestHandler}
 */
export function securityHeaders() {
  return (_req, res, next) => {
    const writeHead = res.writeHead;
    res.writeHead = function writeHeadWithPolicy(...args) {
      // Headers given to writeHead itself would bypass getHeader: fold them in first.
      const last = args[args.length - 1];
      if (last && typeof last === "object" && !Array.isArray(last)) {
        for (const [k, v] of Object.entries(last)) res.setHeader(k, v);
        args.pop();
      }
      applyFramingPolicy(res);
      return writeHead.apply(this, args);
    };
    next();
  };
}
