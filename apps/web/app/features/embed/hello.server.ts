/**
 * The embed script's hello (`GET /embed/v1/hello?n=2&pv=...&w=...`,
 * docs/decisions/0091-embed-origin-check.md, 0092-partner-stats.md, 0154, 0182): may the page's
 * origin use the widgets, count the widgets it shows once per page view, and answer the first
 * API requests of the widgets it names.
 */
import {
  creditPageView,
  hit,
  isPartnerOrigin,
  MAX_WIDGETS_PER_PAGE_VIEW,
  partnerIdForOrigin,
} from "@game/db";
import { createGameClient } from "@game/widgets/client";
import type { AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import { inProcessFetch } from "~/features/api/widget-endpoints.server";
import { logError } from "~/utils/log.server";
import { partnerStatsCounter, statLost } from "~/utils/partner-stats.server";
import { clientIp } from "~/utils/rate-limit.server";
import { firstRequests, planAttributes } from "../../../embed/first-requests";
import type { FirstData } from "../../../embed/runtime";

/** Widgets one page view may count (the embed script reports its page's total so far). */
export const MAX_WIDGETS_PER_HELLO = MAX_WIDGETS_PER_PAGE_VIEW;

/**
 * Hellos per client address and minute. A reader opens a page or two a minute; past this the
 * hello answers 429 and counts nothing, and the widgets still show (the script then assumes yes).
 */
export const HELLO_RATE_LIMIT = { limit: 30, windowMs: 60_000 };

/** The page-view id the embed script draws once per page: 16 to 64 URL-safe characters. */
const PAGE_VIEW = /^[A-Za-z0-9_-]{16,64}$/;

/**
 * Widgets of one hello whose first data it answers; a page with more (rare) lets the rest fetch
 * their own. The script also stops naming widgets once the address is about 4,000 characters.
 */
export const MAX_DATA_WIDGETS = 8;

/**
 * How long the hello waits for the widgets' first answers (ms): past it, it answers with those
 * ready, and the other widgets ask the API themselves. A stalled query never holds a page's
 * widgets back longer than this.
 */
export const FIRST_DATA_BUDGET_MS = 1500;

/**
 * A widget the hello names (`w=["gf-racer-table",{"event":"5"}]`, one `w` per widget): its
 * element's name and attributes, of which only those the plan reads are kept.
 */
const widgetParam = z.tuple([
  z.string().regex(/^gf-[a-z-]{1,40}$/),
  z.record(z.string(), z.unknown()),
]);

/** The answers a widget can show as they are: its data, or a refusal it explains. */
const SHOWN_STATUSES = new Set([200, 400, 403, 404]);

/**
 * The first API answers of the widgets the hello names, made in-process through the API's own
 * endpoints (the caller's quota, the partner's stats and the caches count each distinct request
 * once), keyed by the path and query the widget's client will ask for. An answer goes back only
 * where the API would let the page read it: on the game's own pages, or when its CORS answer
 * names the page's origin. A widget whose answer is missing (a 429, an error, past the budget)
 * simply asks the API itself.
 */
async function firstData(request: Request, context: AppLoadContext): Promise<FirstData> {
  const data: FirstData = {};
  const url = new URL(request.url);
  const base = url.origin;
  const origin = request.headers.get("Origin");
  // A browser sends no Origin with a same-origin GET, nor with a cross-site image or link: only
  // the first is the game's own page. The others get no data, so no page can spend a reader's
  // API quota through the hello.
  const own =
    origin === base || (!origin && request.headers.get("Sec-Fetch-Site") === "same-origin");
  if (!origin && !own) return data;
  const widgets = url.searchParams.getAll("w").slice(0, MAX_DATA_WIDGETS);
  const api = inProcessFetch(context, origin);
  // Two widgets asking the same (two tables of one event): asked once, answered for both.
  const asked = new Map<string, Promise<{ status: number; body: string; readable: boolean }>>();
  const client = createGameClient({
    baseUrl: base,
    fetch: async (input) => {
      const path = String(input).slice(base.length);
      let answer = asked.get(path);
      if (!answer) {
        answer = api(input).then(async (res) => ({
          status: res.status,
          body: await res.text(),
          readable: own || res.headers.get("Access-Control-Allow-Origin") === origin,
        }));
        asked.set(path, answer);
      }
      const { status, body, readable } = await answer;
      if (readable && SHOWN_STATUSES.has(status)) {
        data[path] = [status, JSON.parse(body), (data[path]?.[2] ?? 0) + 1];
      }
      return new Response(body, { status });
    },
  });
  const all = Promise.all(
    widgets.map(async (text) => {
      let widget: z.infer<typeof widgetParam>;
      try {
        widget = widgetParam.parse(JSON.parse(text));
      } catch {
        return; // Not a widget this script sends: nothing to answer for it.
      }
      // A refusal ends the widget's requests, as it ends the widget's own.
      await firstRequests(widget[0], planAttributes(widget[1]), client).catch(() => undefined);
    }),
  );
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    all,
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, FIRST_DATA_BUDGET_MS);
    }),
  ]);
  clearTimeout(timer);
  // What is ready now: an answer still on its way is the widget's to ask for.
  return { ...data };
}

/**
 * The hello's answer, never cached: `{ allowed }` (and the refused origin), with the named
 * widgets' first API answers (`data`) when allowed.
 */
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
  if (!allowed) return new Response(JSON.stringify({ allowed, origin }), { headers });
  let data: FirstData = {};
  try {
    data = await firstData(request, context);
  } catch (error) {
    // The widgets then fetch their own data: slower, never missing.
    logError("embed hello: could not answer the widgets' first requests", error);
  }
  const body = Object.keys(data).length ? { allowed, data } : { allowed };
  return new Response(JSON.stringify(body), { headers });
}
