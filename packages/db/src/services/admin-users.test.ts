import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "../client.js";
import { createTestDb } from "../testing.js";
import { acceptUser, blockUser, grantAdmin, listUsersForAdmin } from "./admin-users.js";
import { AdminActionError, CLI_ACTOR, listAudit, webActor } from "./audit.js";
import { createSession, getSession } from "./sessions.js";
import { createAccount, getUserById } from "./users.js";

let h: DbHandle;
beforeAll(async () => {
  h = await createTestDb();
});
afterAll(() => h.close());

let n = 0;
function user(name?: string) {
  n += 1;
  const username = name ?? `rider_${n}`;
  return createAccount(h.db, {
    username,
    email: `${username.toLowerCase()}@example.com`,
    passwordHash: "test:unusable",
  });
}

describe("listUsersForAdmin", () => {
  it("lists in sign-up order and searches e-mail and username, wildcards literal", async () => {
    const a = await user("Search_Me");
    const b = await user("SearchXMe");
    const all = await listUsersForAdmin(h.db);
    expect(all.rows.map((r) => r.id)).toEqual([...all.rows.map((r) => r.id)].sort((x, y) => x - y));
    const found = await listUsersForAdmin(h.db, { q: "search_" });
    expect(found.rows.map((r) => r.id)).toEqual([a.id]);
    expect(found.total).toBe(1);
    expect((await listUsersForAdmin(h.db, { q: "SEARCHXME@EXAMPLE" })).rows[0]?.id).toBe(b.id);
    const page = await listUsersForAdmin(h.db, { limit: 1, offset: 1 });
    expect(page.rows).toHaveLength(1);
    expect(page.total).toBe(all.total);
  });
});

describe("grantAdmin", () => {
  it("makes a user admin by e-mail, once, and records it", async () => {
    const u = await user();
    const r = await grantAdmin(h.db, { email: ` ${u.email.toUpperCase()} ` }, CLI_ACTOR);
    expect(r).toMatchObject({ changed: true, user: { id: u.id, role: "admin" } });
    expect((await grantAdmin(h.db, { id: u.id }, CLI_ACTOR)).changed).toBe(false);
    const { rows } = await listAudit(h.db, { action: "user.grant-admin" });
    expect(rows.filter((e) => e.target === `user:${u.id}`)).toHaveLength(1);
  });

  it("refuses an unknown user", async () => {
    await expect(grantAdmin(h.db, { email: "nobody@example.com" }, CLI_ACTOR)).rejects.toThrow(
      "No user with e-mail nobody@example.com.",
    );
    await expect(grantAdmin(h.db, { id: -4 }, CLI_ACTOR)).rejects.toThrow(AdminActionError);
  });
});

describe("blockUser and acceptUser", () => {
  it("blocks: not accepted, every session ended; accept lets them back", async () => {
    const u = await user();
    const s1 = await createSession(h.db, u.id);
    const s2 = await createSession(h.db, u.id);
    const admin = await user();
    const r = await blockUser(h.db, { id: u.id }, webActor(admin));
    expect(r).toMatchObject({ changed: true, user: { accepted: false } });
    expect(await getSession(h.db, s1.token)).toBeNull();
    expect(await getSession(h.db, s2.token)).toBeNull();
    expect((await listAudit(h.db, { action: "user.block" })).rows[0]).toMatchObject({
      actor: `web:${admin.email}`,
      actorId: admin.id,
      target: `user:${u.id}`,
    });
    expect((await acceptUser(h.db, { email: u.email }, CLI_ACTOR)).changed).toBe(true);
    expect((await getUserById(h.db, u.id))?.accepted).toBe(true);
    expect((await acceptUser(h.db, { email: u.email }, CLI_ACTOR)).changed).toBe(false);
  });

  it("still ends sessions when the user was already blocked", async () => {
    const u = await user();
    await blockUser(h.db, { id: u.id }, CLI_ACTOR);
    const late = await createSession(h.db, u.id);
    expect((await blockUser(h.db, { id: u.id }, CLI_ACTOR)).changed).toBe(false);
    expect(await getSession(h.db, late.token)).toBeNull();
  });

  it("does not let an admin block themselves", async () => {
    const admin = await user();
    await expect(blockUser(h.db, { id: admin.id }, webActor(admin))).rejects.toThrow(
      "You cannot block yourself.",
    );
    expect((await getUserById(h.db, admin.id))?.accepted).toBe(true);
  });
});
