import { type EventPhase, eventPhase } from "@game/core";
import { getPlayerStanding, hasAnyTeam, listEvents } from "@game/db";
import type { AppLoadContext } from "@remix-run/node";
import { loadHomeCompetitions } from "~/features/competitions/competitions.server";
import { getUser } from "~/utils/auth.server";
import { readTimeZone } from "~/utils/time-zone.server";
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
  /** Where it stands now (@game/core `eventPhase`): an open event may be locked or scored. */
  phase: EventPhase;
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
 * The home screen: the competitions (live and upcoming with their next round, then finished
 * ones), every event, the signed-in player, if any, and the one-time notice of the page that
 * sent the player here (`?notice=`; null when there is none or the code is unknown).
 */
export async function loadHome(request: Request, context: AppLoadContext) {
  const [rows, user, competitions] = await Promise.all([
    listEvents(context.readDb),
    getUser(request, context),
    loadHomeCompetitions(context),
  ]);
  const events: HomeEvent[] = rows.map((e) => ({
    id: e.id,
    name: e.name,
    cover: e.cover,
    logo: e.logo,
    description: e.description,
    status: e.status,
    startsAt: e.startsAt.toISOString(),
    phase: eventPhase(e, context.now()),
  }));
  events.sort(eventOrder);
  const notice = homeNoticeText(new URL(request.url).searchParams.get(HOME_NOTICE_PARAM));
  // A player who has never played (no team, no place in the default competition's table) is
  // new: "Welcome", not "Welcome back". Both read at once: one round trip.
  const returning =
    user !== null &&
    (
      await Promise.all([
        getPlayerStanding(context.readDb, user.id),
        hasAnyTeam(context.db, user.id),
      ])
    ).some((found) => Boolean(found));
  return {
    events,
    competitions,
    user: user ? { username: user.username, returning } : null,
    notice,
    // The cards' dates are written in the reader's zone (UTC, named, until the browser says).
    timeZone: readTimeZone(request),
  };
}
