import { SESSION_TTL_MS } from "@game/db";
import { type AppLoadContext, type Cookie, createCookie } from "@remix-run/node";
import { SESSION_COOKIE as COOKIE_NAME } from "./cookie-names";

const cookies = new Map<string, Cookie>();

/**
 * The session cookie: HttpOnly, SameSite=Lax, signed, 30 days. It carries only a random token; the
 * session itself lives in the database so it can be revoked.
 */
export function sessionCookie(context: AppLoadContext, secure: boolean): Cookie {
  const key = `${context.env.sessionSecret}|${secure}`;
  let cookie = cookies.get(key);
  if (!cookie) {
    cookie = createCookie(COOKIE_NAME, {
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      secure,
      secrets: [context.env.sessionSecret],
      maxAge: SESSION_TTL_MS / 1000,
    });
    cookies.set(key, cookie);
  }
  return cookie;
}

/**
 * Secure whenever the request came over https, and in production except on a loopback host
 * (so `npm start` on http://localhost still keeps players signed in).
 */
export function isSecureRequest(request: Request, context: AppLoadContext): boolean {
  const url = new URL(request.url);
  if (url.protocol === "https:") return true;
  const loopback = ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
  return context.env.production && !loopback;
}

export async function readSessionToken(
  request: Request,
  context: AppLoadContext,
): Promise<string | null> {
  const cookie = sessionCookie(context, isSecureRequest(request, context));
  const value = await cookie.parse(request.headers.get("Cookie"));
  return typeof value === "string" && value.length > 0 ? value : null;
}

export function serializeSessionToken(
  request: Request,
  context: AppLoadContext,
  token: string,
): Promise<string> {
  return sessionCookie(context, isSecureRequest(request, context)).serialize(token);
}

export function clearSessionCookie(request: Request, context: AppLoadContext): Promise<string> {
  return sessionCookie(context, isSecureRequest(request, context)).serialize("", { maxAge: 0 });
}
