import { createServer } from "node:net";
import { getOutboxMail, listOutbox, outboxStatus } from "@game/db";
import { createTestDb, type DbHandle } from "@game/db/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { testContext } from "../../tests/support/context";
import { type SmtpSink, startSmtpSink } from "../../tests/support/smtp-sink";
import { closeMailTransports, senderAddress, sendMail } from "./mailer.server";

let h: DbHandle;
let sink: SmtpSink;
beforeAll(async () => {
  [h, sink] = await Promise.all([createTestDb(), startSmtpSink()]);
});
afterAll(async () => {
  closeMailTransports();
  await Promise.all([h?.close(), sink?.close()]);
});

/** A local port nobody listens on. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const { port } = s.address() as { port: number };
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

const mail = (to: string) => ({
  to,
  subject: "Ride with us — «Gravity» league",
  text: `Hello ${to},\nopen http://localhost/leagues/1/invitation to answer.\n${"long line ".repeat(20)}`,
  html: "<p>Hello</p>",
});

describe("sendMail", () => {
  it("delivers through SMTP and records the mail as sent", async () => {
    const ctx = { ...testContext(h.db), env: { ...testContext(h.db).env, smtpUrl: sink.url } };
    const r = await sendMail(ctx, mail("alice@example.com"));
    expect(r.status).toBe("sent");
    const got = await sink.waitFor("alice@example.com");
    expect(got.subject).toBe("Ride with us — «Gravity» league");
    expect(got.text).toContain("open http://localhost/leagues/1/invitation to answer.");
    expect(got.from).toBe("no-reply@localhost");
    const row = await getOutboxMail(h.db, r.id);
    expect(row).toMatchObject({ to: "alice@example.com", error: null });
    expect(row?.sentAt).toBeInstanceOf(Date);
    expect(outboxStatus(row!)).toBe("sent");
  });

  it("without SMTP keeps the mail in the outbox for the admin", async () => {
    const ctx = testContext(h.db);
    const before = sink.messages.length;
    const r = await sendMail(ctx, mail("bob@example.com"));
    expect(r.status).toBe("stored");
    const row = await getOutboxMail(h.db, r.id);
    expect(row).toMatchObject({
      to: "bob@example.com",
      sentAt: null,
      error: null,
      html: "<p>Hello</p>",
    });
    expect(outboxStatus(row!)).toBe("stored");
    expect(sink.messages.length).toBe(before);
    const { rows, total } = await listOutbox(h.db, { limit: 1 });
    expect(rows[0]?.id).toBe(r.id);
    expect(total).toBeGreaterThanOrEqual(2);
  });

  it("records a delivery failure instead of throwing", async () => {
    const port = await closedPort();
    const ctx = {
      ...testContext(h.db),
      env: { ...testContext(h.db).env, smtpUrl: `smtp://127.0.0.1:${port}` },
    };
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const r = await sendMail(ctx, mail("carol@example.com"));
      expect(r.status).toBe("failed");
      const row = await getOutboxMail(h.db, r.id);
      expect(row?.sentAt).toBeNull();
      expect(row?.error).toMatch(/ECONNREFUSED|connect/i);
      expect(outboxStatus(row!)).toBe("failed");
      expect(logged).toHaveBeenCalled();
    } finally {
      logged.mockRestore();
    }
  });

  it("sends from no-reply at the public host when one is configured", () => {
    const ctx = testContext(h.db);
    expect(
      senderAddress({ ...ctx, env: { ...ctx.env, publicUrl: "https://gravity.example" } }),
    ).toBe("Gravity Fantasy <no-reply@gravity.example>");
    expect(senderAddress(ctx)).toBe("Gravity Fantasy <no-reply@localhost>");
  });
});
