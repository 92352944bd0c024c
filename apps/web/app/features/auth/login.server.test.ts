import { NAME_MESSAGES } from "@game/core";
import { accounts, hit, sessions, users } from "@game/db";
import { createTestDb, type DbHandle } from "@game/db/testing";
import type { AppLoadContext } from "@remix-run/node";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getUser } from "~/utils/auth.server";
import { hashPassword } from "~/utils/password.server";
import { AUTH_LIMITS, limitKey } from "~/utils/rate-limit.server";
import { request, testContext } from "../../../tests/support/context";
import {
  EMAIL_TAKEN,
  NO_PROFILE,
  NOT_ACCEPTED,
  USERNAME_TAKEN,
  WRONG_CREDENTIALS,
} from "./auth-result";
import { authAction, logout } from "./login.server";

let h: DbHandle;
beforeAll(async () => {
  h = await createTestDb();
});
afterAll(() => h.close());

let ipCounter = 0;
/** A context as the server builds it, each test from its own IP unless told otherwise. */
function ctx(opts: { ip?: string; production?: boolean } = {}): AppLoadContext {
  ipCounter += 1;
  return { ...testContext(h.db, opts), clientIp: opts.ip ?? `198.51.100.${ipCounter}` };
}

/** What an action answered, whether a Response (redirect) or `data(...)` with a status. */
async function answer(result: unknown) {
  if (result instanceof Response) {
    return { status: result.status, headers: result.headers, data: null };
  }
  const r = result as { data: unknown; init?: { status?: number; headers?: HeadersInit } };
  return { status: r.init?.status ?? 200, headers: new Headers(r.init?.headers), data: r.data };
}

async function post(
  mode: "login" | "signup",
  form: Record<string, string>,
  context: AppLoadContext,
  opts: { cookie?: string; url?: string } = {},
) {
  const req = opts.url
    ? new Request(opts.url, {
        method: "POST",
        headers: {
          Origin: new URL(opts.url).origin,
          ...(opts.cookie ? { Cookie: opts.cookie } : {}),
        },
        body: new URLSearchParams(form),
      })
    : request(`/${mode}`, { form, cookie: opts.cookie });
  return answer(await authAction(mode, req, context).catch((thrown) => thrown));
}

const cookieOf = (headers: Headers) => headers.get("Set-Cookie")?.split(";")[0] ?? "";

let n = 0;
function newPlayer() {
  n += 1;
  return { username: `Rider_${n}`, email: `Rider${n}@Example.com`, password: "fast-and-loose" };
}

describe("sign-up", () => {
  it("creates an accepted player with 100 credits and signs them in with a proper cookie", async () => {
    const p = newPlayer();
    const res = await post("signup", p, ctx());
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/homepage");
    const setCookie = res.headers.get("Set-Cookie")!;
    expect(setCookie).toMatch(/^gf_session=/);
    expect(setCookie).toContain("HttpOnly");
    expect(setCookie).toContain("SameSite=Lax");
    expect(setCookie).toContain("Path=/");
    expect(setCookie).toContain(`Max-Age=${30 * 24 * 60 * 60}`);
    expect(setCookie).not.toContain("Secure");

    const user = await getUser(request("/", { cookie: cookieOf(res.headers) }), ctx());
    expect(user).toMatchObject({
      username: p.username,
      email: p.email.toLowerCase(),
      accepted: true,
      credits: 100,
    });
    const [account] = await h.db.select().from(accounts).where(eq(accounts.id, user!.id));
    expect(account!.passwordHash).toMatch(/^scrypt\$131072\$8\$1\$/);
  });

  it("marks the cookie Secure over https", async () => {
    const p = newPlayer();
    const res = await post("signup", p, ctx(), { url: "https://play.example.org/signup" });
    expect(res.status).toBe(302);
    expect(res.headers.get("Set-Cookie")).toContain("Secure");
  });

  it("goes back to a safe redirectTo, never to another site", async () => {
    const safe = await post("signup", { ...newPlayer(), redirectTo: "/game/5" }, ctx());
    expect(safe.headers.get("Location")).toBe("/game/5");
    const evil = await post("signup", { ...newPlayer(), redirectTo: "//evil.example" }, ctx());
    expect(evil.headers.get("Location")).toBe("/homepage");
  });

  it("asks for e-mail and password with the spec's message", async () => {
    for (const form of [
      { username: "Someone", email: "", password: "" },
      { username: "Someone", email: "a@example.com", password: "" },
      { username: "Someone", email: "", password: "long enough" },
    ]) {
      const res = await post("signup", form, ctx());
      expect(res.status).toBe(400);
      expect(res.data).toMatchObject({
        mode: "signup",
        formError: "Email and password are required",
      });
    }
  });

  it("explains a weak password, a malformed e-mail and a bad username next to the field", async () => {
    const weak = await post("signup", { ...newPlayer(), password: "short" }, ctx());
    expect(weak.status).toBe(400);
    expect(weak.data).toMatchObject({
      fieldErrors: { password: "Use at least 10 characters for your password." },
    });
    const malformed = await post("signup", { ...newPlayer(), email: "not-an-email" }, ctx());
    expect(malformed.data).toMatchObject({
      fieldErrors: { email: "Enter a valid e-mail address." },
    });
    const noName = await post("signup", { ...newPlayer(), username: " " }, ctx());
    expect(noName.data).toMatchObject({ fieldErrors: { username: "Choose a username." } });
    // What was typed comes back (never the password) so the form can be filled again.
    expect(malformed.data).toMatchObject({ values: { email: "not-an-email" } });
    expect(JSON.stringify(weak.data)).not.toContain("short");
  });

  it("refuses reserved and impersonating usernames, saying why, and creates nothing", async () => {
    const probe = [
      ["admin", NAME_MESSAGES.username.reserved],
      ["Administrator", NAME_MESSAGES.username.reserved],
      ["GravityFantasy", NAME_MESSAGES.username.reserved],
      ["support", NAME_MESSAGES.username.reserved],
      ["www.evil-prize.com", NAME_MESSAGES.username["web-address"]],
    ] as const;
    for (const [username, message] of probe) {
      const p = { ...newPlayer(), username };
      const res = await post("signup", p, ctx());
      expect(res.status, username).toBe(400);
      expect(res.data).toMatchObject({ fieldErrors: { username: message } });
      const [row] = await h.db.select().from(users).where(eq(users.email, p.email.toLowerCase()));
      expect(row, username).toBeUndefined();
    }
    expect(
      (await post("signup", { ...newPlayer(), username: "badminton_fan" }, ctx())).status,
    ).toBe(302);
  });

  it("refuses a taken e-mail and a username taken in any case", async () => {
    const p = newPlayer();
    expect((await post("signup", p, ctx())).status).toBe(302);
    const again = await post(
      "signup",
      {
        username: p.username.toUpperCase(),
        email: ` ${p.email.toUpperCase()} `,
        password: "whatever-1",
      },
      ctx(),
    );
    expect(again.status).toBe(409);
    expect(again.data).toMatchObject({
      fieldErrors: { email: EMAIL_TAKEN, username: USERNAME_TAKEN },
    });
    expect(
      await h.db.select().from(users).where(eq(users.usernameKey, p.username.toLowerCase())),
    ).toHaveLength(1);
  });

  it("silently refuses a form with the honeypot filled", async () => {
    const p = newPlayer();
    const res = await post("signup", { ...p, leave_blank: "http://spam.example" }, ctx());
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/");
    expect(res.headers.get("Set-Cookie")).toBeNull();
    expect(
      await h.db.select().from(accounts).where(eq(accounts.email, p.email.toLowerCase())),
    ).toEqual([]);
  });
});

describe("login", () => {
  let player: ReturnType<typeof newPlayer>;
  beforeAll(async () => {
    player = newPlayer();
    await post("signup", player, ctx());
  });

  it("logs in with any case of the e-mail and lands on /homepage", async () => {
    const res = await post(
      "login",
      { email: player.email.toUpperCase(), password: player.password },
      ctx(),
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/homepage");
    expect((await getUser(request("/", { cookie: cookieOf(res.headers) }), ctx()))?.username).toBe(
      player.username,
    );
  });

  it("gives a wrong password and an unknown e-mail the very same answer", async () => {
    const wrong = await post("login", { email: player.email, password: "not-the-password" }, ctx());
    const unknown = await post(
      "login",
      { email: "nobody@example.com", password: "not-the-password" },
      ctx(),
    );
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(wrong.status);
    expect(wrong.data).toEqual({
      mode: "login",
      formError: WRONG_CREDENTIALS,
      values: { email: player.email },
    });
    expect(unknown.data).toEqual({
      ...(wrong.data as object),
      values: { email: "nobody@example.com" },
    });
    expect([...unknown.headers]).toEqual([...wrong.headers]);
  });

  it("takes as long for an unknown e-mail as for a wrong password", async () => {
    const time = async (email: string) => {
      const t0 = performance.now();
      await post("login", { email, password: "not-the-password" }, ctx());
      return performance.now() - t0;
    };
    // Alternating runs, fastest of each: a busy machine slows both alike.
    const wrong: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 2; i++) {
      wrong.push(await time(player.email));
      unknown.push(await time(`nobody-${i}@example.com`));
    }
    // Both run one full scrypt check; without the dummy check "unknown" would take ~1 ms.
    expect(Math.min(...unknown)).toBeGreaterThan(Math.min(...wrong) * 0.3);
  });

  it("asks for e-mail and password with the spec's message", async () => {
    const res = await post("login", { email: "", password: "" }, ctx());
    expect(res.status).toBe(400);
    expect(res.data).toMatchObject({ formError: "Email and password are required" });
  });

  it("says 'No user profile found' when the credentials are right but the profile is missing", async () => {
    await h.db
      .insert(accounts)
      .values({ email: "ghost@example.com", passwordHash: await hashPassword("ghost-password") });
    const res = await post(
      "login",
      { email: "ghost@example.com", password: "ghost-password" },
      ctx(),
    );
    expect(res.status).toBe(403);
    expect(res.data).toMatchObject({ formError: NO_PROFILE });
    expect(res.data).toMatchObject({ formError: "No user profile found. Contact admin." });
    expect(res.headers.get("Set-Cookie")).toBeNull();
    // With a wrong password the profile's state stays secret.
    const wrong = await post("login", { email: "ghost@example.com", password: "nope-nope" }, ctx());
    expect(wrong.data).toMatchObject({ formError: WRONG_CREDENTIALS });
  });

  it("says 'Account not accepted yet' for a blocked player", async () => {
    const p = newPlayer();
    await post("signup", p, ctx());
    await h.db.update(users).set({ accepted: false }).where(eq(users.email, p.email.toLowerCase()));
    const res = await post("login", { email: p.email, password: p.password }, ctx());
    expect(res.status).toBe(403);
    expect(res.data).toMatchObject({
      formError: "Account not accepted yet. Please contact admin.",
    });
    expect(res.data).toMatchObject({ formError: NOT_ACCEPTED });
  });

  it("rotates the session: the cookie from before the login stops working", async () => {
    const first = await post("login", { email: player.email, password: player.password }, ctx());
    const before = cookieOf(first.headers);
    const second = await post("login", { email: player.email, password: player.password }, ctx(), {
      cookie: before,
    });
    const after = cookieOf(second.headers);
    expect(after).not.toBe(before);
    expect(await getUser(request("/", { cookie: before }), ctx())).toBeNull();
    expect((await getUser(request("/", { cookie: after }), ctx()))?.username).toBe(player.username);
  });

  it("upgrades a hash made at a lower cost when the player logs in", async () => {
    const p = newPlayer();
    await post("signup", p, ctx());
    const email = p.email.toLowerCase();
    await h.db
      .update(accounts)
      .set({ passwordHash: await hashPassword(p.password, { N: 2 ** 14, r: 8, p: 1 }) })
      .where(eq(accounts.email, email));
    expect((await post("login", { email, password: p.password }, ctx())).status).toBe(302);
    const [account] = await h.db.select().from(accounts).where(eq(accounts.email, email));
    expect(account!.passwordHash).toMatch(/^scrypt\$131072\$/);
  });
});

describe("rate limits", () => {
  it("refuses the 11th rapid login attempt for one e-mail from one client with 429 and Retry-After", async () => {
    const p = newPlayer();
    await post("signup", p, ctx());
    const attacker = "192.0.2.66";
    // Ten rapid attempts at once from one client: the per e-mail and client limit bites. Two are
    // checked at a time, the others answered at once as busy (decision 0150); all ten count.
    const statuses = await Promise.all(
      Array.from({ length: 10 }, async () => {
        return (
          await post("login", { email: p.email, password: "wrong-password" }, ctx({ ip: attacker }))
        ).status;
      }),
    );
    expect(statuses.filter((s) => s === 401).length).toBeGreaterThanOrEqual(2);
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
    // Even the right password is refused from that client now: the attempt is not even checked.
    const eleventh = await post(
      "login",
      { email: p.email, password: p.password },
      ctx({ ip: attacker }),
    );
    expect(eleventh.status).toBe(429);
    expect(Number(eleventh.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(eleventh.data).toMatchObject({ formError: expect.stringMatching(/^Too many attempts/) });
    expect(eleventh.headers.get("Set-Cookie")).toBeNull();
  });

  it("never locks the owner out: an attacker's failures lock only the attacker's client", async () => {
    const p = newPlayer();
    await post("signup", p, ctx());
    const attacker = "192.0.2.99";
    for (let i = 0; i < AUTH_LIMITS.login.pair.limit + 5; i++) {
      await post("login", { email: p.email, password: "guess-guess" }, ctx({ ip: attacker }));
    }
    const locked = await post(
      "login",
      { email: p.email, password: p.password },
      ctx({ ip: attacker }),
    );
    expect(locked.status).toBe(429);
    // The owner, from their own client, logs in as usual.
    const owner = await post("login", { email: p.email, password: p.password }, ctx());
    expect(owner.status).toBe(302);
    expect(owner.headers.get("Set-Cookie")).toMatch(/^gf_session=/);
  });

  it("lets the window pass, and forgives earlier mistakes after a successful login", async () => {
    const p = newPlayer();
    await post("signup", p, ctx());
    const ip = "192.0.2.10";
    let clock = new Date("2026-05-01T10:00:00Z");
    const at = () => ({ ...ctx({ ip }), now: () => clock });
    const key = limitKey("login", "pair", `${p.email.toLowerCase()}|${ip}`);
    const fill = (count: number) =>
      Promise.all(
        Array.from({ length: count }, () =>
          hit(h.db, key, { ...AUTH_LIMITS.login.pair, now: clock }),
        ),
      );
    await fill(9);
    expect((await post("login", { email: p.email, password: p.password }, at())).status).toBe(302);
    // The counter was cleared by the success: ten more attempts are allowed.
    await fill(10);
    expect((await post("login", { email: p.email, password: p.password }, at())).status).toBe(429);
    clock = new Date(clock.getTime() + AUTH_LIMITS.login.pair.windowMs);
    expect((await post("login", { email: p.email, password: p.password }, at())).status).toBe(302);
  });

  it("limits one IP across e-mails, for login and for sign-up", async () => {
    const ip = "203.0.113.77";
    const now = new Date();
    for (let i = 0; i < AUTH_LIMITS.login.ip.limit; i++) {
      await hit(h.db, limitKey("login", "ip", ip), { ...AUTH_LIMITS.login.ip, now });
    }
    const res = await post(
      "login",
      { email: "anyone@example.com", password: "whatever-1" },
      ctx({ ip }),
    );
    expect(res.status).toBe(429);
    for (let i = 0; i < AUTH_LIMITS.signup.ip.limit; i++) {
      await hit(h.db, limitKey("signup", "ip", ip), { ...AUTH_LIMITS.signup.ip, now });
    }
    const p = newPlayer();
    expect((await post("signup", p, ctx({ ip }))).status).toBe(429);
    expect(
      await h.db.select().from(accounts).where(eq(accounts.email, p.email.toLowerCase())),
    ).toEqual([]);
  });
});

describe("logout", () => {
  it("deletes the session in the database, so the old cookie no longer works", async () => {
    const p = newPlayer();
    const signedUp = await post("signup", p, ctx());
    const cookie = cookieOf(signedUp.headers);
    const user = await getUser(request("/", { cookie }), ctx());
    expect(user).not.toBeNull();

    const res = await logout(request("/logout", { form: {}, cookie }), ctx());
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/");
    expect(res.headers.get("Set-Cookie")).toMatch(/gf_session=;.*Max-Age=0/);
    expect(await h.db.select().from(sessions).where(eq(sessions.accountId, user!.id))).toEqual([]);
    // Replaying the old cookie (a stolen copy, say) gets nobody.
    expect(await getUser(request("/", { cookie }), ctx())).toBeNull();
  });

  it("is harmless for a visitor", async () => {
    const res = await logout(request("/logout", { form: {} }), ctx());
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/");
  });
});
