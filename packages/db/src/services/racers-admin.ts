/**
 * One racer at a time, for the dashboard and `game-admin racers set|withdraw|reinstate`: edit a
 * racer's fields, or withdraw them from their round (kept for history and for the teams holding
 * them, no longer pickable) and reinstate them. Audited like every admin write.
 */
import {
  type Category,
  normalizeCategory,
  RACER_FIELD_LABELS,
  RACER_NUMBER_MAX,
  racerNameKey,
} from "@game/core";
import { and, eq, isNotNull, sql } from "drizzle-orm";
import { type DbOrTx, rowsOf } from "../client.js";
import { events, racers, teamRacers, teams } from "../schema/index.js";
import { AdminActionError, type AdminActor, recordAudit } from "./audit.js";
import type { RacerFieldChange } from "./racers-import.js";

export type RacerRecord = typeof racers.$inferSelect;

/** The fields an admin may set on one racer; what is left out stays as it is. */
export interface RacerEdit {
  category?: string;
  firstName?: string;
  lastName?: string;
  picture?: string | null;
  origin?: string;
  rank2024?: number;
  totalPoint2024?: number;
  price?: number;
}

const NUMBERS = ["rank2024", "totalPoint2024", "price"] as const;
const MAX_TEXT = 200;

async function lockRacer(tx: DbOrTx, id: number): Promise<RacerRecord> {
  if (!Number.isSafeInteger(id) || id <= 0 || id > RACER_NUMBER_MAX) {
    throw new AdminActionError(`No racer with id ${id}.`, "not-found");
  }
  const [row] = await tx.select().from(racers).where(eq(racers.id, id)).for("update");
  if (!row) throw new AdminActionError(`No racer with id ${id}.`, "not-found");
  return row;
}

/** The edit checked and normalised: a bad value is refused with what is wrong. */
function checkEdit(edit: RacerEdit): Partial<RacerRecord> {
  const next: Partial<RacerRecord> = {};
  if (edit.category !== undefined) {
    const category: Category | undefined = normalizeCategory(edit.category);
    if (!category) {
      throw new AdminActionError(
        `Unknown category "${edit.category.slice(0, 40)}": use Pro Men, Pro Women, 17-18 Men or 17-18 Women.`,
      );
    }
    next.category = category;
  }
  for (const field of ["firstName", "lastName"] as const) {
    const value = edit[field];
    if (value === undefined) continue;
    const text = value.trim();
    if (!text) throw new AdminActionError(`${RACER_FIELD_LABELS[field]} cannot be empty.`);
    if (text.length > MAX_TEXT) {
      throw new AdminActionError(`${RACER_FIELD_LABELS[field]} is longer than ${MAX_TEXT}.`);
    }
    next[field] = text;
  }
  if (edit.origin !== undefined) next.origin = edit.origin.trim().slice(0, MAX_TEXT);
  if (edit.picture !== undefined) next.picture = edit.picture?.trim().slice(0, MAX_TEXT) || null;
  for (const field of NUMBERS) {
    const value = edit[field];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value < 0 || value > RACER_NUMBER_MAX) {
      throw new AdminActionError(
        `${RACER_FIELD_LABELS[field]} must be a whole number from 0 to ${RACER_NUMBER_MAX}.`,
      );
    }
    next[field] = value;
  }
  return next;
}

export interface RacerEditResult {
  racer: RacerRecord;
  /** Every field that changed, old -> new; empty when the racer already was so. */
  changes: RacerFieldChange[];
}

/** Sets some fields of one racer (a rename keeps the name unique within the event). */
export async function setRacer(
  db: DbOrTx,
  id: number,
  edit: RacerEdit,
  actor: AdminActor,
): Promise<RacerEditResult> {
  const next = checkEdit(edit);
  return db.transaction(async (tx) => {
    const before = await lockRacer(tx, id);
    const changes: RacerFieldChange[] = [];
    const set: Partial<RacerRecord> = {};
    for (const [field, to] of Object.entries(next) as [keyof RacerRecord, never][]) {
      const from = before[field];
      if (from === to) continue;
      (set as Record<string, unknown>)[field] = to;
      changes.push({
        field: RACER_FIELD_LABELS[field as keyof typeof RACER_FIELD_LABELS] ?? field,
        from: from as RacerFieldChange["from"],
        to,
      });
    }
    if (changes.length === 0) return { racer: before, changes };
    const firstName = set.firstName ?? before.firstName;
    const lastName = set.lastName ?? before.lastName;
    const nameKey = racerNameKey(firstName, lastName);
    if (nameKey !== before.nameKey) {
      const [clash] = await tx
        .select({ id: racers.id })
        .from(racers)
        .where(and(eq(racers.gameId, before.gameId), eq(racers.nameKey, nameKey)));
      if (clash && clash.id !== id) {
        throw new AdminActionError(
          `Racer ${clash.id} in event ${before.gameId} already is ${firstName} ${lastName}.`,
        );
      }
    }
    const [after] = await tx
      .update(racers)
      .set({ ...set, nameKey, updatedAt: new Date() })
      .where(eq(racers.id, id))
      .returning();
    await recordAudit(tx, actor, "racer.set", `racer:${id}`, { changes });
    return { racer: after!, changes };
  });
}

export interface WithdrawResult {
  racer: RacerRecord;
  /** False when the racer already was in that state (nothing written, nothing audited). */
  changed: boolean;
  /** Teams of the round holding the racer: they are told on their team page. */
  teamsHolding: number;
}

/** Teams of the racer's competition holding them (a team holds racers as people). */
async function teamsHolding(tx: DbOrTx, racerId: number): Promise<number> {
  const [row] = rowsOf<{ n: number }>(
    await tx.execute(sql`
      select count(*)::int as n
      from racers r join events e on e.id = r.game_id
      join team_racers tr on tr.person_id = r.person_id
      join teams t on t.id = tr.team_id and t.competition_id = e.competition_id
      where r.id = ${racerId}`),
  );
  return row?.n ?? 0;
}

/**
 * Withdraws a racer from their round, or reinstates them. A withdrawn racer stays in the
 * database (results, history, the teams that bought them) but cannot be picked any more.
 */
export function setRacerWithdrawn(
  db: DbOrTx,
  id: number,
  withdrawn: boolean,
  actor: AdminActor,
): Promise<WithdrawResult> {
  return db.transaction(async (tx) => {
    const before = await lockRacer(tx, id);
    const holding = await teamsHolding(tx, id);
    if (Boolean(before.withdrawnAt) === withdrawn) {
      return { racer: before, changed: false, teamsHolding: holding };
    }
    const [after] = await tx
      .update(racers)
      .set({ withdrawnAt: withdrawn ? new Date() : null, updatedAt: new Date() })
      .where(eq(racers.id, id))
      .returning();
    await recordAudit(tx, actor, withdrawn ? "racer.withdraw" : "racer.reinstate", `racer:${id}`, {
      name: `${before.firstName} ${before.lastName}`,
      gameId: before.gameId,
      teamsHolding: holding,
    });
    return { racer: after!, changed: true, teamsHolding: holding };
  });
}

/** The withdrawn racers on one player's team for an event, for the notice on their pages. */
export async function withdrawnRacersOnTeam(
  db: DbOrTx,
  userId: number,
  eventId: number,
): Promise<{ id: number; firstName: string; lastName: string; withdrawnAt: Date }[]> {
  const rows = await db
    .select({
      id: racers.id,
      firstName: racers.firstName,
      lastName: racers.lastName,
      withdrawnAt: racers.withdrawnAt,
    })
    .from(teams)
    .innerJoin(teamRacers, eq(teamRacers.teamId, teams.id))
    .innerJoin(racers, and(eq(racers.personId, teamRacers.personId), eq(racers.gameId, eventId)))
    .where(
      and(
        eq(teams.userId, userId),
        sql`${teams.competitionId} = (select ${events.competitionId} from ${events} where ${events.id} = ${eventId})`,
        isNotNull(racers.withdrawnAt),
      ),
    )
    .orderBy(teamRacers.slot);
  return rows.map((r) => ({ ...r, withdrawnAt: r.withdrawnAt! }));
}

/** One racer with how many teams hold them, for the dashboard's edit page; undefined if none. */
export async function getRacerForAdmin(
  db: DbOrTx,
  id: number,
): Promise<(RacerRecord & { teamsHolding: number }) | undefined> {
  if (!Number.isSafeInteger(id) || id <= 0 || id > RACER_NUMBER_MAX) return undefined;
  const [row] = await db.select().from(racers).where(eq(racers.id, id));
  return row ? { ...row, teamsHolding: await teamsHolding(db, id) } : undefined;
}
