import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "../client.js";
import { embedTokens, partners, users } from "../schema/index.js";
import { createTestDb } from "../testing.js";
import {
  createEmbedHandoff,
  deleteEmbedSession,
  EMBED_HANDOFF_TTL_MS,
  EMBED_SESSION_TTL_MS,
  exchangeEmbedHandoff,
  getEmbedSession,
  purgeExpiredEmbedTokens,
} from "./embed-tokens.js";
import { hashToken } from "./sessions.js";
import { createAccount, type UserRow } from "./users.js";

let h: DbHandle;
let partnerId: number;
let otherPartnerId: number;
let n = 0;
const origin = "https://bikes.example";

async function player(): Promise<UserRow> {
  n += 1;
  return createAccount(h.db, {
    email: `embed${n}@mail.example`,
    username: `embed_${n}`,
    passwordHash: "test:unusable",
  });
}

beforeAll(async () => {
  h = await createTestDb({ max: 12 });
  const rows = await h.db
    .insert(partners)
    .values([
      { name: "Bikes", publishableKey: "pk_bikes", origins: [origin] },
      { name: "Other", publishableKey: "pk_other", origins: ["https://other.example"] },
    ])
    .returning();
  partnerId = rows[0]!.id;
  otherPartnerId = rows[1]!.id;
});
afterAll(() => h.close());

describe("embed handoff and session tokens", () => {
  it("exchanges a handoff once for a session bound to the partner; stores only hashes", async () => {
    const u = await player();
    const now = new Date("2027-01-01T10:00:00Z");
    const handoff = await createEmbedHandoff(h.db, { accountId: u.id, partnerId, origin, now });
    expect(handoff.expiresAt.getTime() - now.getTime()).toBe(EMBED_HANDOFF_TTL_MS);
    const stored = await h.db.select().from(embedTokens).where(eq(embedTokens.accountId, u.id));
    expect(stored.map((r) => r.id)).toEqual([hashToken(handoff.token)]);
    expect(JSON.stringify(stored)).not.toContain(handoff.token);

    const session = await exchangeEmbedHandoff(h.db, { token: handoff.token, partnerId, now });
    expect(session?.player).toEqual({ id: u.id, username: u.username });
    expect(session?.origin).toBe(origin);
    expect(session!.expiresAt.getTime() - now.getTime()).toBe(EMBED_SESSION_TTL_MS);
    expect(session!.token).not.toBe(handoff.token);

    // Single use.
    expect(await exchangeEmbedHandoff(h.db, { token: handoff.token, partnerId, now })).toBeNull();
    // The session works for its partner, and is not a handoff.
    const found = await getEmbedSession(h.db, { token: session!.token, partnerId, now });
    expect(found?.player.username).toBe(u.username);
    expect(
      await getEmbedSession(h.db, { token: session!.token, partnerId: otherPartnerId, now }),
    ).toBeNull();
    expect(await getEmbedSession(h.db, { token: handoff.token, partnerId, now })).toBeNull();
    expect(await exchangeEmbedHandoff(h.db, { token: session!.token, partnerId, now })).toBeNull();
    // Expired.
    const late = new Date(now.getTime() + EMBED_SESSION_TTL_MS);
    expect(await getEmbedSession(h.db, { token: session!.token, partnerId, now: late })).toBeNull();
    // Signed out.
    await deleteEmbedSession(h.db, session!.token);
    expect(await getEmbedSession(h.db, { token: session!.token, partnerId, now })).toBeNull();
  });

  it("refuses expired handoffs, other partners' handoffs, blocked players and junk", async () => {
    const u = await player();
    const now = new Date("2027-01-01T10:00:00Z");
    const a = await createEmbedHandoff(h.db, { accountId: u.id, partnerId, origin, now });
    expect(
      await exchangeEmbedHandoff(h.db, {
        token: a.token,
        partnerId,
        now: new Date(now.getTime() + EMBED_HANDOFF_TTL_MS),
      }),
    ).toBeNull();
    const b = await createEmbedHandoff(h.db, { accountId: u.id, partnerId, origin, now });
    expect(
      await exchangeEmbedHandoff(h.db, { token: b.token, partnerId: otherPartnerId, now }),
    ).toBeNull();
    expect(await exchangeEmbedHandoff(h.db, { token: "", partnerId, now })).toBeNull();
    expect(await exchangeEmbedHandoff(h.db, { token: "x".repeat(500), partnerId, now })).toBeNull();

    const c = await createEmbedHandoff(h.db, { accountId: u.id, partnerId, origin, now });
    const session = await exchangeEmbedHandoff(h.db, { token: c.token, partnerId, now });
    expect(session).not.toBeNull();
    await h.db.update(users).set({ accepted: false }).where(eq(users.id, u.id));
    expect(await getEmbedSession(h.db, { token: session!.token, partnerId, now })).toBeNull();
    const d = await createEmbedHandoff(h.db, { accountId: u.id, partnerId, origin, now });
    expect(await exchangeEmbedHandoff(h.db, { token: d.token, partnerId, now })).toBeNull();
  });

  it("lets exactly one of many concurrent exchanges of one handoff win", async () => {
    const u = await player();
    const now = new Date();
    const handoff = await createEmbedHandoff(h.db, { accountId: u.id, partnerId, origin, now });
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        exchangeEmbedHandoff(h.db, { token: handoff.token, partnerId, now }),
      ),
    );
    expect(results.filter((r) => r !== null)).toHaveLength(1);
    const sessions = await h.db.select().from(embedTokens).where(eq(embedTokens.accountId, u.id));
    expect(sessions.filter((s) => s.kind === "session")).toHaveLength(1);
  });

  it("purges expired tokens only", async () => {
    const u = await player();
    const now = new Date("2030-01-01T00:00:00Z");
    await createEmbedHandoff(h.db, {
      accountId: u.id,
      partnerId,
      origin,
      now: new Date(now.getTime() - EMBED_HANDOFF_TTL_MS),
    });
    const live = await createEmbedHandoff(h.db, { accountId: u.id, partnerId, origin, now });
    expect(await purgeExpiredEmbedTokens(h.db, now)).toBeGreaterThanOrEqual(1);
    const left = await h.db.select().from(embedTokens).where(eq(embedTokens.accountId, u.id));
    expect(left.map((r) => r.id)).toEqual([hashToken(live.token)]);
  });
});
