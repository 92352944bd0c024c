import {
  accounts,
  embedTokens,
  listOutbox,
  partners,
  passwordResetTokens,
  sessions,
} from "@game/db";
import { createTestDb, type DbHandle } from "@game/db/testing";
import type { AppLoadContext } from "@remix-run/node";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authAction } from "~/features/auth/login.server";
import { action as accountAction, loader as accountLoader } from "~/routes/account";
import { loader as loginLoader } from "~/routes/login";
import { afterResponseSettled } from "~/utils/after-response.server";
import { getUser } from "~/utils/auth.server";
import { closeMailTransports } from "~/utils/mailer.server";
import { AUTH_LIMITS, RESET_MAILS_PER_EMAIL } from "~/utils/rate-limit.server";
import { cookieFor, makeUser, request, testContext } from "../../../tests/support/context";
import { startSmtpSink } from "../../../tests/support/smtp-sink";
import {
  changePasswordAction,
  forgotPasswordAction,
  resetPasswordAction,
  resetPasswordLoader,
  signOutEverywhere,
} from "./account.server";
import {
  PASSWORD_CHANGED,
  PASSWORD_RESET_DONE,
  PASSWORD_RESET_LOGIN,
  RESET_LINK_INVALID,
  RESET_LINK_SENT,
  WRONG_CURRENT_PASSWORD,
} from "./messages";

let h: DbHandle;
beforeAll(async () => {
  h = await createTestDb();
});
afterAll(async () => {
  closeMailTransports();
  await h.close();
});

const PUBLIC = "https://play.example.org";
let ipCounter = 0;
function ctx(opts: { ip?: string; now?: () => Date; smtpUrl?: string } = {}): AppLoadContext {
  ipCounter += 1;
  const base = testContext(h.db, { now: opts.now });
  return {
    ...base,
    env: { ...base.env, publicUrl: PUBLIC, smtpUrl: opts.smtpUrl },
    clientIp: opts.ip ?? `198.51.100.${ipCounter}`,
  };
}

/** What an action answered, whether a Response (redirect) or `data(...)` with a status. */
async function answer(result: unknown) {
  if (result instanceof Response) {
    return { status: result.status, headers: result.headers, data: null as unknown };
  }
  const r = result as { data?: unknown; init?: { status?: number; headers?: HeadersInit } };
  if (r && typeof r === "object" && "init" in r) {
    return { status: r.init?.status ?? 200, headers: new Headers(r.init?.headers), data: r.data };
  }
  return { status: 200, headers: new Headers(), data: result };
}
const run = (promise: Promise<unknown>) => promise.catch((thrown) => thrown).then(answer);
const cookieOf = (headers: Headers) => headers.get("Set-Cookie")?.split(";")[0] ?? "";

let n = 0;
/** Signs up a player through the real action; returns their details and session cookie. */
async function player() {
  n += 1;
  const p = { username: `acct_${n}`, email: `acct${n}@example.com`, password: `first-pass-${n}x` };
  const res = await run(authAction("signup", request("/signup", { form: p }), ctx()));
  expect(res.status).toBe(302);
  return { ...p, cookie: cookieOf(res.headers) };
}
const login = (email: string, password: string, c = ctx()) =>
  run(authAction("login", request("/login", { form: { email, password } }), c));
/** Asks for a reset link, and waits for the mail that goes out after the answer. */
const forgot = async (email: string, c = ctx()) => {
  const answer = await asked(email, c);
  await afterResponseSettled();
  return answer;
};
/** Asks for a reset link: the answer alone. */
const asked = (email: string, c = ctx()) =>
  run(forgotPasswordAction(request("/forgot-password", { form: { email } }), c));
/** The reset mails to `email` (sign-up also mails the address, to confirm it). */
async function mailsTo(email: string) {
  const { rows } = await listOutbox(h.db, { limit: 200 });
  return rows.filter((r) => r.to === email && r.subject === "Reset your Gravity Fantasy password");
}
const linkIn = (text: string) => text.match(/https?:\/\/\S+/)![0];
const tokenOf = (link: string) => new URL(link).searchParams.get("token")!;

describe("forgot password", () => {
  it("gives the same answer whether or not the e-mail has an account, mailing only the account", async () => {
    const p = await player();
    const known = await forgot(p.email.toUpperCase());
    const unknown = await forgot("nobody-here@example.com");
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(known.status);
    expect(known.data).toMatchObject({ ok: true, message: RESET_LINK_SENT });
    expect({ ...(unknown.data as object), values: null }).toEqual({
      ...(known.data as object),
      values: null,
    });
    expect([...unknown.headers]).toEqual([...known.headers]);

    expect(await mailsTo("nobody-here@example.com")).toEqual([]);
    const [mail] = await mailsTo(p.email);
    expect(mail!.subject).toBe("Reset your Gravity Fantasy password");
    const link = linkIn(mail!.text);
    // Links come from the public URL, never from the request's Host.
    expect(link).toMatch(new RegExp(`^${PUBLIC}/reset-password\\?token=[A-Za-z0-9_-]{43}$`));
    expect(mail!.html).toContain(tokenOf(link));
  });

  it("answers before looking the address up: a slow mail server delays no answer and times none", async () => {
    const sink = await startSmtpSink({ hold: true });
    // As the server does: work queued by a request starts once its response is sent.
    const sent: Array<() => void> = [];
    try {
      const p = await player();
      const c = () => ({
        ...ctx({ smtpUrl: sink.url }),
        afterResponse: (s: () => void) => sent.push(s),
      });
      const known = asked(p.email, c());
      // The mail server holds its reply until released: the answer comes while it waits,
      // not after the transaction (which is how the old timing told who has an account).
      const first = await Promise.race([
        known.then(() => "answer"),
        sink.waitFor(p.email).then(() => "smtp"),
      ]);
      expect(first).toBe("answer");
      // When it answered nothing was looked up or written: no link, no mail yet, exactly as
      // for an address without an account.
      const [account] = await h.db.select().from(accounts).where(eq(accounts.email, p.email));
      const links = () =>
        h.db
          .select()
          .from(passwordResetTokens)
          .where(eq(passwordResetTokens.accountId, account!.id));
      expect(await links()).toEqual([]);
      expect(await mailsTo(p.email)).toEqual([]);
      const unknown = await asked("not-a-player@example.com", c());
      expect(sent).toHaveLength(2);
      expect((await known).status).toBe(200);
      expect(unknown.status).toBe(200);
      expect({ ...(unknown.data as object), values: null }).toEqual({
        ...((await known).data as object),
        values: null,
      });

      // Once the responses are out the mail goes out, is delivered when the mail server
      // replies, and its stored copy loses the live link.
      for (const start of sent) start();
      const received = await sink.waitFor(p.email);
      expect(received.subject).toBe("Reset your Gravity Fantasy password");
      sink.release();
      await afterResponseSettled();
      expect(await links()).toHaveLength(1);
      const [mail] = await mailsTo(p.email);
      expect(mail!.sentAt).not.toBeNull();
      expect(mail!.text).not.toContain(tokenOf(linkIn(received.text)));
      expect(sink.messages.filter((m) => m.to.includes("not-a-player@example.com"))).toEqual([]);
    } finally {
      for (const start of sent) start();
      sink.release();
      await afterResponseSettled();
      await sink.close();
    }
  });

  it("explains a malformed e-mail and ignores a bot", async () => {
    const bad = await forgot("not-an-email");
    expect(bad.status).toBe(400);
    expect(bad.data).toMatchObject({ fieldErrors: { email: "Enter a valid e-mail address." } });
    const bot = await run(
      forgotPasswordAction(
        request("/forgot-password", { form: { email: "x@example.com", leave_blank: "spam" } }),
        ctx(),
      ),
    );
    expect(bot.status).toBe(302);
    expect(await mailsTo("x@example.com")).toEqual([]);
  });

  it("mails one address at most 3 times an hour, answering as usual; limits each client with 429", async () => {
    const p = await player();
    // Someone else asks in the owner's name, many times: the owner gets 3 mails, no more, and
    // is never refused (those links work).
    for (let i = 0; i < RESET_MAILS_PER_EMAIL.limit + 2; i++) {
      const res = await forgot(p.email);
      expect(res.status).toBe(200);
      expect(res.data).toMatchObject({ ok: true, message: RESET_LINK_SENT });
    }
    const mails = await mailsTo(p.email);
    expect(mails).toHaveLength(RESET_MAILS_PER_EMAIL.limit);
    const token = tokenOf(linkIn(mails[0]!.text));
    const page = await run(resetPasswordLoader(request(`/reset-password?token=${token}`), ctx()));
    expect(page.data).toEqual({ valid: true, token });

    const ip = "203.0.113.200";
    for (let i = 0; i < AUTH_LIMITS.forgot.ip.limit; i++) {
      expect((await forgot(`spread-${i}@example.com`, ctx({ ip }))).status).toBe(200);
    }
    const over = await forgot("one-more@example.com", ctx({ ip }));
    expect(over.status).toBe(429);
    expect(Number(over.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(over.data).toMatchObject({ formError: expect.stringMatching(/^Too many attempts/) });
  });
});

describe("reset password", () => {
  async function resetLink(email: string) {
    await forgot(email);
    const [mail] = await mailsTo(email);
    return linkIn(mail!.text);
  }
  const setPassword = (token: string, password: string, c = ctx()) =>
    run(
      resetPasswordAction(
        request(`/reset-password?token=${token}`, { form: { token, password } }),
        c,
      ),
    );

  it("sets a new password once, ends every session, and the new password logs in", async () => {
    const p = await player();
    const other = await login(p.email, p.password);
    const token = tokenOf(await resetLink(p.email));

    const page = await run(resetPasswordLoader(request(`/reset-password?token=${token}`), ctx()));
    expect(page.data).toEqual({ valid: true, token });

    const weak = await setPassword(token, "password123");
    expect(weak.status).toBe(400);
    expect(weak.data).toMatchObject({
      fieldErrors: {
        password:
          "That password is on the list of common passwords attackers try first. Choose another one.",
      },
    });

    // Saved: on to the login page (303), which says so with 200; the used link is not
    // checked again on the way (it answered 400 there before).
    const done = await setPassword(token, "brand-new-berms-7");
    expect(done.status).toBe(303);
    expect(done.headers.get("Location")).toBe(PASSWORD_RESET_LOGIN);
    const landing = await run(
      Promise.resolve(
        loginLoader({ request: request(PASSWORD_RESET_LOGIN), context: ctx(), params: {} }),
      ),
    );
    expect(landing.status).toBe(200);
    expect(landing.data).toEqual({ redirectTo: null, notice: PASSWORD_RESET_DONE });
    const plain = await run(
      Promise.resolve(
        loginLoader({ request: request("/login?reset=x"), context: ctx(), params: {} }),
      ),
    );
    expect(plain.data).toEqual({ redirectTo: null, notice: null });
    expect(await getUser(request("/", { cookie: p.cookie }), ctx())).toBeNull();
    expect(await getUser(request("/", { cookie: cookieOf(other.headers) }), ctx())).toBeNull();

    expect((await login(p.email, p.password)).status).toBe(401);
    expect((await login(p.email, "brand-new-berms-7")).status).toBe(302);

    // Single use: the link is dead now, on the page and in the action.
    const again = await setPassword(token, "another-new-one-8");
    expect(again.status).toBe(400);
    expect(again.data).toMatchObject({ formError: RESET_LINK_INVALID });
    const reload = await run(resetPasswordLoader(request(`/reset-password?token=${token}`), ctx()));
    expect(reload.status).toBe(400);
    expect(reload.data).toEqual({ valid: false, token: null });
  });

  it("refuses a link after one hour and a made-up token", async () => {
    const p = await player();
    const token = tokenOf(await resetLink(p.email));
    const later = () => new Date(Date.now() + 60 * 60 * 1000 + 1000);
    const expired = await setPassword(token, "too-late-for-this", ctx({ now: later }));
    expect(expired.status).toBe(400);
    expect(expired.data).toMatchObject({ formError: RESET_LINK_INVALID });
    expect((await setPassword("made-up-token", "too-late-for-this")).status).toBe(400);
    expect((await login(p.email, p.password)).status).toBe(302);
  });
});

describe("account: change password, sign out everywhere", () => {
  const change = (cookie: string, form: Record<string, string>, c = ctx()) =>
    run(
      changePasswordAction(
        request("/account", { form: { intent: "change-password", ...form }, cookie }),
        c,
      ),
    );

  it("needs the current password and a new one that meets the policy", async () => {
    const p = await player();
    const wrong = await change(p.cookie, {
      current: "not-my-password",
      password: "fresh-lines-99",
    });
    expect(wrong.status).toBe(400);
    expect(wrong.data).toMatchObject({ fieldErrors: { current: WRONG_CURRENT_PASSWORD } });
    const short = await change(p.cookie, { current: p.password, password: "short" });
    expect(short.data).toMatchObject({
      fieldErrors: { password: "Use at least 10 characters for your password." },
    });
    const blank = await change(p.cookie, { current: p.password, password: " ".repeat(12) });
    expect(blank.data).toMatchObject({
      fieldErrors: { password: "A password cannot be only spaces." },
    });
    expect((await login(p.email, p.password)).status).toBe(302);
  });

  it("changes it, keeps this session and ends the others", async () => {
    const p = await player();
    const phone = cookieOf((await login(p.email, p.password)).headers);
    const done = await change(p.cookie, { current: p.password, password: "fresh-lines-99" });
    expect(done.status).toBe(200);
    expect(done.data).toEqual({ ok: true, message: PASSWORD_CHANGED });
    expect((await getUser(request("/", { cookie: p.cookie }), ctx()))?.username).toBe(p.username);
    expect(await getUser(request("/", { cookie: phone }), ctx())).toBeNull();
    expect((await login(p.email, "fresh-lines-99")).status).toBe(302);
  });

  it("sends a visitor to log in", async () => {
    const res = await change("", { current: "x", password: "fresh-lines-99" });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toMatch(/^\/\?login=1/);
  });

  it("signs out everywhere: every session, this one too, and partner iframe tokens", async () => {
    const p = await player();
    const phone = cookieOf((await login(p.email, p.password)).headers);
    const me = await getUser(request("/", { cookie: p.cookie }), ctx());
    const [partner] = await h.db
      .insert(partners)
      .values({
        name: "Everywhere",
        publishableKey: "pk_everywhere",
        origins: ["https://e.example"],
      })
      .returning();
    await h.db.insert(embedTokens).values({
      id: "hash-of-an-iframe-token",
      kind: "session",
      accountId: me!.id,
      partnerId: partner!.id,
      origin: "https://e.example",
      expiresAt: new Date(Date.now() + 3_600_000),
    });

    const res = await run(
      signOutEverywhere(
        request("/account", { form: { intent: "sign-out-everywhere" }, cookie: p.cookie }),
        ctx(),
      ),
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/");
    expect(res.headers.get("Set-Cookie")).toMatch(/gf_session=;.*Max-Age=0/);
    expect(await getUser(request("/", { cookie: p.cookie }), ctx())).toBeNull();
    expect(await getUser(request("/", { cookie: phone }), ctx())).toBeNull();
    expect(await h.db.select().from(sessions).where(eq(sessions.accountId, me!.id))).toEqual([]);
    expect(await h.db.select().from(embedTokens).where(eq(embedTokens.accountId, me!.id))).toEqual(
      [],
    );
    // The password is untouched.
    const [account] = await h.db.select().from(accounts).where(eq(accounts.id, me!.id));
    expect(account!.passwordHash).toMatch(/^scrypt\$/);
    expect((await login(p.email, p.password)).status).toBe(302);
  });
});

describe("the /account route", () => {
  it("shows the player's account and how many devices are signed in; visitors go to log in", async () => {
    const p = await player();
    await login(p.email, p.password);
    const page = await run(
      Promise.resolve(
        accountLoader({
          request: request("/account", { cookie: p.cookie }),
          context: ctx(),
          params: {},
        }),
      ),
    );
    expect(page.data).toEqual({ username: p.username, email: p.email, sessions: 2 });
    const visitor = await run(
      Promise.resolve(accountLoader({ request: request("/account"), context: ctx(), params: {} })),
    );
    expect(visitor.status).toBe(302);
  });

  it("answers 400 to an unknown intent or a body that is not a form", async () => {
    const p = await player();
    const unknown = await run(
      accountAction({
        request: request("/account", { form: { intent: "delete-everything" }, cookie: p.cookie }),
        context: ctx(),
        params: {},
      }),
    );
    expect(unknown.status).toBe(400);
    const json = new Request("http://localhost/account", {
      method: "POST",
      headers: { Origin: "http://localhost", Cookie: p.cookie, "Content-Type": "application/json" },
      body: JSON.stringify({ intent: "sign-out-everywhere" }),
    });
    expect((await run(accountAction({ request: json, context: ctx(), params: {} }))).status).toBe(
      400,
    );
    expect(await getUser(request("/", { cookie: p.cookie }), ctx())).not.toBeNull();
  });
});

describe("session lifetime", () => {
  it("signs nobody in after 7 days without a visit, or 30 days after sign-in", async () => {
    const user = await makeUser(h.db);
    const t0 = new Date("2026-07-01T12:00:00Z");
    const DAY = 24 * 3600 * 1000;
    const at = (days: number) => ctx({ now: () => new Date(t0.getTime() + days * DAY) });
    const idle = await cookieFor(at(0), user);
    expect(await getUser(request("/", { cookie: idle }), at(6.9))).not.toBeNull();
    expect(await getUser(request("/", { cookie: idle }), at(13.8))).not.toBeNull();
    expect(await getUser(request("/", { cookie: idle }), at(20.8))).toBeNull();

    const busy = await cookieFor(at(0), user);
    for (let day = 1; day < 30; day += 3) {
      expect(await getUser(request("/", { cookie: busy }), at(day))).not.toBeNull();
    }
    expect(await getUser(request("/", { cookie: busy }), at(30))).toBeNull();
  });
});
