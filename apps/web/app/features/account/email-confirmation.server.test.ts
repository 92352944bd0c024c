/** Confirming a new account's e-mail address through the routes (decision 0151). */
import { outbox, users } from "@game/db";
import { createTestDb, type DbHandle } from "@game/db/testing";
import type { AppLoadContext } from "@remix-run/node";
import { desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authAction } from "~/features/auth/login.server";
import * as route from "~/routes/confirm-email";
import { closeMailTransports } from "~/utils/mailer.server";
import { cookieFor, makeUser, request, testContext } from "../../../tests/support/context";
import { type SmtpSink, startSmtpSink } from "../../../tests/support/smtp-sink";
import { CONFIRMATION_MAILS_PER_HOUR } from "./email-confirmation.server";

let h: DbHandle;
let sink: SmtpSink;
let ip = 0;
beforeAll(async () => {
  [h, sink] = await Promise.all([createTestDb(), startSmtpSink()]);
});
afterAll(async () => {
  closeMailTransports();
  await Promise.all([h?.close(), sink?.close()]);
});

function ctx(opts: { smtp?: boolean } = {}): AppLoadContext {
  ip += 1;
  const base = testContext(h.db);
  return {
    ...base,
    clientIp: `192.0.2.${ip}`,
    env: {
      ...base.env,
      publicUrl: "https://gravity.example",
      ...(opts.smtp ? { smtpUrl: sink.url } : {}),
    },
  };
}

/** What a loader or action answered: a Response, or `data(...)` with its status. */
function answer(result: unknown) {
  if (result instanceof Response) return { status: result.status, data: null as unknown };
  const r = result as { data: unknown; init?: { status?: number } };
  return { status: r.init?.status ?? 200, data: r.data };
}

let n = 0;
async function signUp(context: AppLoadContext, redirectTo?: string) {
  n += 1;
  const email = `newcomer${n}@mail.example`;
  const res = (await authAction(
    "signup",
    request("/signup", {
      form: {
        username: `newcomer${n}`,
        email,
        password: "fast-and-loose-42",
        ...(redirectTo ? { redirectTo } : {}),
      },
    }),
    context,
  )) as Response;
  expect(res.status).toBe(302);
  const cookie = res.headers.get("Set-Cookie")!.split(";")[0]!;
  const [user] = await h.db.select().from(users).where(eq(users.email, email));
  return { email, cookie, user: user! };
}

async function lastMail(to: string) {
  const [row] = await h.db
    .select()
    .from(outbox)
    .where(eq(outbox.to, to))
    .orderBy(desc(outbox.id))
    .limit(1);
  return row!;
}

const linkIn = (text: string) =>
  new URL(/https:\/\/gravity\.example\/confirm-email\?\S+/.exec(text)![0]);

const get = async (context: AppLoadContext, url: URL | string, cookie?: string) => {
  const u = new URL(url, "http://localhost");
  return answer(
    await route.loader({
      request: request(`${u.pathname}${u.search}`, { cookie }),
      context,
      params: {},
    }),
  );
};
const post = async (context: AppLoadContext, form: Record<string, string>, cookie?: string) =>
  answer(
    await route.action({
      request: request("/confirm-email", { form, cookie }),
      context,
      params: {},
    }),
  );

describe("confirming the e-mail address", () => {
  it("mails a sign-up a link; opening it confirms nothing, its button does, once", async () => {
    const context = ctx();
    const { email, user } = await signUp(context, "/leagues/7/invitation");
    expect(user.emailConfirmedAt).toBeNull();
    const mail = await lastMail(email);
    expect(mail.subject).toBe("Confirm your e-mail address for Gravity Fantasy");
    const link = linkIn(mail.text);
    expect(link.searchParams.get("next")).toBe("/leagues/7/invitation");

    // A mail scanner, or the player, opens the link: the page asks, nothing changes.
    const page = await get(context, link);
    expect(page).toMatchObject({
      status: 200,
      data: { state: "ready", email, username: user.username, next: "/leagues/7/invitation" },
    });
    const [still] = await h.db.select().from(users).where(eq(users.id, user.id));
    expect(still!.emailConfirmedAt).toBeNull();

    // Signed out (the mail opened on another device) is fine: the token is the proof.
    const done = await post(context, { intent: "confirm", token: link.searchParams.get("token")! });
    expect(done).toMatchObject({ status: 200, data: { ok: true } });
    const [row] = await h.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.emailConfirmedAt).toBeInstanceOf(Date);

    const again = await post(context, {
      intent: "confirm",
      token: link.searchParams.get("token")!,
    });
    expect(again).toMatchObject({ status: 400, data: { ok: false } });
    expect((await get(context, link)).status).toBe(400);
    // The page itself (no token: after confirming, or to ask again) is an ordinary page.
    expect((await get(context, "/confirm-email")).status).toBe(200);
  });

  it("never sends the player off-site afterwards", async () => {
    const context = ctx();
    const { email } = await signUp(context, "/game/5");
    const link = linkIn((await lastMail(email)).text);
    link.searchParams.set("next", "//evil.example/x");
    expect((await get(context, link)).data).toMatchObject({ state: "ready", next: "" });
    const done = await post(context, {
      intent: "confirm",
      token: link.searchParams.get("token")!,
      next: "/.//evil.example",
    });
    expect(done.data).toMatchObject({ ok: true, next: "" });
  });

  it("delivered by SMTP, the outbox copy keeps no live token", async () => {
    const context = ctx({ smtp: true });
    const { email } = await signUp(context);
    const received = await sink.waitFor(email);
    const token = linkIn(received.text).searchParams.get("token")!;
    expect((await lastMail(email)).text).not.toContain(token);
    expect((await get(context, linkIn(received.text))).data).toMatchObject({ state: "ready" });
  });

  it(`sends a new link on request, ${CONFIRMATION_MAILS_PER_HOUR.limit} mails an hour at most`, async () => {
    const context = ctx();
    const { email, cookie } = await signUp(context);
    // The sign-up's mail counts: two more, then a wait.
    for (let i = 1; i < CONFIRMATION_MAILS_PER_HOUR.limit; i++) {
      const sent = await post(context, { intent: "resend", redirectTo: "/game/5" }, cookie);
      expect(sent).toMatchObject({ status: 200, data: { ok: true, next: "/game/5" } });
    }
    const refused = await post(context, { intent: "resend" }, cookie);
    expect(refused.status).toBe(429);
    const mails = await h.db.select().from(outbox).where(eq(outbox.to, email));
    expect(mails).toHaveLength(CONFIRMATION_MAILS_PER_HOUR.limit);
    // Every link sent works until one is used.
    const first = linkIn(mails[0]!.text).searchParams.get("token")!;
    expect((await post(context, { intent: "confirm", token: first })).data).toMatchObject({
      ok: true,
    });
  });

  it("tells a confirmed player so instead of mailing them", async () => {
    const context = ctx();
    const longtime = await makeUser(h.db);
    const cookie = await cookieFor(context, longtime);
    const r = await post(context, { intent: "resend" }, cookie);
    expect(r.data).toMatchObject({
      ok: true,
      message: "Your e-mail address is already confirmed.",
    });
    expect(await h.db.select().from(outbox).where(eq(outbox.to, longtime.email))).toEqual([]);
    expect((await get(context, "/confirm-email", cookie)).data).toMatchObject({
      state: "invalid",
      confirmed: true,
    });
  });
});
