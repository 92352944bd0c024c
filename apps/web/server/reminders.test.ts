import { type DbHandle, events, outbox, type ReminderMail, remindersSent } from "@game/db";
import { createTestDb } from "@game/db/testing";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { makeUser } from "../tests/support/context";
import { startReminders } from "./reminders.js";

let h: DbHandle;
beforeAll(async () => {
  h = await createTestDb({ seed: true });
});
afterAll(() => h.close());

it("sends the due reminders on its own, once per player, from two schedulers at once", async () => {
  const user = await makeUser(h.db);
  const [round1] = await h.db.select().from(events).where(eq(events.id, 5));
  const due = new Date(round1!.startsAt.getTime() - 12 * 3600_000 - 3600_000);
  const log = { log: vi.fn(), error: vi.fn() };
  const env = { publicUrl: "https://fantasy.example", port: 3000 };
  const delivered: ReminderMail[] = [];
  const deliver = async (mail: ReminderMail) => {
    delivered.push(mail);
  };
  const stops = [1, 2].map(() =>
    startReminders(h.db, env, { everyMs: 20, now: () => due, log, deliver }),
  );
  await vi.waitFor(() =>
    expect(log.log).toHaveBeenCalledWith("Sent 1 deadline reminders for event 5."),
  );
  await new Promise((r) => setTimeout(r, 100));
  for (const stop of stops) stop();
  expect(log.error).not.toHaveBeenCalled();
  expect(await h.db.select().from(remindersSent)).toEqual([
    expect.objectContaining({ userId: user.id, eventId: 5 }),
  ]);
  expect(delivered).toHaveLength(1);
  expect(delivered[0]!.to).toBe(user.email);
  expect(delivered[0]!.headers["List-Unsubscribe"]).toMatch(
    /^<https:\/\/fantasy\.example\/reminders\/unsubscribe\?u=\d+&t=[0-9a-f]{32}>$/,
  );
  const [mail] = await h.db.select().from(outbox);
  expect(mail!.sentAt).not.toBeNull();
});
