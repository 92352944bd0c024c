import { canRememberEvent, currentGameOf } from "@game/core";
import { type EventRow, getEvent, listEvents } from "@game/db";
import { type AppLoadContext, createCookie } from "@remix-run/node";
import { GAME_COOKIE } from "~/utils/cookie-names";
import { parseId } from "~/utils/request.server";

/** The game the player chose last (spec: "the current game"), remembered for a year. */
const gameCookie = createCookie(GAME_COOKIE, { path: "/", sameSite: "lax", maxAge: 365 * 86400 });

/**
 * Set-Cookie value remembering `event` as the current game, or null when it may not be
 * remembered: only an open event is (docs/decisions/0116), so opening an archived or closed
 * event by its address never makes it the game of every other page.
 */
export async function rememberGame(event: Pick<EventRow, "id" | "status">): Promise<string | null> {
  return canRememberEvent(event) ? gameCookie.serialize(String(event.id)) : null;
}

/** Headers remembering `event` when it may be remembered (see `rememberGame`). */
export async function rememberHeaders(event: Pick<EventRow, "id" | "status">): Promise<Headers> {
  const cookie = await rememberGame(event);
  return new Headers(cookie ? { "Set-Cookie": cookie } : {});
}

/**
 * The current game: `?game=ID` in the URL, else the last one chosen while it is open, else the
 * open event, else the latest scored one, else the latest (@game/core `currentGameOf`). Null only
 * when there are no events at all.
 */
export async function getCurrentGame(
  request: Request,
  context: AppLoadContext,
): Promise<EventRow | null> {
  const fromQuery = parseId(new URL(request.url).searchParams.get("game"));
  if (fromQuery !== null) {
    const e = await getEvent(context.db, fromQuery);
    if (e) return e;
  }
  const remembered = parseId(await gameCookie.parse(request.headers.get("Cookie")));
  return currentGameOf(await listEvents(context.db), remembered) ?? null;
}
