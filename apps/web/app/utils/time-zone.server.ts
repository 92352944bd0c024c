import { DEFAULT_TIME_ZONE } from "@game/core";
import { setUserTimeZone } from "@game/db";
import type { AppLoadContext } from "@remix-run/node";
import type { SessionUser } from "./auth.server";
import { timeZoneFromCookies } from "./time-zone";

/** The zone to write this request's dates in: the browser's (its cookie), else UTC. */
export function readTimeZone(request: Request): string {
  return timeZoneFromCookies(request.headers.get("Cookie")) ?? DEFAULT_TIME_ZONE;
}

/**
 * Keeps the signed-in player's zone on their account when their browser names another one, so
 * their e-mails (sent without a browser) are written in it too. One write per change.
 */
export async function rememberTimeZone(
  request: Request,
  context: AppLoadContext,
  user: SessionUser | null,
): Promise<void> {
  const zone = timeZoneFromCookies(request.headers.get("Cookie"));
  if (!user || !zone || zone === user.timeZone) return;
  // Never worth failing a page for: the next request tries again.
  await setUserTimeZone(context.db, user.id, zone).catch(() => false);
}
