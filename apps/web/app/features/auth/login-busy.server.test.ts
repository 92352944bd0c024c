// A burst of password checks never makes everyone wait: past a few places in the queue of hashes
// a login, a sign-up or a password change is answered 429 at once, saying when to try again
// (docs/decisions/0150-abuse-proof-load.md).
import { accounts } from "@game/db";
import { createTestDb, type DbHandle } from "@game/db/testing";
import type { AppLoadContext } from "@remix-run/node";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { hashPassword, passwordWork } from "~/utils/password.server";
import { cookieFor, makeUser, request, testContext } from "../../../tests/support/context";
import { changePasswordAction } from "../account/account.server";
import { WRONG_CREDENTIALS } from "./auth-result";
import { authAction } from "./login.server";

let h: DbHandle;
beforeAll(async () => {
  h = await createTestDb();
});
afterAll(() => h.close());

const ctx = (ip: string): AppLoadContext => ({ ...testContext(h.db), clientIp: ip });

async function answer(result: unknown) {
  if (result instanceof Response)
    return { status: result.status, headers: result.headers, data: null };
  const r = result as { data: unknown; init?: { status?: number; headers?: HeadersInit } };
  return { status: r.init?.status ?? 200, headers: new Headers(r.init?.headers), data: r.data };
}

const login = (ip: string, email = "nobody@example.com") =>
  authAction(
    "login",
    request("/login", { form: { email, password: "not-the-password" } }),
    ctx(ip),
  ).then(answer);

/** Takes places in the queue of hashes with work the test ends (`release`). */
let held: Array<() => void> = [];
function hold(places: number, key?: string) {
  for (let i = 0; i < places; i++) {
    let release!: () => void;
    const done = new Promise<void>((resolve) => {
      release = resolve;
    });
    passwordWork.run(() => done, { key }).catch(() => {});
    held.push(release);
  }
}
afterEach(() => {
  for (const release of held) release();
  held = [];
});

const BUSY =
  /^Too many sign-ins at this moment\. Please wait (a second|\d+ seconds) and try again\.$/;

describe("password checks under a burst", () => {
  it("checks two failed logins of one client at a time and refuses the rest at once with 429 and Retry-After", async () => {
    const answers = await Promise.all(Array.from({ length: 6 }, () => login("203.0.113.7")));
    const refused = answers.filter((a) => a.status === 429);
    expect(answers.filter((a) => a.status === 401)).toHaveLength(2);
    expect(refused).toHaveLength(4);
    for (const a of refused) {
      expect(Number(a.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
      expect((a.data as { formError: string }).formError).toMatch(BUSY);
    }
    // Nothing is left queued.
    expect([passwordWork.running, passwordWork.waiting]).toEqual([0, 0]);
  });

  it("answers 429 with Retry-After when every place is taken, and creates no account", async () => {
    hold(20);
    const refused = await login("203.0.113.8");
    expect(refused.status).toBe(429);
    expect((refused.data as { formError: string }).formError).toMatch(BUSY);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);

    const email = "burst-signup@example.com";
    const signup = await authAction(
      "signup",
      request("/signup", { form: { email, password: "fast-and-loose", username: "Burst_Rider" } }),
      ctx("203.0.113.8"),
    ).then(answer);
    expect(signup.status).toBe(429);
    expect(signup.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect(await h.db.select().from(accounts).where(eq(accounts.email, email))).toEqual([]);
  });

  it("refuses busy attempts before counting them: nothing was checked, so no limit is used up", async () => {
    hold(20);
    for (let i = 0; i < 35; i++) expect((await login("203.0.113.12")).status).toBe(429);
    for (const release of held) release();
    held = [];
    // Past the 30 attempts per address a counted burst would have used up.
    const checked = await login("203.0.113.12");
    expect(checked.status).toBe(401);
    expect(checked.data).toMatchObject({ formError: WRONG_CREDENTIALS });
  });

  it("still checks another client while one holds its share of the places", async () => {
    hold(2, "203.0.113.9");
    expect((await login("203.0.113.9")).status).toBe(429);
    const other = login("203.0.113.10");
    for (const release of held) release();
    const res = await other;
    expect(res.status).toBe(401);
    expect(res.data).toMatchObject({ formError: WRONG_CREDENTIALS });
  });

  it("answers a password change 429 with Retry-After, changing nothing", async () => {
    const user = await makeUser(h.db);
    const context = ctx("203.0.113.11");
    const cookie = await cookieFor(context, user);
    const cheap = await hashPassword("whatever", { N: 1024, r: 8, p: 1 });
    await h.db.update(accounts).set({ passwordHash: cheap }).where(eq(accounts.id, user.id));
    hold(20);
    const res = await answer(
      await changePasswordAction(
        request("/account", {
          cookie,
          form: { intent: "change-password", current: "whatever", password: "a-new-long-password" },
        }),
        context,
      ),
    );
    expect(res.status).toBe(429);
    expect(res.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect((res.data as { formError: string }).formError).toMatch(BUSY);
    const [after] = await h.db.select().from(accounts).where(eq(accounts.id, user.id));
    expect(after!.passwordHash).toBe(cheap);
  });
});
