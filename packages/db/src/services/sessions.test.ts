import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "../client.js";
import { accounts, embedTokens, partners, sessions } from "../schema/index.js";
import { createTestDb } from "../testing.js";
import { createEmbedHandoff } from "./embed-tokens.js";
import {
  countAccountSessions,
  createSession,
  deleteAccountSessions,
  deleteSession,
  endAccountSessions,
  getSession,
  hashToken,
  purgeExpiredSessions,
  rotateSession,
  SESSION_IDLE_MS,
  SESSION_TOUCH_MS,
  SESSION_TTL_MS,
} from "./sessions.js";
import { createAccount } from "./users.js";

let h: DbHandle;
beforeAll(async () => {
  h = await createTestDb();
});
afterAll(() => h.close());

let n = 0;
const newUser = () => {
  n += 1;
  return createAccount(h.db, { username: `s${n}`, email: `s${n}@example.com`, passwordHash: "h" });
};
const t0 = new Date("2026-03-01T10:00:00Z");
const DAY = 24 * 3600 * 1000;
const at = (ms: number) => new Date(t0.getTime() + ms);
const lastSeen = async (token: string) =>
  (
    await h.db
      .select()
      .from(sessions)
      .where(eq(sessions.id, hashToken(token)))
  )[0]?.lastSeenAt;

describe("sessions", () => {
  it("stores only the token's hash and finds the account and profile for 30 days", async () => {
    const user = await newUser();
    const { token, expiresAt } = await createSession(h.db, user.id, { now: t0, userAgent: "UA" });
    expect(expiresAt.getTime() - t0.getTime()).toBe(30 * 24 * 3600 * 1000);
    expect(SESSION_TTL_MS).toBe(30 * 24 * 3600 * 1000);
    const rows = await h.db.select().from(sessions).where(eq(sessions.accountId, user.id));
    expect(rows.map((r) => r.id)).toEqual([hashToken(token)]);
    expect(rows[0]!.id).not.toContain(token);

    // Used every few days, it lives until its absolute end and not a millisecond longer.
    for (let day = 5; day < 30; day += 5) {
      expect(await getSession(h.db, token, new Date(t0.getTime() + day * DAY))).not.toBeNull();
    }
    const found = await getSession(h.db, token, new Date(expiresAt.getTime() - 1));
    expect(found?.user?.id).toBe(user.id);
    expect(found?.account.email).toBe(user.email);
    expect(await getSession(h.db, token, expiresAt)).toBeNull();
    expect(await getSession(h.db, `${token}x`, t0)).toBeNull();
    expect(await getSession(h.db, "", t0)).toBeNull();
  });

  it("returns the account with a null profile when the profile is missing", async () => {
    const [account] = await h.db
      .insert(accounts)
      .values({ email: "noprofile@example.com", passwordHash: "h" })
      .returning();
    const { token } = await createSession(h.db, account!.id, { now: t0 });
    const found = await getSession(h.db, token, t0);
    expect(found?.account.id).toBe(account!.id);
    expect(found?.user).toBeNull();
  });

  it("rotates: the previous token dies, the new one works, other devices are untouched", async () => {
    const user = await newUser();
    const other = await createSession(h.db, user.id, { now: t0 });
    const before = await createSession(h.db, user.id, { now: t0 });
    const after = await rotateSession(h.db, user.id, { previousToken: before.token, now: t0 });
    expect(after.token).not.toBe(before.token);
    expect(await getSession(h.db, before.token, t0)).toBeNull();
    expect((await getSession(h.db, after.token, t0))?.user?.id).toBe(user.id);
    expect((await getSession(h.db, other.token, t0))?.user?.id).toBe(user.id);
    // A token that matches nothing (a visitor's stale cookie) is simply ignored.
    const fresh = await rotateSession(h.db, user.id, { previousToken: "stale", now: t0 });
    expect(await getSession(h.db, fresh.token, t0)).not.toBeNull();
  });

  it("revokes one session, all of an account's, and purges expired ones", async () => {
    const user = await newUser();
    const a = await createSession(h.db, user.id, { now: t0 });
    const b = await createSession(h.db, user.id, { now: t0 });
    await deleteSession(h.db, a.token);
    expect(await getSession(h.db, a.token, t0)).toBeNull();
    expect(await getSession(h.db, b.token, t0)).not.toBeNull();
    await deleteAccountSessions(h.db, user.id);
    expect(await getSession(h.db, b.token, t0)).toBeNull();

    const old = await createSession(h.db, user.id, {
      now: new Date(t0.getTime() - SESSION_TTL_MS),
    });
    const live = await createSession(h.db, user.id, { now: t0 });
    expect(await purgeExpiredSessions(h.db, t0)).toBeGreaterThanOrEqual(1);
    expect(
      await h.db
        .select()
        .from(sessions)
        .where(eq(sessions.id, hashToken(old.token))),
    ).toEqual([]);
    expect(await getSession(h.db, live.token, t0)).not.toBeNull();
  });

  it("ends a session unused for 7 days", async () => {
    expect(SESSION_IDLE_MS).toBe(7 * DAY);
    const user = await newUser();
    const { token } = await createSession(h.db, user.id, { now: t0 });
    expect(await getSession(h.db, token, at(SESSION_IDLE_MS - 1))).not.toBeNull();
    // That use moved last-seen forward: another 7 days from there.
    expect(await getSession(h.db, token, at(2 * SESSION_IDLE_MS - 2))).not.toBeNull();
    const quiet = await createSession(h.db, user.id, { now: t0 });
    expect(await getSession(h.db, quiet.token, at(SESSION_IDLE_MS))).toBeNull();
    expect(await purgeExpiredSessions(h.db, at(SESSION_IDLE_MS))).toBeGreaterThanOrEqual(1);
    expect(await lastSeen(quiet.token)).toBeUndefined();
    expect(await lastSeen(token)).toEqual(at(2 * SESSION_IDLE_MS - 2));
  });

  it("writes last-seen at most once an hour", async () => {
    const user = await newUser();
    const { token } = await createSession(h.db, user.id, { now: t0 });
    expect(SESSION_TOUCH_MS).toBe(3600 * 1000);
    await getSession(h.db, token, at(SESSION_TOUCH_MS - 1));
    expect(await lastSeen(token)).toEqual(t0);
    await getSession(h.db, token, at(SESSION_TOUCH_MS + 1));
    expect(await lastSeen(token)).toEqual(at(SESSION_TOUCH_MS + 1));
    await getSession(h.db, token, at(SESSION_TOUCH_MS + 60_000));
    expect(await lastSeen(token)).toEqual(at(SESSION_TOUCH_MS + 1));
  });

  it("signs an account out everywhere, iframe tokens too, keeping one session if asked", async () => {
    const user = await newUser();
    const other = await newUser();
    const [partner] = await h.db
      .insert(partners)
      .values({
        name: `P${user.id}`,
        publishableKey: `pk_${user.id}`,
        origins: ["https://p.example"],
      })
      .returning();
    const a = await createSession(h.db, user.id, { now: t0 });
    const b = await createSession(h.db, user.id, { now: t0 });
    const c = await createSession(h.db, user.id, { now: t0 });
    const theirs = await createSession(h.db, other.id, { now: t0 });
    await createEmbedHandoff(h.db, {
      accountId: user.id,
      partnerId: partner!.id,
      origin: "https://p.example",
      now: t0,
    });
    expect(await countAccountSessions(h.db, user.id, t0)).toBe(3);

    expect(await endAccountSessions(h.db, user.id, { keepToken: a.token })).toBe(2);
    expect(await getSession(h.db, a.token, t0)).not.toBeNull();
    expect(await getSession(h.db, b.token, t0)).toBeNull();
    expect(await h.db.select().from(embedTokens).where(eq(embedTokens.accountId, user.id))).toEqual(
      [],
    );
    expect(await endAccountSessions(h.db, user.id)).toBe(1);
    expect(await getSession(h.db, a.token, t0)).toBeNull();
    expect(await getSession(h.db, c.token, t0)).toBeNull();
    expect(await getSession(h.db, theirs.token, t0)).not.toBeNull();
    expect(await countAccountSessions(h.db, user.id, t0)).toBe(0);
  });
});
