import { type EventPhase, eventPhase } from "@game/core";
import { hasAnyTeam, listEvents } from "@game/db";
import type { AppLoadContext } from "@remix-run/node";
import { getUser } from "~/utils/auth.server";
import { HOME_NOTICE_PARAM, homeNoticeText } from "./home-notices";

/** An event card's data, as the home page and the event widgets take it. */
export interface HomeEvent {
  id: number;
  name: string;
  cover: string;
  logo: string;
  description: string;
  status: "open" | "closed" | "archived";
  startsAt: string;
  /** The start date written for the viewer (their language), decided on the server. */
  dateText: string;
  /** Where it stands now (@game/core `eventPhase`): an open event may be locked or scored. */
  phase: EventPhase;
}

/**
 * The viewer's language from Accept-Language (the first one this server can format), else
 * English. Dates are then written on the server only, so the browser shows the same text.
 */
export function preferredLocale(request: Request): string {
  const header = request.headers.get("Accept-Language") ?? "";
  const tags = header
    .split(",")
    .map((part) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.find((p) => p.trim().startsWith("q="));
      return { tag: tag.trim(), q: q ? Number(q.trim().slice(2)) : 1 };
    })
    .filter((t) => t.tag && t.tag !== "*" && Number.isFinite(t.q) && t.q > 0)
    .sort((a, b) => b.q - a.q);
  for (const { tag } of tags) {
    try {
      const [supported] = Intl.DateTimeFormat.supportedLocalesOf(tag);
      if (supported) return supported;
    } catch {
      // Not a well-formed language tag: try the next one.
    }
  }
  return "en-US";
}

const STATUS_ORDER = { open: 0, closed: 1, archived: 2 } as const;

/** Open events first, then the coming ones by date, then the past ones, latest first. */
export function eventOrder(a: HomeEvent, b: HomeEvent): number {
  const byStatus = STATUS_ORDER[a.status] - STATUS_ORDER[b.status];
  if (byStatus !== 0) return byStatus;
  const byDate = a.startsAt.localeCompare(b.startsAt);
  return (a.status === "archived" ? -byDate : byDate) || a.id - b.id;
}

/**
 * The home screen: every event, the signed-in player, if any, and the one-time notice of the page
 * that sent the player here (`?notice=`; null when there is none or the code is unknown).
 */
export async function loadHome(request: Request, context: AppLoadContext) {
  const [rows, user] = await Promise.all([listEvents(context.readDb), getUser(request, context)]);
  const locale = preferredLocale(request);
  // Race days are given in UTC; written in UTC so nobody sees the day before or after.
  const format = new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" });
  const events: HomeEvent[] = rows.map((e) => ({
    id: e.id,
    name: e.name,
    cover: e.cover,
    logo: e.logo,
    description: e.description,
    status: e.status,
    startsAt: e.startsAt.toISOString(),
    dateText: format.format(e.startsAt),
    phase: eventPhase(e, context.now()),
  }));
  events.sort(eventOrder);
  const notice = homeNoticeText(new URL(request.url).searchParams.get(HOME_NOTICE_PARAM));
  // A player who has never played (no team, no points) is new: "Welcome", not "Welcome back".
  const returning =
    user !== null &&
    (user.points > 0 || user.ranking !== null || (await hasAnyTeam(context.db, user.id)));
  return { events, user: user ? { username: user.username, returning } : null, notice };
}
