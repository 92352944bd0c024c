/**
 * The embed script's hello (`GET /embed/v1/hello?n=2&pv=...`, docs/decisions/0091-embed-origin-check.md,
 * 0092-partner-stats.md, 0154): may the page's origin use the widgets, and count the widgets it
 * shows, once per page view.
 */
import {
  creditPageView,
  hit,
  isPartnerOrigin,
  MAX_WIDGETS_PER_PAGE_VIEW,
  partnerIdForOrigin,
} from "@game/db";
import type { AppLoadContext } from "@remix-run/node";
import { partnerStatsCounter, statLost } from "~/utils/partner-stats.server";
import { clientIp } from "~/utils/rate-limit.server";

/** Widgets one page view may count (the embed script reports its page's total so far). */
export const MAX_WIDGETS_PER_HELLO = MAX_WIDGETS_PER_PAGE_VIEW;

/**
 * Hellos per client address and minute. A reader opens a page or two a minute; past this the
 * hello answers 429 and counts nothing, and the widgets still show (the script then assumes yes).
 */
export const HELLO_RATE_LIMIT = { limit: 30, windowMs: 60_000 };

/** The page-view id the embed script draws once per page: 16 to 64 URL-safe characters. */
const PAGE_VIEW = /^[A-Za-z0-9_-]{16,64}$/;

/** The hello's answer: `{ allowed }` (and the refused origin), never cached. */
export async function helloResponse(request: Request, context: AppLoadContext): Promise<Response> {
  const headers: Record<string, string> = {
    "Access-Control-Allow-Origin": "*",
    "Cache-Control": "no-store",
    "Content-Type": "application/json; charset=utf-8",
    "X-Content-Type-Options": "nosniff",
  };
  // Before any lookup: a client replaying the hello costs one counter, never a partner query.
  const limit = await hit(context.db, `embed-hello:ip:${clientIp(context)}`, {
    ...HELLO_RATE_LIMIT,
    now: context.now(),
  });
  if (!limit.allowed) {
    const wait = String(limit.retryAfterSeconds);
    return new Response(
      JSON.stringify({ error: `Too many requests. Try again in ${wait} seconds.` }),
      { status: 429, headers: { ...headers, "Retry-After": wait } },
    );
  }
  const origin = request.headers.get("Origin");
  const sameSite = !origin || origin === new URL(request.url).origin;
  // The partner credited for the loads; the API's own CORS check decides for anything else.
  const partnerId =
    sameSite || origin === "null" ? undefined : await partnerIdForOrigin(context.db, origin);
  const allowed =
    sameSite ||
    partnerId !== undefined ||
    (origin !== "null" && (await isPartnerOrigin(context.db, origin)));
  const query = new URL(request.url).searchParams;
  const pageView = query.get("pv") ?? "";
  // Counted only with the page view's id: its widgets once, however often the hello comes.
  if (partnerId !== undefined && PAGE_VIEW.test(pageView)) {
    const asked = Number(query.get("n") ?? "1");
    const widgets = Number.isSafeInteger(asked) && asked > 0 ? asked : 1;
    try {
      const n = await creditPageView(context.db, partnerId, pageView, widgets, context.now());
      if (n > 0) partnerStatsCounter(context).count(partnerId, "widgetLoads", n);
    } catch (error) {
      statLost(error);
    }
  }
  return new Response(JSON.stringify(allowed ? { allowed } : { allowed, origin }), { headers });
}
