import { type EventRow, getEvent, listEvents } from "@game/db";
import { type AppLoadContext, createCookie } from "@remix-run/node";
import { parseId } from "./request.server";

/** The game the player chose last (spec: "the current game"), remembered for a year. */
const gameCookie = createCookie("gf_game", { path: "/", sameSite: "lax", maxAge: 365 * 86400 });

/** Set-Cookie value remembering `eventId` as the current game. */
export function rememberGame(eventId: number): Promise<string> {
  return gameCookie.serialize(String(eventId));
}

/**
 * The current game: `?game=ID` in the URL, else the last one chosen, else the first open event,
 * else the most recent event. Null only when there are no events at all.
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
  if (remembered !== null) {
    const e = await getEvent(context.db, remembered);
    if (e) return e;
  }
  const all = await listEvents(context.db);
  return (
    all.find((e) => e.status === "open") ??
    [...all].sort((a, b) => b.startsAt.getTime() - a.startsAt.getTime())[0] ??
    null
  );
}
