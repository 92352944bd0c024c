import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "../client.js";
import { accounts, sessions, users } from "../schema/index.js";
import { createTestDb } from "../testing.js";
import { createSession } from "./sessions.js";
import {
  createAccount,
  DuplicateError,
  findAccountByEmail,
  getUserByEmail,
  getUserById,
  getUserByUsername,
  setUserAccepted,
  updatePasswordHash,
} from "./users.js";

let h: DbHandle;
beforeAll(async () => {
  h = await createTestDb();
});
afterAll(() => h.close());

const input = (username: string, email: string) => ({ username, email, passwordHash: "h" });

describe("accounts and users", () => {
  it("creates the account and an accepted profile with 100 credits, e-mail normalised", async () => {
    const user = await createAccount(h.db, input("  Rampage_Rider ", "  Rider@Example.COM "));
    expect(user).toMatchObject({
      username: "Rampage_Rider",
      usernameKey: "rampage_rider",
      email: "rider@example.com",
      accepted: true,
      credits: 100,
      role: "player",
    });
    const account = await findAccountByEmail(h.db, "RIDER@example.com");
    expect(account?.id).toBe(user.id);
    expect((await getUserByEmail(h.db, " rider@EXAMPLE.com"))?.id).toBe(user.id);
    expect((await getUserByUsername(h.db, "RAMPAGE_rider"))?.id).toBe(user.id);
  });

  it("refuses a taken e-mail or a username differing only in case", async () => {
    await createAccount(h.db, input("Taken", "taken@example.com"));
    const byEmail = await createAccount(h.db, input("Other", "TAKEN@example.com")).catch((e) => e);
    expect(byEmail).toBeInstanceOf(DuplicateError);
    expect(byEmail.field).toBe("email");
    const byName = await createAccount(h.db, input("tAKEN", "new@example.com")).catch((e) => e);
    expect(byName).toBeInstanceOf(DuplicateError);
    expect(byName.field).toBe("username");
    // Nothing half-created: no account without its profile.
    expect(await findAccountByEmail(h.db, "new@example.com")).toBeUndefined();
  });

  it("lets exactly one of two racing sign-ups win and reports the other as a duplicate", async () => {
    const results = await Promise.allSettled([
      createAccount(h.db, input("Racer", "race@example.com")),
      createAccount(h.db, input("RACER", "race2@example.com")),
      createAccount(h.db, input("Racer3", "Race@example.com")),
    ]);
    const ok = results.filter((r) => r.status === "fulfilled");
    const failed = results.flatMap((r) => (r.status === "rejected" ? [r.reason] : []));
    expect(ok).toHaveLength(1);
    for (const e of failed) expect(e).toBeInstanceOf(DuplicateError);
  });

  it("blocks a player (ending their sessions) and accepts them again", async () => {
    const user = await createAccount(h.db, input("Blocked", "blocked@example.com"));
    await createSession(h.db, user.id);
    expect((await setUserAccepted(h.db, user.id, false))?.accepted).toBe(false);
    expect(await h.db.select().from(sessions).where(eq(sessions.accountId, user.id))).toEqual([]);
    expect((await setUserAccepted(h.db, user.id, true))?.accepted).toBe(true);
    expect(await setUserAccepted(h.db, 999_999, true)).toBeUndefined();
  });

  it("replaces a password hash", async () => {
    const user = await createAccount(h.db, input("Rehash", "rehash@example.com"));
    await updatePasswordHash(h.db, user.id, "scrypt$new");
    expect((await findAccountByEmail(h.db, "rehash@example.com"))?.passwordHash).toBe("scrypt$new");
  });

  it("keeps credentials and profile apart: an account may have no profile", async () => {
    const [account] = await h.db
      .insert(accounts)
      .values({ email: "ghost@example.com", passwordHash: "h" })
      .returning();
    expect(await findAccountByEmail(h.db, "ghost@example.com")).toBeDefined();
    expect(await getUserById(h.db, account!.id)).toBeUndefined();
    expect(await h.db.select().from(users).where(eq(users.id, account!.id))).toEqual([]);
  });
});
