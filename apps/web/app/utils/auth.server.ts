import { getSession, type UserRow } from "@game/db";
import { type AppLoadContext, redirect } from "@remix-run/node";
import { readSessionToken } from "./session.server";

export type SessionUser = UserRow;

/** The signed-in, accepted player, or null for a visitor (looked up once per page request). */
export function getUser(request: Request, context: AppLoadContext): Promise<SessionUser | null> {
  const viewer = context.viewer;
  if (!viewer) return lookUpUser(request, context);
  viewer.user ??= lookUpUser(request, context);
  return viewer.user;
}

async function lookUpUser(request: Request, context: AppLoadContext): Promise<SessionUser | null> {
  const token = await readSessionToken(request, context);
  if (!token) return null;
  const found = await getSession(context.db, token, context.now());
  if (!found?.user?.accepted) return null;
  return found.user;
}

/** Where to send a visitor to log in, coming back to `request`'s page afterwards. */
export function loginUrl(request: Request): string {
  const url = new URL(request.url);
  const back = `${url.pathname}${url.search}`;
  return `/?login=1&redirectTo=${encodeURIComponent(back)}`;
}

/** The signed-in player; a visitor is redirected to log in (the thrown redirect ends the request). */
export async function requireUser(request: Request, context: AppLoadContext): Promise<SessionUser> {
  const user = await getUser(request, context);
  if (!user) throw redirect(loginUrl(request));
  return user;
}

/** An admin: visitors are sent to log in, players get 403. */
export async function requireAdmin(
  request: Request,
  context: AppLoadContext,
): Promise<SessionUser> {
  const user = await requireUser(request, context);
  if (user.role !== "admin") throw new Response("Forbidden", { status: 403 });
  return user;
}
