import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "../client.js";
import { createTestDb } from "../testing.js";
import {
  getOutboxMail,
  listOutbox,
  markMailFailed,
  markMailSent,
  outboxStatus,
  recordMail,
  redactOutboxMail,
} from "./outbox.js";

let h: DbHandle;
beforeAll(async () => {
  h = await createTestDb();
});
afterAll(() => h?.close());

describe("outbox", () => {
  it("records a mail as stored, then sent; a later success clears an earlier error", async () => {
    const at = new Date("2026-03-01T10:00:00Z");
    const row = await recordMail(h.db, { to: "a@example.com", subject: "Hi", text: "Body" }, at);
    expect(row).toMatchObject({ to: "a@example.com", html: null, sentAt: null, error: null });
    expect(row.createdAt.toISOString()).toBe(at.toISOString());
    expect(outboxStatus(row)).toBe("stored");

    await markMailFailed(h.db, row.id, "connect ECONNREFUSED 127.0.0.1:25\n    at stack frame");
    const failed = await getOutboxMail(h.db, row.id);
    expect(failed?.error).toBe("connect ECONNREFUSED 127.0.0.1:25");
    expect(outboxStatus(failed!)).toBe("failed");

    const sentAt = new Date("2026-03-01T10:05:00Z");
    await markMailSent(h.db, row.id, sentAt);
    const sent = await getOutboxMail(h.db, row.id);
    expect(sent?.sentAt?.toISOString()).toBe(sentAt.toISOString());
    expect(sent?.error).toBeNull();
    expect(outboxStatus(sent!)).toBe("sent");
  });

  it("removes a delivered secret from the stored text and HTML, leaving the rest", async () => {
    const row = await recordMail(h.db, {
      to: "c@example.com",
      subject: "Reset",
      text: "Open http://x/reset?token=SECRET123 now",
      html: '<a href="http://x/reset?token=SECRET123">link</a>',
    });
    await redactOutboxMail(h.db, row.id, "SECRET123");
    const after = await getOutboxMail(h.db, row.id);
    expect(after?.text).toBe("Open http://x/reset?token=[removed after delivery] now");
    expect(after?.html).not.toContain("SECRET123");
    expect(after?.subject).toBe("Reset");
  });

  it("caps stored errors and never stores an empty one", async () => {
    const row = await recordMail(h.db, { to: "b@example.com", subject: "S", text: "T" });
    await markMailFailed(h.db, row.id, "x".repeat(2000));
    expect((await getOutboxMail(h.db, row.id))?.error).toHaveLength(500);
    await markMailFailed(h.db, row.id, "");
    expect((await getOutboxMail(h.db, row.id))?.error).toBe("delivery failed");
  });

  it("lists newest first, paged, with the total", async () => {
    // Later than anything recorded by the tests above, which use the real clock.
    const base = Date.now() + 86_400_000;
    for (let i = 0; i < 5; i++) {
      await recordMail(
        h.db,
        { to: `page${i}@example.com`, subject: `#${i}`, text: "T", html: "<p>T</p>" },
        new Date(base + i * 60_000),
      );
    }
    const first = await listOutbox(h.db, { limit: 2 });
    expect(first.rows.map((r) => r.to)).toEqual(["page4@example.com", "page3@example.com"]);
    const next = await listOutbox(h.db, { limit: 2, offset: 2 });
    expect(next.rows.map((r) => r.to)).toEqual(["page2@example.com", "page1@example.com"]);
    expect(first.total).toBe(next.total);
    expect(first.total).toBeGreaterThanOrEqual(5);
    // Out-of-range paging is clamped, not an error.
    expect((await listOutbox(h.db, { limit: 0, offset: -3 })).rows).toHaveLength(1);
    expect((await listOutbox(h.db, { limit: 10_000 })).rows.length).toBeLessThanOrEqual(200);
  });

  it("finds nothing for malformed ids", async () => {
    for (const id of [0, -1, 1.5, Number.NaN, 2 ** 31, 999_999]) {
      expect(await getOutboxMail(h.db, id)).toBeUndefined();
    }
  });
});
