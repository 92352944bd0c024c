import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "../client.js";
import { emailConfirmationTokens, users } from "../schema/index.js";
import { createTestDb } from "../testing.js";
import {
  confirmEmail,
  createEmailConfirmation,
  EMAIL_CONFIRMATION_TTL_MS,
  findEmailConfirmation,
  isEmailConfirmed,
  purgeExpiredEmailConfirmations,
} from "./email-confirmation.js";
import { createAccount } from "./users.js";

let h: DbHandle;
beforeAll(async () => {
  h = await createTestDb();
});
afterAll(() => h?.close());

let n = 0;
function signUp(opts: { emailConfirmed?: boolean } = {}) {
  n += 1;
  return createAccount(h.db, {
    username: `confirm${n}`,
    email: `Confirm${n}@Example.com`,
    passwordHash: "test:unusable",
    ...opts,
  });
}

describe("e-mail confirmation", () => {
  it("leaves a sign-up unconfirmed; an account made for a known address is confirmed", async () => {
    const fresh = await signUp();
    expect(fresh.emailConfirmedAt).toBeNull();
    expect(await isEmailConfirmed(h.db, fresh.id)).toBe(false);
    const known = await signUp({ emailConfirmed: true });
    expect(known.emailConfirmedAt).toBeInstanceOf(Date);
    expect(await isEmailConfirmed(h.db, known.id)).toBe(true);
    expect(await createEmailConfirmation(h.db, known.id)).toBeNull();
  });

  it("confirms with the mailed token, once; looking at the link first uses nothing up", async () => {
    const user = await signUp();
    const t0 = new Date("2027-03-01T10:00:00Z");
    const link = await createEmailConfirmation(h.db, user.id, { now: t0 });
    expect(link).toMatchObject({ email: user.email });
    expect(link!.expiresAt.getTime() - t0.getTime()).toBe(EMAIL_CONFIRMATION_TTL_MS);
    // Only the hash is stored.
    const stored = await h.db.select().from(emailConfirmationTokens);
    expect(stored.some((r) => r.id === link!.token)).toBe(false);

    // A mail scanner opening the link (GET) finds it, and confirms nothing.
    const later = new Date(t0.getTime() + 60_000);
    expect(await findEmailConfirmation(h.db, link!.token, later)).toEqual({
      userId: user.id,
      email: user.email,
      username: user.username,
    });
    expect(await findEmailConfirmation(h.db, link!.token, later)).not.toBeNull();
    expect(await isEmailConfirmed(h.db, user.id)).toBe(false);

    expect(await confirmEmail(h.db, link!.token, { now: later })).toEqual({
      userId: user.id,
      email: user.email,
      alreadyConfirmed: false,
    });
    const [row] = await h.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.emailConfirmedAt).toEqual(later);
    // Used up.
    expect(await confirmEmail(h.db, link!.token, { now: later })).toBeNull();
    expect(await findEmailConfirmation(h.db, link!.token, later)).toBeNull();
  });

  it("refuses an expired, unknown or oversized token, and a link for an address since changed", async () => {
    const user = await signUp();
    const t0 = new Date("2027-03-01T10:00:00Z");
    const link = await createEmailConfirmation(h.db, user.id, { now: t0 });
    const expired = new Date(t0.getTime() + EMAIL_CONFIRMATION_TTL_MS);
    expect(await findEmailConfirmation(h.db, link!.token, expired)).toBeNull();
    expect(await confirmEmail(h.db, link!.token, { now: expired })).toBeNull();
    expect(await confirmEmail(h.db, "nope", { now: t0 })).toBeNull();
    expect(await confirmEmail(h.db, "x".repeat(5000), { now: t0 })).toBeNull();
    expect(await confirmEmail(h.db, "", { now: t0 })).toBeNull();

    const second = await createEmailConfirmation(h.db, user.id, { now: t0 });
    await h.db.update(users).set({ email: "moved@example.com" }).where(eq(users.id, user.id));
    expect(await findEmailConfirmation(h.db, second!.token, t0)).toBeNull();
    expect(await confirmEmail(h.db, second!.token, { now: t0 })).toBeNull();
    expect(await isEmailConfirmed(h.db, user.id)).toBe(false);
  });

  it("any of several links confirms, and the others die with it", async () => {
    const user = await signUp();
    const first = await createEmailConfirmation(h.db, user.id);
    const resent = await createEmailConfirmation(h.db, user.id);
    expect((await confirmEmail(h.db, first!.token))?.alreadyConfirmed).toBe(false);
    expect(await confirmEmail(h.db, resent!.token)).toBeNull();
    expect(await isEmailConfirmed(h.db, user.id)).toBe(true);
  });

  it("of two uses of one link at once, exactly one confirms", async () => {
    const user = await signUp();
    const link = await createEmailConfirmation(h.db, user.id);
    const both = await Promise.all([
      confirmEmail(h.db, link!.token),
      confirmEmail(h.db, link!.token),
    ]);
    expect(both.filter((r) => r !== null)).toHaveLength(1);
  });

  it("purges expired links", async () => {
    const user = await signUp();
    const t0 = new Date("2027-03-01T10:00:00Z");
    await createEmailConfirmation(h.db, user.id, { now: t0 });
    const after = new Date(t0.getTime() + EMAIL_CONFIRMATION_TTL_MS + 1);
    expect(await purgeExpiredEmailConfirmations(h.db, after)).toBeGreaterThanOrEqual(1);
    const left = await h.db
      .select()
      .from(emailConfirmationTokens)
      .where(eq(emailConfirmationTokens.userId, user.id));
    expect(left).toEqual([]);
  });
});
