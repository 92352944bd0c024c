/**
 * The embed script's hello (`GET /embed/v1/hello`, docs/decisions/0091-embed-origin-check.md,
 * 0092-partner-stats.md): may the page's origin use the widgets, and count the widgets it shows.
 */
import { isPartnerOrigin, partnerIdForOrigin } from "@game/db";
import type { AppLoadContext } from "@remix-run/node";
import { partnerStatsCounter } from "~/utils/partner-stats.server";

/** Widgets one call may count: a page with more is unusual, a bigger number is noise. */
export const MAX_WIDGETS_PER_HELLO = 20;

/** The hello's answer: `{ allowed }` (and the refused origin), never cached. */
export async function helloResponse(request: Request, context: AppLoadContext): Promise<Response> {
  const headers = {
    "Access-Control-Allow-Origin": "*",
    "Cache-Control": "no-store",
    "Content-Type": "application/json; charset=utf-8",
    "X-Content-Type-Options": "nosniff",
  };
  const origin = request.headers.get("Origin");
  const sameSite = !origin || origin === new URL(request.url).origin;
  // The partner credited for the loads; the API's own CORS check decides for anything else.
  const partnerId =
    sameSite || origin === "null" ? undefined : await partnerIdForOrigin(context.db, origin);
  const allowed =
    sameSite ||
    partnerId !== undefined ||
    (origin !== "null" && (await isPartnerOrigin(context.db, origin)));
  if (partnerId !== undefined) {
    const asked = Number(new URL(request.url).searchParams.get("n") ?? "1");
    const n = Number.isSafeInteger(asked) ? Math.min(Math.max(asked, 1), MAX_WIDGETS_PER_HELLO) : 1;
    partnerStatsCounter(context).count(partnerId, "widgetLoads", n);
  }
  return new Response(JSON.stringify(allowed ? { allowed } : { allowed, origin }), { headers });
}
