import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "../client.js";
import { createTestDb } from "../testing.js";
import { grantAdmin, revokeAdmin } from "./admin-users.js";
import { AdminActionError, CLI_ACTOR, listAudit, webActor } from "./audit.js";
import { createAccount } from "./users.js";

let h: DbHandle;
beforeAll(async () => {
  h = await createTestDb();
});
afterAll(() => h.close());

const user = (username: string) =>
  createAccount(h.db, {
    username,
    email: `${username}@example.com`,
    passwordHash: "test:unusable",
  });

describe("revokeAdmin", () => {
  it("demotes an admin once, audited, and never the last admin", async () => {
    const a = await user("first_admin");
    const b = await user("second_admin");
    await grantAdmin(h.db, { id: a.id }, CLI_ACTOR);
    await grantAdmin(h.db, { id: b.id }, CLI_ACTOR);

    // An admin on the dashboard cannot demote themselves.
    await expect(revokeAdmin(h.db, { id: a.id }, webActor(a))).rejects.toThrow(
      "You cannot remove your own admin rights",
    );
    const r = await revokeAdmin(h.db, { email: "FIRST_ADMIN@example.com" }, webActor(b));
    expect(r).toMatchObject({ changed: true, user: { id: a.id, role: "player" } });
    expect((await revokeAdmin(h.db, { id: a.id }, CLI_ACTOR)).changed).toBe(false);

    const last = revokeAdmin(h.db, { id: b.id }, CLI_ACTOR);
    await expect(last).rejects.toThrow(AdminActionError);
    await expect(revokeAdmin(h.db, { id: b.id }, CLI_ACTOR)).rejects.toThrow(
      "second_admin@example.com is the last admin and cannot be removed",
    );
    const { rows } = await listAudit(h.db, { action: "user.revoke-admin" });
    expect(rows.map((e) => e.target)).toEqual([`user:${a.id}`]);
  });

  it("two admins revoking each other at once leave one admin", async () => {
    const c = await user("third_admin");
    const d = await user("fourth_admin");
    await grantAdmin(h.db, { id: c.id }, CLI_ACTOR);
    await grantAdmin(h.db, { id: d.id }, CLI_ACTOR);
    // second_admin is still an admin from the test above: make these two the only others.
    const results = await Promise.allSettled([
      revokeAdmin(h.db, { id: c.id }, webActor(d)),
      revokeAdmin(h.db, { id: d.id }, webActor(c)),
      revokeAdmin(h.db, { email: "second_admin@example.com" }, CLI_ACTOR),
    ]);
    expect(results.filter((x) => x.status === "fulfilled")).toHaveLength(2);
  });
});
