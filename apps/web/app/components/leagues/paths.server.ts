/** Where league pages and links point. */
import { canEnterEvent } from "@game/core";
import { listEvents } from "@game/db";
import type { AppLoadContext } from "@remix-run/node";
import { getCurrentGame } from "~/utils/game.server";

let warnedOrigin = false;

/**
 * The site's public origin for links in e-mails: PUBLIC_URL when set, else the request's origin.
 * The request's Host header is the caller's to choose, so production should set PUBLIC_URL.
 */
export function publicOrigin(request: Request, context: AppLoadContext): string {
  if (context.env.publicUrl) {
    try {
      return new URL(context.env.publicUrl).origin;
    } catch {
      // Fall through to the request origin.
    }
  }
  if (context.env.production && !warnedOrigin) {
    warnedOrigin = true;
    console.warn("PUBLIC_URL is not set: invitation links use the request's Host header.");
  }
  return new URL(request.url).origin;
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
