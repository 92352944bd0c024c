/**
 * The probe's timing attack on the built app (decision 0152): with a mail server that is slow to
 * accept a message, /forgot-password still answers at once for an address with an account,
 * because the account is looked up and mailed after the answer.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestAccount, withAccounts } from "../tests/support/accounts";
import { type RunningApp, startApp } from "../tests/support/app";
import { type SmtpSink, startSmtpSink } from "../tests/support/smtp-sink";

const RIDER: TestAccount = {
  username: "Slow_Mail_Sam",
  email: "sam.slowmail@example.com",
  password: "slow-mail-berms-9",
};

let app: RunningApp;
let sink: SmtpSink;
beforeAll(async () => {
  // A mail server that keeps every message's "250 OK" until the test releases it.
  sink = await startSmtpSink({ hold: true });
  app = await startApp({ env: { SMTP_URL: sink.url }, prepare: withAccounts(RIDER) });
});
afterAll(async () => {
  sink?.release();
  await app?.stop();
  await sink?.close();
});

const ask = (email: string) =>
  fetch(`${app.url}/forgot-password`, {
    method: "POST",
    headers: { Origin: app.url, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email }),
  });

describe("forgot password on the running app", () => {
  it("answers before the reset mail's SMTP transaction ends, then delivers the mail", async () => {
    const known = ask(RIDER.email);
    // Before: the answer waited for the mail server, so it came only after the message did.
    const first = await Promise.race([
      known.then(() => "answer"),
      sink.waitFor(RIDER.email, 45_000).then(() => "smtp"),
    ]);
    expect(first).toBe("answer");
    const unknown = await ask("nobody.here@example.com");
    for (const res of [await known, unknown]) {
      expect(res.status).toBe(200);
      expect(await res.text()).toContain("we have sent it a link to choose a new password");
    }
    const mail = await sink.waitFor(RIDER.email, 45_000);
    expect(mail.subject).toBe("Reset your Gravity Fantasy password");
    sink.release();
    expect(sink.messages.map((m) => m.to)).toEqual([[RIDER.email]]);
  });
});
