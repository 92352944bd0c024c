import { users } from "@game/db";
import { createTestDb, type DbHandle } from "@game/db/testing";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cookieFor, makeUser, request, testContext } from "../../tests/support/context";
import { getUser, requireAdmin, requireUser } from "./auth.server";

let h: DbHandle;
beforeAll(async () => {
  h = await createTestDb();
});
afterAll(() => h.close());

describe("auth helpers", () => {
  it("finds the signed-in player from the cookie, and nobody without one", async () => {
    const ctx = testContext(h.db);
    const user = await makeUser(h.db);
    const cookie = await cookieFor(ctx, user);
    expect((await getUser(request("/", { cookie }), ctx))?.id).toBe(user.id);
    expect(await getUser(request("/"), ctx)).toBeNull();
    expect(await getUser(request("/", { cookie: "gf_session=forged" }), ctx)).toBeNull();
  });

  it("redirects a visitor to log in and back", async () => {
    const ctx = testContext(h.db);
    const thrown = await requireUser(request("/team-setup?game=5"), ctx).catch((e) => e);
    expect(thrown).toBeInstanceOf(Response);
    expect(thrown.status).toBe(302);
    expect(thrown.headers.get("Location")).toBe("/?login=1&redirectTo=%2Fteam-setup%3Fgame%3D5");
  });

  it("gives players 403 on admin pages and lets admins in", async () => {
    const ctx = testContext(h.db);
    const player = await makeUser(h.db);
    const admin = await makeUser(h.db, { role: "admin" });
    const refused = await requireAdmin(
      request("/admin", { cookie: await cookieFor(ctx, player) }),
      ctx,
    ).catch((e) => e);
    expect(refused.status).toBe(403);
    const ok = await requireAdmin(request("/admin", { cookie: await cookieFor(ctx, admin) }), ctx);
    expect(ok.id).toBe(admin.id);
  });

  it("treats a blocked (not accepted) player as signed out", async () => {
    const ctx = testContext(h.db);
    const user = await makeUser(h.db);
    const cookie = await cookieFor(ctx, user);
    await h.db.update(users).set({ accepted: false }).where(eq(users.id, user.id));
    expect(await getUser(request("/", { cookie }), ctx)).toBeNull();
  });

  it("looks the session up once for a page's loaders, and again for each action's", async () => {
    const user = await makeUser(h.db);
    const plain = testContext(h.db);
    const cookie = await cookieFor(plain, user);
    // A page request: the root's and the page's loaders share one lookup.
    const page = { ...plain, viewer: {} };
    const first = getUser(request("/", { cookie }), page);
    expect(getUser(request("/team-setup", { cookie }), page)).toBe(first);
    expect((await first)?.id).toBe(user.id);
    // Signed out meanwhile (blocked): the page's shared answer stands, a fresh lookup sees it.
    await h.db.update(users).set({ accepted: false }).where(eq(users.id, user.id));
    expect((await getUser(request("/", { cookie }), page))?.id).toBe(user.id);
    expect(await getUser(request("/", { cookie }), plain)).toBeNull();
    expect(await getUser(request("/", { cookie }), { ...plain, viewer: {} })).toBeNull();
  });
});
