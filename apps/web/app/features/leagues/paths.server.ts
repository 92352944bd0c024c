/** Where league pages and links point. */
import { canEnterEvent } from "@game/core";
import { listEvents } from "@game/db";
import type { AppLoadContext } from "@remix-run/node";
import { getCurrentGame } from "~/features/game/game.server";

/**
 * The site's public origin for links in e-mails and links players share: PUBLIC_URL, or
 * http://localhost:PORT when it is unset (the server warns about that at start). Never the
 * request's Host header: the caller chooses it, and a link mailed from our sender must lead to
 * us (docs/decisions/0072-links-from-public-url.md).
 */
export function publicOrigin(_request: Request, context: AppLoadContext): string {
  const { publicUrl, port } = context.env;
  // readEnv refuses a PUBLIC_URL that is not an http(s) address.
  if (publicUrl) return new URL(publicUrl).origin;
  return `http://localhost:${port}`;
}

export const invitationPath = (leagueId: number) => `/leagues/${leagueId}/invitation`;
export const joinPath = (code: string) => `/leagues/join/${encodeURIComponent(code)}`;

/**
 * The page that shows the player's leagues: the event home of the current game when it can be
 * entered, else of the first open event, else the home page.
 */
export async function leaguesHomePath(request: Request, context: AppLoadContext): Promise<string> {
  const current = await getCurrentGame(request, context);
  if (current && canEnterEvent(current)) return `/game/${current.id}`;
  const open = (await listEvents(context.db)).find(canEnterEvent);
  return open ? `/game/${open.id}` : "/";
}

/** The login modal on the home page, coming back to `path`. */
export const loginPath = (path: string) => `/?login=1&redirectTo=${encodeURIComponent(path)}`;
/** The sign-up form, coming back to `path`. */
export const signupPath = (path: string) => `/signup?redirectTo=${encodeURIComponent(path)}`;
