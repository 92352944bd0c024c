/**
 * The freeze and the reminders restate core's rule of a team in a round (teamInRound,
 * reminderReason) in SQL, for speed at a million teams. Here both run on the same generated
 * teams and entries as the core functions, and must give the same answer for every player. The
 * reminder batch's unsubscribe token is held to the TypeScript one the same way.
 */
import { LOCK_MS, type RoundEntry, reminderReason, teamInRound } from "@game/core";
import { eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type DbHandle, rowsOf } from "../client.js";
import { events, frozenTeams, outbox, racers } from "../schema/index.js";
import { createTestDb } from "../testing.js";
import { freezeEvent } from "./freeze.js";
import { sendDueReminders, unsubscribeToken, unsubscribeTokenSql } from "./reminders.js";
import { addRacers, makePlayers, putTeam } from "./scoring.fixtures.js";

let h: DbHandle;
let competitionId: number;
let due: Date;
/** Racers of round 1 (event 5) and, last, racers entered only in round 2 (no entry in round 1). */
let pool: { id: number; personId: number; inRound: boolean }[];
let players: { id: number; username: string; email: string }[];

const NO_TEAM = "You have no team for it yet";
const FIX = "Your team needs fixing before the lock";

beforeAll(async () => {
  h = await createTestDb({ seed: true, max: 4 });
  const [e5] = await h.db.select().from(events).where(eq(events.id, 5));
  competitionId = e5!.competitionId;
  due = new Date(e5!.startsAt.getTime() - LOCK_MS - 20 * 3_600_000);
  const entered = await h.db
    .select({ id: racers.id, personId: racers.personId })
    .from(racers)
    .where(eq(racers.gameId, 5))
    .orderBy(racers.id)
    .limit(8);
  const added = await addRacers(h.db, 6, [
    { category: "Pro Men", firstName: "Only", lastName: "Snowshoe" },
    { category: "Pro Women", firstName: "Also", lastName: "Snowshoe" },
  ]);
  const elsewhere = await h.db
    .select({ id: racers.id, personId: racers.personId })
    .from(racers)
    .where(
      sql`${racers.id} in (${sql.join(
        added.map((r) => sql`${r.id}`),
        sql`, `,
      )})`,
    );
  pool = [
    ...entered.map((r) => ({ id: r.id, personId: r.personId!, inRound: true })),
    ...elsewhere.map((r) => ({ id: r.id, personId: r.personId!, inRound: false })),
  ];
  const made = await makePlayers(h.db, ["p0", "p1", "p2", "p3", "p4", "p5"]);
  const emails = rowsOf<{ id: number; email: string }>(
    await h.db.execute(
      sql`select id, email from users where id in (${sql.join(
        made.map((p) => sql`${p.id}`),
        sql`, `,
      )})`,
    ),
  );
  const byId = new Map(emails.map((r) => [r.id, r.email]));
  players = made.map((p) => ({ id: p.id, username: p.username, email: byId.get(p.id)! }));
}, 120_000);

afterAll(async () => {
  await h?.close();
});

/** Each player: no team, or a team of up to six distinct racers of the pool. */
const teamsArb = () =>
  fc.array(
    fc.option(fc.uniqueArray(fc.integer({ min: 0, max: 9 }), { minLength: 1, maxLength: 6 }), {
      nil: null,
    }),
    { minLength: 6, maxLength: 6 },
  );
/** Which of round 1's racers are withdrawn. */
const withdrawnArb = () => fc.uniqueArray(fc.integer({ min: 0, max: 7 }), { maxLength: 4 });

async function reset() {
  await h.db.execute(sql`delete from teams where competition_id = ${competitionId}`);
  await h.db.execute(sql`update racers set withdrawn_at = null where game_id = 5`);
  await h.db.execute(sql`delete from reminders_sent where event_id = 5`);
  await h.db.execute(sql`delete from outbox`);
  await h.db.execute(sql`update events set frozen_at = null where id = 5`);
}

it("the freeze and the reminders judge every team as core's teamInRound does", async () => {
  await fc.assert(
    fc.asyncProperty(teamsArb(), withdrawnArb(), async (teams, withdrawnIdx) => {
      await reset();
      const n = Math.min(pool.length, 10);
      for (const [i, picks] of teams.entries()) {
        if (picks === null) continue;
        await putTeam(
          h.db,
          players[i]!.id,
          5,
          picks.filter((k) => k < n).map((k) => pool[k]!.id),
        );
      }
      const withdrawnIds = withdrawnIdx.map((k) => pool[k]!.id);
      if (withdrawnIds.length > 0) {
        await h.db.execute(
          sql`update racers set withdrawn_at = ${due.toISOString()}::timestamptz
              where id in (${sql.join(
                withdrawnIds.map((id) => sql`${id}`),
                sql`, `,
              )})`,
        );
      }

      // What core says, player by player.
      const entries = new Map<number, RoundEntry>(
        pool
          .filter((r) => r.inRound)
          .map((r) => [r.personId, { withdrawn: withdrawnIds.includes(r.id) }]),
      );
      const expected = teams.map((picks) => {
        if (picks === null) return { plays: false, reminder: reminderReason(null) };
        const people = picks.filter((k) => k < n).map((k) => pool[k]!.personId);
        const standing = teamInRound(people, entries);
        return { plays: standing.plays, reminder: reminderReason(standing) };
      });

      // What the SQL does: the reminders sent 20 hours before the lock, then the freeze.
      await sendDueReminders(h.db, { now: due, baseUrl: "https://game.example" });
      const mails = await h.db.select({ to: outbox.to, text: outbox.text }).from(outbox);
      await freezeEvent(h.db, 5, new Date(due.getTime() + 21 * 3_600_000));
      const frozen = new Set(
        (
          await h.db
            .select({ userId: frozenTeams.userId })
            .from(frozenTeams)
            .where(eq(frozenTeams.eventId, 5))
        ).map((r) => r.userId),
      );
      const actual = players.map((p) => {
        const mail = mails.find((m) => m.to === p.email);
        const reminder = !mail
          ? null
          : mail.text.includes(NO_TEAM)
            ? "no-team"
            : mail.text.includes(FIX)
              ? "fix"
              : "other";
        return { plays: frozen.has(p.id), reminder };
      });
      expect(actual).toEqual(expected);
    }),
    { numRuns: 30 },
  );
}, 300_000);

it("the SQL of a reminder batch signs unsubscribe links as unsubscribeToken does", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.string({ minLength: 1, maxLength: 64, unit: "grapheme" }),
      fc.integer({ min: 1, max: 2_147_483_647 }),
      async (key, userId) => {
        const [row] = rowsOf<{ t: string }>(
          await h.db.execute(sql`select ${unsubscribeTokenSql(key, sql`${userId}::int`)} as t`),
        );
        expect(row?.t).toBe(unsubscribeToken(key, userId));
      },
    ),
    { numRuns: 200 },
  );
}, 120_000);
