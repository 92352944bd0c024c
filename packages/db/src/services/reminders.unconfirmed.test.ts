/**
 * Reminders go only to confirmed addresses (decision 0151): registering someone else's address
 * must not sign them up for the game's mail.
 */
import { LOCK_MS } from "@game/core";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { DbHandle } from "../client.js";
import { events, outbox } from "../schema/index.js";
import { createTestDb } from "../testing.js";
import { confirmEmail, createEmailConfirmation } from "./email-confirmation.js";
import { sendDueReminders } from "./reminders.js";
import { createAccount } from "./users.js";

let h: DbHandle;
beforeAll(async () => {
  h = await createTestDb({ seed: true });
});
afterAll(() => h?.close());

it("reminds a player only once their e-mail address is confirmed", async () => {
  const [round] = await h.db.select().from(events).where(eq(events.id, 5));
  const due = new Date(round!.startsAt.getTime() - LOCK_MS - 20 * 3_600_000);
  const account = (name: string, emailConfirmed: boolean) =>
    createAccount(h.db, {
      username: name,
      email: `${name}@mail.example`,
      passwordHash: "test:unusable",
      emailConfirmed,
    });
  await account("longtime", true);
  const squatted = await account("squatted", false);
  const later = await account("later", false);

  const base = "https://game.example";
  expect((await sendDueReminders(h.db, { now: due, baseUrl: base, dryRun: true })).rounds).toEqual([
    expect.objectContaining({ eventId: 5, players: 1 }),
  ]);
  await sendDueReminders(h.db, { now: due, baseUrl: base });
  const link = await createEmailConfirmation(h.db, later.id);
  await confirmEmail(h.db, link!.token);
  await sendDueReminders(h.db, { now: new Date(due.getTime() + 60_000), baseUrl: base });

  const mails = await h.db.select({ to: outbox.to }).from(outbox);
  expect(mails.map((m) => m.to).sort()).toEqual(["later@mail.example", "longtime@mail.example"]);
  expect(mails.some((m) => m.to === squatted.email)).toBe(false);
});
