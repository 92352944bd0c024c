/** Route tests: a real database and a load context like the server's, with an injectable clock. */
import { createAccount, createSession, type Db, type UserRow } from "@game/db";
import type { AppLoadContext } from "@remix-run/node";
import { serializeSessionToken } from "~/utils/session.server";

export function testContext(
  db: Db,
  opts: { now?: () => Date; production?: boolean; readDb?: Db } = {},
) {
  return {
    db,
    readDb: opts.readDb ?? db,
    dbKind: "pglite",
    env: {
      port: 0,
      host: "127.0.0.1",
      production: opts.production ?? false,
      dataDir: "memory",
      sessionSecret: "test-secret",
    },
    now: opts.now ?? (() => new Date()),
  } satisfies AppLoadContext;
}

let counter = 0;

/**
 * Makes a player (or admin) directly in the database: one of long standing, whose e-mail address
 * is confirmed, unless `emailConfirmed: false` makes a fresh sign-up (decision 0151).
 */
export async function makeUser(
  db: Db,
  opts: {
    username?: string;
    email?: string;
    role?: "player" | "admin";
    emailConfirmed?: boolean;
  } = {},
): Promise<UserRow> {
  counter += 1;
  const username = opts.username ?? `rider${counter}_${Date.now() % 100000}`;
  return createAccount(db, {
    username,
    email: opts.email ?? `${username.toLowerCase()}@example.com`,
    // Not a real hash: these users sign in through `cookieFor`, never with a password.
    passwordHash: "test:unusable",
    role: opts.role,
    emailConfirmed: opts.emailConfirmed ?? true,
  });
}

/** A Cookie header that signs `user` in, as the login action would. */
export async function cookieFor(context: AppLoadContext, user: UserRow): Promise<string> {
  const { token } = await createSession(context.db, user.id, { now: context.now() });
  const setCookie = await serializeSessionToken(new Request("http://localhost/"), context, token);
  return setCookie.split(";")[0]!;
}

/** A request as the browser sends it: same-origin, with the session cookie if given. */
export function request(
  path: string,
  init: { method?: string; cookie?: string; form?: Record<string, string | string[]> } = {},
): Request {
  const headers = new Headers({ Origin: "http://localhost" });
  if (init.cookie) headers.set("Cookie", init.cookie);
  let body: URLSearchParams | undefined;
  if (init.form) {
    body = new URLSearchParams();
    for (const [k, v] of Object.entries(init.form)) {
      for (const item of Array.isArray(v) ? v : [v]) body.append(k, item);
    }
  }
  return new Request(`http://localhost${path}`, {
    method: init.method ?? (body ? "POST" : "GET"),
    headers,
    body,
  });
}
