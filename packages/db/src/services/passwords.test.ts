import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "../client.js";
import { accounts, passwordResetTokens } from "../schema/index.js";
import { createTestDb } from "../testing.js";
import {
  changePassword,
  createPasswordReset,
  findPasswordReset,
  PASSWORD_RESET_TTL_MS,
  purgeExpiredPasswordResets,
  resetPassword,
} from "./passwords.js";
import { createSession, getSession, hashToken } from "./sessions.js";
import { createAccount } from "./users.js";

let h: DbHandle;
beforeAll(async () => {
  h = await createTestDb();
});
afterAll(() => h.close());

let n = 0;
const newUser = () => {
  n += 1;
  return createAccount(h.db, {
    username: `p${n}`,
    email: `p${n}@example.com`,
    passwordHash: "old-hash",
  });
};
const t0 = new Date("2026-04-01T08:00:00Z");
const at = (ms: number) => new Date(t0.getTime() + ms);
const hashOf = async (id: number) =>
  (await h.db.select().from(accounts).where(eq(accounts.id, id)))[0]!.passwordHash;

describe("password reset tokens", () => {
  it("stores only the token's SHA-256 and finds the account for one hour", async () => {
    const user = await newUser();
    const { token, expiresAt } = await createPasswordReset(h.db, user.id, { now: t0 });
    expect(PASSWORD_RESET_TTL_MS).toBe(3600 * 1000);
    expect(expiresAt).toEqual(at(PASSWORD_RESET_TTL_MS));
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const rows = await h.db
      .select()
      .from(passwordResetTokens)
      .where(eq(passwordResetTokens.accountId, user.id));
    expect(rows.map((r) => r.id)).toEqual([hashToken(token)]);
    expect(JSON.stringify(rows)).not.toContain(token);

    expect(await findPasswordReset(h.db, token, at(PASSWORD_RESET_TTL_MS - 1))).toEqual({
      accountId: user.id,
      email: user.email,
    });
    expect(await findPasswordReset(h.db, token, at(PASSWORD_RESET_TTL_MS))).toBeNull();
    expect(await findPasswordReset(h.db, hashToken(token), t0)).toBeNull();
    expect(await findPasswordReset(h.db, "", t0)).toBeNull();
    expect(await findPasswordReset(h.db, "x".repeat(5000), t0)).toBeNull();
  });

  it("refuses an expired token and changes nothing", async () => {
    const user = await newUser();
    const { token } = await createPasswordReset(h.db, user.id, { now: t0 });
    expect(await resetPassword(h.db, token, "new-hash", { now: at(PASSWORD_RESET_TTL_MS) })).toBe(
      null,
    );
    expect(await hashOf(user.id)).toBe("old-hash");
  });

  it("works once, ends every session and every other reset link of the account", async () => {
    const user = await newUser();
    const bystander = await newUser();
    const phone = await createSession(h.db, user.id, { now: t0 });
    const laptop = await createSession(h.db, user.id, { now: t0 });
    const theirs = await createSession(h.db, bystander.id, { now: t0 });
    const older = await createPasswordReset(h.db, user.id, { now: t0 });
    const { token } = await createPasswordReset(h.db, user.id, { now: t0 });

    expect(await resetPassword(h.db, token, "new-hash", { now: at(60_000) })).toEqual({
      accountId: user.id,
    });
    expect(await hashOf(user.id)).toBe("new-hash");
    expect(await getSession(h.db, phone.token, at(60_000))).toBeNull();
    expect(await getSession(h.db, laptop.token, at(60_000))).toBeNull();
    expect(await getSession(h.db, theirs.token, at(60_000))).not.toBeNull();

    // Single use: the same link again, or the older one, does nothing.
    expect(await resetPassword(h.db, token, "evil-hash", { now: at(120_000) })).toBeNull();
    expect(await resetPassword(h.db, older.token, "evil-hash", { now: at(120_000) })).toBeNull();
    expect(await findPasswordReset(h.db, token, at(120_000))).toBeNull();
    expect(await hashOf(user.id)).toBe("new-hash");
  });

  it("lets exactly one of two concurrent uses win", async () => {
    const user = await newUser();
    const { token } = await createPasswordReset(h.db, user.id, { now: t0 });
    const results = await Promise.all([
      resetPassword(h.db, token, "hash-a", { now: t0 }),
      resetPassword(h.db, token, "hash-b", { now: t0 }),
    ]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await hashOf(user.id)).toBe(results[0] ? "hash-a" : "hash-b");
  });

  it("purges expired and used tokens, keeps live ones", async () => {
    const user = await newUser();
    const expired = await createPasswordReset(h.db, user.id, { now: at(-PASSWORD_RESET_TTL_MS) });
    const live = await createPasswordReset(h.db, user.id, { now: t0 });
    expect(await purgeExpiredPasswordResets(h.db, t0)).toBeGreaterThanOrEqual(1);
    const ids = (
      await h.db
        .select({ id: passwordResetTokens.id })
        .from(passwordResetTokens)
        .where(eq(passwordResetTokens.accountId, user.id))
    ).map((r) => r.id);
    expect(ids).toEqual([hashToken(live.token)]);
    expect(ids).not.toContain(hashToken(expired.token));
  });
});

describe("changePassword", () => {
  it("replaces the hash, keeps the asking session, ends the others and any reset link", async () => {
    const user = await newUser();
    const here = await createSession(h.db, user.id, { now: t0 });
    const elsewhere = await createSession(h.db, user.id, { now: t0 });
    const link = await createPasswordReset(h.db, user.id, { now: t0 });

    expect(await changePassword(h.db, user.id, "changed-hash", { keepToken: here.token })).toEqual({
      endedSessions: 1,
    });
    expect(await hashOf(user.id)).toBe("changed-hash");
    expect(await getSession(h.db, here.token, t0)).not.toBeNull();
    expect(await getSession(h.db, elsewhere.token, t0)).toBeNull();
    expect(await findPasswordReset(h.db, link.token, t0)).toBeNull();
  });
});
