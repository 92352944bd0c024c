import { LOCK_MS } from "@game/core";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { DbHandle } from "../client.js";
import { events, outbox, racers, remindersSent, teamRacers, users } from "../schema/index.js";
import { createTestDb } from "../testing.js";
import { cliActor } from "./audit.js";
import {
  checkUnsubscribeLink,
  remindersOff,
  sendDueReminders,
  setRemindersOff,
} from "./reminders.js";
import { addRacers, makePlayers } from "./scoring.fixtures.js";
import { listTeamRacers, saveTeam } from "./teams.js";
import { setUserTimeZone } from "./users.js";

let h: DbHandle;
let start: Date;
/** 20 hours before round 1 locks: inside the 24-hour window. */
let due: Date;
let players: { id: number; username: string }[];
const base = "https://game.example";

beforeAll(async () => {
  h = await createTestDb({ seed: true, max: 4 });
  const [e5] = await h.db.select().from(events).where(eq(events.id, 5));
  start = e5!.startsAt;
  due = new Date(start.getTime() - LOCK_MS - 20 * 3_600_000);
  // ok: a valid team; none: no team; draft: a carried draft; out: a racer withdrawn; off: no mail.
  players = await makePlayers(h.db, ["ok", "none", "draft", "out", "off"]);
  const pool = await listTeamRacers(h.db, 5);
  const pick = (offset: number) => {
    const cheapest = (c: string, n: number) =>
      pool
        .filter((r) => r.category === c)
        .sort((a, b) => a.price - b.price || a.id - b.id)
        .slice(offset, offset + n);
    return [...cheapest("Pro Women", 2), ...cheapest("17-18 Men", 1), ...cheapest("Pro Men", 3)];
  };
  const early = new Date(start.getTime() - LOCK_MS - 3 * 86_400_000);
  for (const [i, p] of players.entries()) {
    if (p.username === "none") continue;
    const saved = await saveTeam(h.db, {
      userId: p.id,
      eventId: 5,
      racerIds: pick(i).map((r) => r.id),
      now: early,
    });
    expect(saved.ok).toBe(true);
  }
  const byName = (n: string) => players.find((p) => p.username === n)!;
  // A racer of the "draft" player's team has no entry in this round: the team does not play it.
  const [elsewhere] = await addRacers(h.db, 6, [
    { category: "Pro Men", firstName: "Only", lastName: "Elsewhere" },
  ]);
  const [elsewherePerson] = await h.db
    .select({ personId: racers.personId })
    .from(racers)
    .where(eq(racers.id, elsewhere!.id));
  await h.db
    .update(teamRacers)
    .set({ personId: elsewherePerson!.personId! })
    .where(
      and(
        eq(teamRacers.slot, 0),
        sql`${teamRacers.teamId} = (select id from teams where user_id = ${byName("draft").id})`,
      ),
    );
  const outTeam = pick(3);
  await h.db.update(racers).set({ withdrawnAt: due }).where(eq(racers.id, outTeam[5]!.id));
  await setRemindersOff(h.db, byName("off").id, true);
  // The players' zones, as their browsers said them: Paris; none (UTC); one this server does not
  // know (kept from another platform's list, say), which falls back to UTC.
  expect(await setUserTimeZone(h.db, byName("none").id, "Europe/Paris")).toBe(true);
  expect(await setUserTimeZone(h.db, byName("none").id, "Europe/Paris")).toBe(false);
  expect(await setUserTimeZone(h.db, byName("draft").id, "Mars/Olympus")).toBe(false);
  await h.db
    .update(users)
    .set({ timeZone: "Mars/Olympus" })
    .where(eq(users.id, byName("out").id));
});
afterAll(() => h.close());

const reminded = async () =>
  (await h.db.select().from(remindersSent)).map((r) => r.userId).sort((a, b) => a - b);

it("sends nothing outside the 24 hours before the lock", async () => {
  const early = new Date(start.getTime() - LOCK_MS - 25 * 3_600_000);
  expect((await sendDueReminders(h.db, { now: early, baseUrl: base })).sent).toBe(0);
  const late = new Date(start.getTime() - LOCK_MS + 1);
  expect((await sendDueReminders(h.db, { now: late, baseUrl: base })).sent).toBe(0);
  expect(await reminded()).toEqual([]);
});

it("reminds once per player per round: no team, a draft or a racer out; never the opted out", async () => {
  const dry = await sendDueReminders(h.db, { now: due, baseUrl: base, dryRun: true });
  expect(dry.rounds).toEqual([
    expect.objectContaining({
      eventId: 5,
      players: 3,
      lockAt: new Date(start.getTime() - LOCK_MS),
    }),
  ]);
  expect(await reminded()).toEqual([]);
  expect(await h.db.select().from(outbox)).toEqual([]);

  const sent = await sendDueReminders(h.db, {
    now: due,
    baseUrl: `${base}/`,
    batchSize: 2,
    actor: cliActor("admin"),
  });
  expect(sent).toMatchObject({ sent: 3, failed: 0, busy: false });
  const byName = (n: string) => players.find((p) => p.username === n)!.id;
  expect(await reminded()).toEqual(
    [byName("none"), byName("draft"), byName("out")].sort((a, b) => a - b),
  );

  const mails = await h.db.select().from(outbox).orderBy(outbox.id);
  expect(mails).toHaveLength(3);
  const none = mails.find((m) => m.text.startsWith("Hi none,"))!;
  // Round 1 locks at 04:00 UTC on 18 April 2027: in the player's zone, named, in English.
  expect(none.subject).toBe(
    "Pro Downhill Series Round 1: Windrock: teams lock Sunday 18 April 2027, 06:00 CEST",
  );
  expect(none.text).toContain(
    "Pro Downhill Series Round 1: Windrock locks on Sunday 18 April 2027, 06:00 CEST. You have no team for it yet",
  );
  expect(none.text).toContain(`${base}/team-setup?game=5`);
  // No zone known, or one this server cannot write: UTC, named.
  for (const who of ["draft", "out"]) {
    const mail = mails.find((m) => m.text.startsWith(`Hi ${who},`))!;
    expect(mail.subject, who).toMatch(/: teams lock Sunday 18 April 2027, 04:00 UTC$/);
    expect(mail.text, who).toContain("locks on Sunday 18 April 2027, 04:00 UTC.");
  }
  const link = /(https:\/\/game\.example\/reminders\/unsubscribe\?u=(\d+)&t=([0-9a-f]{32}))/.exec(
    none.text,
  )!;
  expect(none.headers).toEqual({
    "List-Unsubscribe": `<${link[1]}>`,
    "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
  });
  expect(Number(link[2])).toBe(byName("none"));
  expect(await checkUnsubscribeLink(h.db, byName("none"), link[3]!)).toBe(true);
  expect(await checkUnsubscribeLink(h.db, byName("ok"), link[3]!)).toBe(false);
  expect(mails.find((m) => m.text.startsWith("Hi out,"))!.text).toContain("needs fixing");

  // Again (a restart, the next scheduler pass): nobody is reminded twice.
  expect((await sendDueReminders(h.db, { now: due, baseUrl: base })).sent).toBe(0);
  expect(await h.db.select().from(outbox)).toHaveLength(3);
});

it("unsubscribes with one click and undoes it", async () => {
  const id = players.find((p) => p.username === "ok")!.id;
  expect(await remindersOff(h.db, id)).toBe(false);
  await setRemindersOff(h.db, id, true);
  await setRemindersOff(h.db, id, true);
  expect(await remindersOff(h.db, id)).toBe(true);
  await setRemindersOff(h.db, id, false);
  expect(await remindersOff(h.db, id)).toBe(false);
});

it("sends once across several processes sending at the same time, and delivers through SMTP", async () => {
  // 30 new players without a team; three senders at once (on PostgreSQL each on its own
  // connection of the pool, as separate app processes would be).
  await makePlayers(
    h.db,
    Array.from({ length: 30 }, (_, i) => `late${i}`),
  );
  const delivered: string[] = [];
  const deliver = async (mail: { to: string; headers: Record<string, string> }) => {
    expect(mail.headers["List-Unsubscribe"]).toMatch(/^<https:/);
    delivered.push(mail.to);
  };
  const runs = await Promise.all(
    [1, 2, 3].map(() => sendDueReminders(h.db, { now: due, baseUrl: base, batchSize: 4, deliver })),
  );
  // Whatever the interleaving, a second pass finds nothing left.
  const rest = await sendDueReminders(h.db, { now: due, baseUrl: base, batchSize: 4, deliver });
  const total = runs.reduce((s, r) => s + r.sent, 0) + rest.sent;
  expect(total).toBe(30);
  expect(new Set(delivered).size).toBe(30);
  expect(delivered).toHaveLength(30);
  const counts = await h.db
    .select({ n: sql<number>`count(*)::int`, sent: sql<number>`count(${outbox.sentAt})::int` })
    .from(outbox);
  expect(counts[0]).toEqual({ n: 33, sent: 30 });
  const late = await h.db.select().from(users).where(sql`${users.username} like 'late%'`);
  expect(late).toHaveLength(30);
});
