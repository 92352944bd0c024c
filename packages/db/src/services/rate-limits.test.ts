import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "../client.js";
import { rateLimits } from "../schema/index.js";
import { createTestDb } from "../testing.js";
import { hit, purgeExpiredRateLimits, resetLimit } from "./rate-limits.js";

let h: DbHandle;
beforeAll(async () => {
  h = await createTestDb();
});
afterAll(() => h.close());

const rule = { limit: 3, windowMs: 60_000 };
const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 12, 0, s));

describe("rate limits", () => {
  it("allows `limit` attempts per window, refuses the next with the seconds left", async () => {
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await hit(h.db, "a", { ...rule, now: at(i * 10) }));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false]);
    expect(results.map((r) => r.count)).toEqual([1, 2, 3, 4]);
    // The window started at 0 s and lasts 60 s; the 4th attempt came at 30 s.
    expect(results[3]!.retryAfterSeconds).toBe(30);
    expect(results[3]!.resetAt.toISOString()).toBe(at(60).toISOString());
  });

  it("starts a new window once the old one is over", async () => {
    for (let i = 0; i < 5; i++) await hit(h.db, "b", { ...rule, now: at(0) });
    const later = await hit(h.db, "b", { ...rule, now: at(60) });
    expect(later).toMatchObject({ allowed: true, count: 1, retryAfterSeconds: 0 });
    expect(later.resetAt.toISOString()).toBe(at(120).toISOString());
  });

  it("keeps keys apart and forgets a key on reset", async () => {
    for (let i = 0; i < 3; i++) await hit(h.db, "c", { ...rule, now: at(0) });
    expect((await hit(h.db, "d", { ...rule, now: at(0) })).count).toBe(1);
    await resetLimit(h.db, "c");
    expect((await hit(h.db, "c", { ...rule, now: at(1) })).count).toBe(1);
  });

  it("never loses a count under concurrent hits", async () => {
    const all = await Promise.all(
      Array.from({ length: 25 }, () => hit(h.db, "e", { limit: 10, windowMs: 60_000, now: at(0) })),
    );
    expect(all.map((r) => r.count).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 25 }, (_, i) => i + 1),
    );
    expect(all.filter((r) => r.allowed)).toHaveLength(10);
  });

  it("purges only finished windows", async () => {
    await h.db.delete(rateLimits);
    await hit(h.db, "old", { ...rule, now: at(0) });
    await hit(h.db, "new", { ...rule, now: at(50) });
    expect(await purgeExpiredRateLimits(h.db, at(70))).toBe(1);
    expect((await h.db.select().from(rateLimits)).map((r) => r.key)).toEqual(["new"]);
  });

  it("allows exactly `limit` attempts in any window (property)", async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 6 }),
        fc.array(fc.integer({ min: 0, max: 5_000 }), { minLength: 1, maxLength: 12 }),
        async (limit, gaps) => {
          n += 1;
          const key = `p${n}`;
          const windowMs = 4_000;
          let t = at(0).getTime();
          // A model of the fixed window: first hit opens it, hits inside count, later ones reset.
          let windowEnd = -1;
          let count = 0;
          for (const gap of gaps) {
            t += gap;
            if (t >= windowEnd) {
              windowEnd = t + windowMs;
              count = 0;
            }
            count += 1;
            const r = await hit(h.db, key, { limit, windowMs, now: new Date(t) });
            expect(r.count).toBe(count);
            expect(r.allowed).toBe(count <= limit);
          }
        },
      ),
      { numRuns: 25 },
    );
  });
});
