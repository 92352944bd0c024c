import { appKeys, remindersOff, unsubscribeToken } from "@game/db";
import { createTestDb, type DbHandle } from "@game/db/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { cookieFor, makeUser, request, testContext } from "../../tests/support/context";
import * as account from "./account_.reminders";
import * as unsubscribe from "./reminders.unsubscribe";

let h: DbHandle;
let ctx: ReturnType<typeof testContext>;
let key: string;

beforeAll(async () => {
  h = await createTestDb();
  ctx = testContext(h.db);
  const [row] = await h.db.select().from(appKeys);
  key = row!.value;
});
afterAll(() => h.close());

const status = (v: unknown) =>
  v instanceof Response ? v.status : ((v as { init?: { status?: number } }).init?.status ?? 200);
const body = (v: unknown) => ((v as { data?: unknown }).data ?? v) as { ok: boolean; on: boolean };

const linkOf = (userId: number) =>
  `/reminders/unsubscribe?u=${userId}&t=${unsubscribeToken(key, userId)}`;

/** Opening the link, as a browser or a mail scanner does. */
const open = async (link: string) =>
  body(await unsubscribe.loader({ request: request(link), context: ctx, params: {} }));
/** A POST to the link: the page's button, or a mail app's one-click unsubscribe. */
const post = async (link: string, form: Record<string, string>) =>
  body(
    await unsubscribe.action({
      request: request(link, { method: "POST", form }),
      context: ctx,
      params: {},
    }),
  );

async function accountSays(user: Awaited<ReturnType<typeof makeUser>>): Promise<boolean> {
  const cookie = await cookieFor(ctx, user);
  const page = (await account.loader({
    request: request("/account/reminders", { cookie }),
    context: ctx,
    params: {},
  })) as { on: boolean };
  return page.on;
}

it("opening the link changes nothing, however often (mail scanners prefetch links)", async () => {
  const user = await makeUser(h.db);
  const link = linkOf(user.id);
  const first = await open(link);
  expect(await remindersOff(h.db, user.id)).toBe(false);
  expect(first).toEqual({ ok: true, on: true });
  expect(await open(link)).toEqual({ ok: true, on: true });
  expect(await remindersOff(h.db, user.id)).toBe(false);

  await post(link, { intent: "unsubscribe" });
  expect(await open(link)).toEqual({ ok: true, on: false });
  expect(await open(link)).toEqual({ ok: true, on: false });
  expect(await remindersOff(h.db, user.id)).toBe(true);
});

it("turns off, then back on: the page and the account both say on, and a reload keeps it", async () => {
  const user = await makeUser(h.db);
  const link = linkOf(user.id);
  expect(await post(link, { intent: "unsubscribe" })).toEqual({ ok: true, on: false });
  expect(await accountSays(user)).toBe(false);

  expect(await post(link, { intent: "resubscribe" })).toEqual({ ok: true, on: true });
  // What the page shows after the POST (Remix loads it again) and after a reload.
  const shown = await open(link);
  const reloaded = await open(link);
  expect(await remindersOff(h.db, user.id)).toBe(false);
  expect(await accountSays(user)).toBe(true);
  expect(shown).toEqual({ ok: true, on: true });
  expect(reloaded).toEqual({ ok: true, on: true });
  // The same POST again (a browser resubmitting on reload) is no toggle.
  expect(await post(link, { intent: "resubscribe" })).toEqual({ ok: true, on: true });
  expect(await remindersOff(h.db, user.id)).toBe(false);
});

it("turns off with the mail app's one-click POST (RFC 8058), no session needed", async () => {
  const user = await makeUser(h.db);
  const link = linkOf(user.id);
  const oneClick = new Request(`http://localhost${link}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: "List-Unsubscribe=One-Click",
  });
  expect(body(await unsubscribe.action({ request: oneClick, context: ctx, params: {} }))).toEqual({
    ok: true,
    on: false,
  });
  expect(await remindersOff(h.db, user.id)).toBe(true);
  expect(await open(link)).toEqual({ ok: true, on: false });

  // Undone in the account.
  const cookie = await cookieFor(ctx, user);
  await account.action({
    request: request("/account/reminders", { method: "POST", cookie, form: { reminders: "on" } }),
    context: ctx,
    params: {},
  });
  expect(await remindersOff(h.db, user.id)).toBe(false);
  expect(await open(link)).toEqual({ ok: true, on: true });
});

it("refuses a forged link, opened or posted, and changes nothing", async () => {
  const user = await makeUser(h.db);
  const forged = `/reminders/unsubscribe?u=${user.id}&t=${"0".repeat(32)}`;
  expect(
    status(await unsubscribe.loader({ request: request(forged), context: ctx, params: {} })),
  ).toBe(400);
  const posted = await unsubscribe.action({
    request: request(forged, { method: "POST", form: { "List-Unsubscribe": "One-Click" } }),
    context: ctx,
    params: {},
  });
  expect(status(posted)).toBe(400);
  expect(await remindersOff(h.db, user.id)).toBe(false);
});
