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

it("turns reminders off with one click (GET or the mail app's POST), back on, and in the account", async () => {
  const user = await makeUser(h.db);
  const link = `/reminders/unsubscribe?u=${user.id}&t=${unsubscribeToken(key, user.id)}`;

  const forged = await unsubscribe.loader({
    request: request(`/reminders/unsubscribe?u=${user.id}&t=${"0".repeat(32)}`),
    context: ctx,
    params: {},
  });
  expect(status(forged)).toBe(400);
  expect(await remindersOff(h.db, user.id)).toBe(false);

  await unsubscribe.loader({ request: request(link), context: ctx, params: {} });
  expect(await remindersOff(h.db, user.id)).toBe(true);

  await unsubscribe.action({
    request: request(link, { method: "POST", form: { intent: "resubscribe" } }),
    context: ctx,
    params: {},
  });
  expect(await remindersOff(h.db, user.id)).toBe(false);

  // RFC 8058 one-click: the mail app posts List-Unsubscribe=One-Click to the header's address.
  await unsubscribe.action({
    request: request(link, { method: "POST", form: { "List-Unsubscribe": "One-Click" } }),
    context: ctx,
    params: {},
  });
  expect(await remindersOff(h.db, user.id)).toBe(true);

  // Undone in the account.
  const cookie = await cookieFor(ctx, user);
  const page = (await account.loader({
    request: request("/account/reminders", { cookie }),
    context: ctx,
    params: {},
  })) as { on: boolean };
  expect(page.on).toBe(false);
  await account.action({
    request: request("/account/reminders", { method: "POST", cookie, form: { reminders: "on" } }),
    context: ctx,
    params: {},
  });
  expect(await remindersOff(h.db, user.id)).toBe(false);
});
