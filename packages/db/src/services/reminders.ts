/**
 * Deadline reminders (docs/decisions/0103): 24 hours before a round locks, every player (an
 * accepted account with a confirmed e-mail address (decision 0151), reminders not turned off) with no team for the round, a draft, or a racer who
 * does not start gets one e-mail: the round, the exact lock time in the player's time zone (UTC
 * while unknown; decision 0144), a link to their team and an unsubscribe link (also as a one-click List-Unsubscribe header, RFC 8058).
 *
 * Exactly once per player per round: each batch claims its players in `reminders_sent`
 * (`INSERT ... ON CONFLICT DO NOTHING`) and writes their mails to the outbox in the same
 * transaction, so a crash, a restart or a second app process can never send twice. Batches are
 * set-based SQL (a thousand mails per statement), so a million players do not block the app;
 * with SMTP each batch is then delivered and marked sent or failed.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import {
  DEFAULT_TIME_ZONE,
  formatDateTime,
  isTimeZone,
  lockTime,
  REMINDER_PLACEHOLDERS,
  type ReminderMessage,
  reminderMessage,
} from "@game/core";
import { eq, type SQL, sql } from "drizzle-orm";
import { type DbOrTx, rowsOf } from "../client.js";
import { appKeys, competitions, events, reminderOptouts, users } from "../schema/index.js";
import { type AdminActor, recordAudit } from "./audit.js";
import { parseRules } from "./events.js";

/** Reminders go out from this long before the lock until the lock. */
export const REMINDER_LEAD_MS = 24 * 60 * 60 * 1000;
const REMINDER_LOCK = 727_302;

export interface ReminderMail {
  id: number;
  to: string;
  subject: string;
  text: string;
  headers: Record<string, string>;
}

export interface ReminderOptions {
  now: Date;
  /** The public address of the game, for the links (no trailing slash needed). */
  baseUrl: string;
  /**
   * The mail's words and links, filled per player by the batch. Default: the game's reminder
   * (`reminderMessage(baseUrl)` of @game/core), the one both the app and the CLI send.
   */
  message?: ReminderMessage;
  dryRun?: boolean;
  /** Mails per batch (one transaction each). */
  batchSize?: number;
  /** Delivers one mail (SMTP). Without it the outbox is where the mail goes. */
  deliver?: (mail: ReminderMail) => Promise<void>;
  /** Who asked (the CLI): the run is audited when anything was sent. */
  actor?: AdminActor;
}

export interface ReminderRound {
  eventId: number;
  name: string;
  lockAt: Date;
  /** Players due a reminder (dry run), or reminded now. */
  players: number;
}

export interface ReminderSummary {
  dryRun: boolean;
  rounds: ReminderRound[];
  sent: number;
  /** Mails SMTP refused (kept in the outbox with the error). */
  failed: number;
  /** Another process was sending at the same moment: it sends the rest. */
  busy: boolean;
}

/** The key signing unsubscribe links (created by the migration). */
async function reminderKey(db: DbOrTx): Promise<string> {
  const [row] = await db.select().from(appKeys).where(eq(appKeys.name, "reminders"));
  if (!row) throw new Error("The reminders key is missing: run the database migrations.");
  return row.value;
}

/** The token of a player's unsubscribe link: the same sum the SQL of a batch computes. */
export function unsubscribeToken(key: string, userId: number): string {
  return createHash("sha256").update(`${key}:${userId}`).digest("hex").slice(0, 32);
}

/**
 * `unsubscribeToken` in SQL, for a batch of a million mails (a property test holds the two
 * equal): `userId` is the SQL of the player's id.
 */
export function unsubscribeTokenSql(key: string, userId: SQL): SQL {
  return sql`substr(encode(sha256(convert_to(${key} || ':' || ${userId}, 'UTF8')), 'hex'), 1, 32)`;
}

/**
 * The rounds whose reminders are due now: open, locking (by their competition's lock hours)
 * within the next 24 hours. Few rounds are open at once, so the lock is judged here by core.
 */
async function dueRounds(db: DbOrTx, now: Date) {
  const rows = await db
    .select({
      id: events.id,
      name: events.name,
      startsAt: events.startsAt,
      rules: competitions.rules,
    })
    .from(events)
    .innerJoin(competitions, eq(competitions.id, events.competitionId))
    .where(eq(events.status, "open"))
    .orderBy(events.startsAt);
  return rows
    .map(({ rules, ...e }) => ({ ...e, lockAt: lockTime(e, parseRules(rules).lockHours) }))
    .filter(
      (e) =>
        e.lockAt.getTime() > now.getTime() &&
        e.lockAt.getTime() <= now.getTime() + REMINDER_LEAD_MS,
    );
}

/**
 * Players of `eventId` due a reminder: no team for its competition, a racer on the team without
 * an entry in the round (the team would not play: the freeze's rule), or a withdrawn one. Core's
 * `reminderReason(teamInRound(...))` in SQL; round-entries.property.test.ts holds them equal.
 */
function candidates(eventId: number, range = sql``) {
  return sql`
    select u.id, u.email, u.username, u.time_zone, (t.id is null) as no_team
    from users u
    left join teams t on t.user_id = u.id
      and t.competition_id = (select competition_id from events where id = ${eventId})
    where u.accepted
      and u.email <> ''
      and u.email_confirmed_at is not null
      and not exists (select 1 from reminder_optouts o where o.user_id = u.id)
      and not exists (select 1 from reminders_sent s where s.user_id = u.id and s.event_id = ${eventId})
      and (t.id is null or exists (
        select 1 from team_racers tr
        left join racers r on r.game_id = ${eventId} and r.person_id = tr.person_id
        where tr.team_id = t.id and (r.id is null or r.withdrawn_at is not null)))
      ${range}`;
}

/**
 * The lock moment written in each of `zones` ("Sunday 18 April 2027, 06:00 CEST"), as JSON for
 * the SQL of a batch to pick the player's from (unknown zones are left out: those players get UTC).
 */
function lockTexts(lockAt: Date, zones: readonly string[]): string {
  const texts: Record<string, string> = {};
  for (const zone of zones) if (isTimeZone(zone)) texts[zone] = formatDateTime(lockAt, zone);
  return JSON.stringify(texts);
}

/**
 * Sends the reminders due now, batch by batch; a dry run counts them and writes nothing.
 */
export async function sendDueReminders(
  db: DbOrTx,
  opts: ReminderOptions,
): Promise<ReminderSummary> {
  const message = opts.message ?? reminderMessage(opts.baseUrl);
  const size = Math.min(Math.max(Math.trunc(opts.batchSize ?? 2_000), 1), 10_000);
  const summary: ReminderSummary = {
    dryRun: Boolean(opts.dryRun),
    rounds: [],
    sent: 0,
    failed: 0,
    busy: false,
  };
  const rounds = await dueRounds(db, opts.now);
  if (rounds.length === 0) return summary;
  const key = await reminderKey(db);

  for (const round of rounds) {
    const entry: ReminderRound = {
      eventId: round.id,
      name: round.name,
      lockAt: round.lockAt,
      players: 0,
    };
    summary.rounds.push(entry);
    if (opts.dryRun) {
      const [row] = rowsOf<{ n: number }>(
        await db.execute(sql`select count(*)::int as n from (${candidates(round.id)}) c`),
      );
      entry.players = row?.n ?? 0;
      continue;
    }
    // What every batch of the round shares: its texts, written once.
    const texts = {
      round,
      message,
      key,
      now: opts.now,
      subject: message.subject(round),
      text: message.text(round),
      utcLock: formatDateTime(round.lockAt, DEFAULT_TIME_ZONE),
    };
    // Keyset batches by player id: each batch starts where the last one ended, so a million
    // players cost one pass over the users, not a rescan of the reminded ones per batch.
    let after = 0;
    for (;;) {
      const step = await db.transaction((tx) => claimBatch(tx, { ...texts, after, size }));
      if (step === null) {
        summary.busy = true;
        break;
      }
      after = step.upto;
      entry.players += step.mails.length;
      summary.sent += step.mails.length;
      if (opts.deliver) summary.failed += await deliverBatch(db, step.mails, opts.deliver);
      if (step.n < size) break;
    }
  }
  if (!opts.dryRun && opts.actor && summary.sent > 0) {
    await recordAudit(db, opts.actor, "reminders.send", "reminders", {
      sent: summary.sent,
      failed: summary.failed,
      rounds: summary.rounds.map((r) => ({ eventId: r.eventId, players: r.players })),
    });
  }
  return summary;
}

type DueRound = Awaited<ReturnType<typeof dueRounds>>[number];

/**
 * One batch of a round's reminders, in one transaction: up to `size` players after `after` who
 * are due one are claimed in `reminders_sent` (never twice) and their mails written to the outbox,
 * the lock time in each player's zone. Null when another process is sending (the advisory lock).
 */
async function claimBatch(
  tx: DbOrTx,
  args: {
    round: DueRound;
    after: number;
    size: number;
    message: ReminderMessage;
    key: string;
    now: Date;
    /** The round's subject and text with their placeholders, and its lock in UTC. */
    subject: string;
    text: string;
    utcLock: string;
  },
) {
  const { round, after, size, message, key, now, subject, text, utcLock } = args;
  const [lock] = rowsOf<{ ok: boolean }>(
    await tx.execute(sql`select pg_try_advisory_xact_lock(${REMINDER_LOCK}) as ok`),
  );
  if (!lock?.ok) return null;
  const [window] = rowsOf<{ upto: number | null; n: number; zones: string[] | string }>(
    await tx.execute(sql`
      select max(w.id)::int as upto, count(*)::int as n,
        coalesce(jsonb_agg(distinct w.time_zone) filter (where w.time_zone is not null),
          '[]'::jsonb) as zones
      from (${candidates(round.id, sql`and u.id > ${after}`)} order by u.id limit ${size}) w`),
  );
  if (!window?.n || window.upto === null) return { mails: [], n: 0, upto: after };
  const range = sql`and u.id > ${after} and u.id <= ${window.upto}`;
  // The lock in each player's zone, written here for the zones of this batch only.
  const zones = typeof window.zones === "string" ? JSON.parse(window.zones) : window.zones;
  const lockText = sql`coalesce(${lockTexts(round.lockAt, zones)}::jsonb ->> c.time_zone, ${utcLock})`;
  const p = REMINDER_PLACEHOLDERS;
  const unsubscribe = sql`replace(replace(${message.unsubscribeLink}, ${p.user}, c.id::text),
    ${p.token}, ${unsubscribeTokenSql(key, sql`c.id`)})`;
  const mails = rowsOf<ReminderMail & { headers: Record<string, string> }>(
    await tx.execute(sql`
      with c as (${candidates(round.id, range)}),
      claimed as (
        insert into reminders_sent (user_id, event_id, sent_at)
        select id, ${round.id}, ${now.toISOString()}::timestamptz from c
        on conflict do nothing
        returning user_id
      )
      insert into outbox ("to", subject, text, headers, created_at)
      select c.email, replace(${subject}, ${p.lock}, ${lockText}),
        -- The player's name last, so a name that looks like a placeholder stays a name.
        replace(replace(replace(replace(${text},
          ${p.lock}, ${lockText}),
          ${p.what}, case when c.no_team then ${message.noTeam} else ${message.fixTeam} end),
          ${p.unsubscribe}, ${unsubscribe}), ${p.name}, c.username),
        jsonb_build_object(
          'List-Unsubscribe', '<' || ${unsubscribe} || '>',
          'List-Unsubscribe-Post', 'List-Unsubscribe=One-Click'),
        ${now.toISOString()}::timestamptz
      from c join claimed on claimed.user_id = c.id
      returning id, "to", subject, text, headers`),
  );
  return { mails, n: window.n, upto: window.upto };
}

/** Hands each mail to `deliver`, marking it sent or keeping its error. Returns the failures. */
async function deliverBatch(
  db: DbOrTx,
  mails: ReminderMail[],
  deliver: NonNullable<ReminderOptions["deliver"]>,
): Promise<number> {
  let failed = 0;
  for (const mail of mails) {
    try {
      await deliver(mail);
      await db.execute(sql`update outbox set sent_at = now(), error = null where id = ${mail.id}`);
    } catch (error) {
      failed += 1;
      const message = (error instanceof Error ? error.message : String(error))
        .split("\n")[0]!
        .slice(0, 500);
      await db.execute(
        sql`update outbox set error = ${message || "delivery failed"} where id = ${mail.id}`,
      );
    }
  }
  return failed;
}

/** Checks an unsubscribe link; the player id when it is genuine. */
export async function checkUnsubscribeLink(
  db: DbOrTx,
  userId: number,
  token: string,
): Promise<boolean> {
  if (!Number.isSafeInteger(userId) || userId <= 0 || !/^[0-9a-f]{32}$/.test(token)) return false;
  const expected = Buffer.from(unsubscribeToken(await reminderKey(db), userId));
  return timingSafeEqual(expected, Buffer.from(token));
}

/** Turns a player's deadline reminders off or on again. */
export async function setRemindersOff(db: DbOrTx, userId: number, off: boolean): Promise<void> {
  if (off) {
    await db.insert(reminderOptouts).values({ userId }).onConflictDoNothing();
  } else {
    await db.delete(reminderOptouts).where(eq(reminderOptouts.userId, userId));
  }
}

export async function remindersOff(db: DbOrTx, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ userId: reminderOptouts.userId })
    .from(reminderOptouts)
    .innerJoin(users, eq(users.id, reminderOptouts.userId))
    .where(eq(reminderOptouts.userId, userId));
  return Boolean(row);
}
