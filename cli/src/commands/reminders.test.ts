import { accounts, events, outbox, seed, users } from "@game/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type CliTarget, cliTarget, runCli } from "../test-support.js";

let t: CliTarget;

beforeAll(async () => {
  t = await cliTarget({ hold: true });
  const db = t.h!.db;
  await seed(db);
  // Round 1 locks in 20 hours: its reminders are due now.
  await db
    .update(events)
    .set({ startsAt: new Date(Date.now() + (12 + 20) * 3_600_000) })
    .where(eq(events.id, 5));
  for (const name of ["ann", "ben"]) {
    const [a] = await db
      .insert(accounts)
      .values({ email: `${name}@example.com`, passwordHash: "test:unusable" })
      .returning();
    await db
      .insert(users)
      .values({ id: a!.id, email: a!.email, username: name, usernameKey: name });
  }
});
afterAll(() => t?.close());

it("counts, sends once to the outbox, and sends nothing the second time", async () => {
  const dry = await runCli(t, "reminders", "send", "--dry-run");
  expect(dry.code).toBe(0);
  expect(dry.stdout).toMatch(
    /\(event 5\), locks .*: 2 players due a reminder\.\nDry run: nothing sent\./,
  );
  expect(await t.h!.db.select().from(outbox)).toEqual([]);

  const sent = await runCli(
    { ...t, env: { ...t.env, PUBLIC_URL: "https://fantasy.example", SMTP_URL: "" } },
    "reminders",
    "send",
    "--json",
  );
  expect(sent.code).toBe(0);
  expect(JSON.parse(sent.stdout)).toMatchObject({ sent: 2, failed: 0, dryRun: false });
  const mails = await t.h!.db.select().from(outbox);
  expect(mails.map((m) => m.to).sort()).toEqual(["ann@example.com", "ben@example.com"]);
  expect(mails[0]!.text).toContain("https://fantasy.example/team-setup?game=5");

  const again = await runCli(t, "reminders", "send");
  expect(again.code).toBe(0);
  expect(again.stdout).toMatch(/: 0 reminders sent\./);
  expect(await t.h!.db.select().from(outbox)).toHaveLength(2);
});
