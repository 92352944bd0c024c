import {
  CATEGORIES,
  type Category,
  type CsvTable,
  checkResults,
  pointsForStoredResult,
  type ResultIssue,
  type ResultStatus,
  readCsv,
} from "@game/core";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "../client.js";
import { events, raceResults, racers } from "../schema/index.js";
import { type AdminActor, recordAudit } from "./audit.js";
import { freezeDueEvents } from "./freeze.js";
import {
  SettlementError,
  type SettlementSummary,
  settleInTransaction,
  settlementHelper,
} from "./scoring.js";

/** One checked result with the racer's name, as the preview and the CLI show it. */
export interface ResultPreviewRow {
  line: number;
  /** The racer as the file names them (a timing export's "BRUNI Loic"). */
  asWritten: string;
  racerId: number;
  name: string;
  category: Category;
  status: ResultStatus;
  position: number | null;
  points: number;
}

export type ImportResultsOutcome =
  | { ok: false; reason: "not-found"; issues: ResultIssue[] }
  | { ok: false; reason: "invalid"; issues: ResultIssue[] }
  /** A provisional import into a round whose results are final (decision 0171). */
  | { ok: false; reason: "final"; issues: ResultIssue[] }
  | {
      ok: true;
      dryRun: boolean;
      eventId: number;
      /** Whether the round's results are provisional after this import. */
      provisional: boolean;
      /**
       * True when the file held exactly the results stored and the round was already settled
       * in the same state: nothing written, nothing re-scored (a push repeated is harmless).
       */
      unchanged: boolean;
      /** The categories whose results the file replaces; the others' stay as they are. */
      categories: Category[];
      rows: ResultPreviewRow[];
      /** Undefined on a dry run. */
      settlement?: SettlementSummary;
    };

/** The racers of an event, as the results check needs them. */
function eventRacers(db: DbOrTx, eventId: number) {
  return db
    .select({
      id: racers.id,
      category: racers.category,
      firstName: racers.firstName,
      lastName: racers.lastName,
    })
    .from(racers)
    .where(eq(racers.gameId, eventId));
}

export interface ImportResultsOptions {
  now?: Date;
  dryRun?: boolean;
  audit?: AdminActor;
  category?: Category;
  /**
   * Results that arrive while the race runs (decision 0171): the round is scored as usual and
   * says "provisional" until a final import or `finalizeResults`. Refused once the round is final.
   */
  provisional?: boolean;
}

/**
 * Imports an event's results from CSV text: the whole file is checked first (every problem
 * reported by line, nothing written when there is one); then, in one transaction, the results of
 * the categories the file covers are replaced and the event is settled again. A corrected file
 * simply replaces the old one; a timing company's file per category (`category`, or a Category
 * column) leaves the other categories' results in place (docs/decisions/0089).
 */
export function importResults(
  db: DbOrTx,
  eventId: number,
  csvText: string,
  opts: ImportResultsOptions = {},
): Promise<ImportResultsOutcome> {
  return importResultsTable(db, eventId, readCsv(csvText), opts);
}

/** `importResults` for a table read already (a CSV file, or a timing system's JSON rows). */
export async function importResultsTable(
  db: DbOrTx,
  eventId: number,
  table: CsvTable,
  opts: ImportResultsOptions = {},
): Promise<ImportResultsOutcome> {
  const now = opts.now ?? new Date();
  const provisional = opts.provisional ?? false;
  const [event] = await db
    .select({ id: events.id, settledAt: events.settledAt, provisional: events.provisional })
    .from(events)
    .where(eq(events.id, eventId));
  if (!event) {
    return {
      ok: false,
      reason: "not-found",
      issues: [{ line: 1, message: `There is no event ${eventId}.` }],
    };
  }
  if (provisional && event.settledAt && !event.provisional) {
    return {
      ok: false,
      reason: "final",
      issues: [
        {
          line: 1,
          message: `The results of event ${eventId} are final: provisional results can no longer replace them. Import a corrected file as final to correct them.`,
        },
      ],
    };
  }
  const known = await eventRacers(db, eventId);
  const check = checkResults(table, known, { category: opts.category });
  if (!check.ok) return { ok: false, reason: "invalid", issues: check.issues };

  const names = new Map(known.map((r) => [r.id, `${r.firstName} ${r.lastName}`]));
  const rows: ResultPreviewRow[] = check.rows.map((r) => ({
    line: r.line,
    asWritten: r.asWritten,
    racerId: r.racerId,
    name: names.get(r.racerId) ?? "",
    category: r.category,
    status: r.status,
    position: r.position,
    points: pointsForStoredResult(r),
  }));
  const categories = check.categories;
  const outcome = { ok: true as const, eventId, provisional, categories, rows };
  if (opts.dryRun) return { ...outcome, dryRun: true, unchanged: false };
  if (
    event.settledAt &&
    event.provisional === provisional &&
    (await sameAsStored(db, eventId, categories, check.rows))
  ) {
    return { ...outcome, dryRun: false, unchanged: true };
  }

  await freezeDueEvents(db, now);
  const helper = settlementHelper(db);
  const settlement = await db.transaction(async (tx) => {
    await tx.update(events).set({ provisional }).where(eq(events.id, eventId));
    await tx
      .delete(raceResults)
      .where(and(eq(raceResults.eventId, eventId), inArray(raceResults.category, categories)));
    // Inserted in slices: a results file has a few hundred rows, far below the parameter limit.
    for (let i = 0; i < check.rows.length; i += 1000) {
      await tx.insert(raceResults).values(
        check.rows.slice(i, i + 1000).map((r) => ({
          eventId,
          racerId: r.racerId,
          category: r.category,
          status: r.status,
          position: r.position,
        })),
      );
    }
    if (opts.audit) {
      const count = (s: ResultStatus) => check.rows.filter((r) => r.status === s).length;
      await recordAudit(tx, opts.audit, "results.import", `event:${eventId}`, {
        categories,
        rows: check.rows.length,
        finished: count("finished"),
        dnf: count("DNF"),
        dns: count("DNS"),
        dsq: count("DSQ"),
        ...(provisional ? { provisional } : {}),
      });
    }
    return settleInTransaction(tx, eventId, now, opts.audit, helper);
  });
  return { ...outcome, dryRun: false, unchanged: false, settlement };
}

/** Whether the stored results of `categories` are exactly `rows` (racer, status, place). */
async function sameAsStored(
  db: DbOrTx,
  eventId: number,
  categories: Category[],
  rows: readonly { racerId: number; status: ResultStatus; position: number | null }[],
): Promise<boolean> {
  const stored = await db
    .select({
      racerId: raceResults.racerId,
      status: raceResults.status,
      position: raceResults.position,
    })
    .from(raceResults)
    .where(and(eq(raceResults.eventId, eventId), inArray(raceResults.category, categories)));
  if (stored.length !== rows.length) return false;
  const key = (r: { racerId: number; status: string; position: number | null }) =>
    `${r.racerId}:${r.status}:${r.position ?? ""}`;
  const have = new Set(stored.map(key));
  return rows.every((r) => have.has(key(r)));
}

export type FinalizeOutcome =
  | { ok: true; alreadyFinal: true }
  | { ok: true; alreadyFinal: false; settlement: SettlementSummary };

/**
 * Makes a round's provisional results final as they stand (decision 0171): settled once more
 * (a racer without a result now did not start, so bench riders come on) and no longer labelled
 * provisional. A round already final is left as it is. SettlementError when there is no such
 * event or it has no results.
 */
export async function finalizeResults(
  db: DbOrTx,
  eventId: number,
  opts: { now?: Date; audit?: AdminActor } = {},
): Promise<FinalizeOutcome> {
  const now = opts.now ?? new Date();
  const [event] = await db
    .select({ settledAt: events.settledAt, provisional: events.provisional })
    .from(events)
    .where(eq(events.id, eventId));
  if (!event) throw new SettlementError("not-found", `There is no event ${eventId}.`);
  if (event.settledAt && !event.provisional) return { ok: true, alreadyFinal: true };
  await freezeDueEvents(db, now);
  const helper = settlementHelper(db);
  const settlement = await db.transaction(async (tx) => {
    await tx.update(events).set({ provisional: false }).where(eq(events.id, eventId));
    if (opts.audit) await recordAudit(tx, opts.audit, "results.finalize", `event:${eventId}`, {});
    return settleInTransaction(tx, eventId, now, opts.audit, helper);
  });
  return { ok: true, alreadyFinal: false, settlement };
}

export interface StoredResult {
  racerId: number;
  firstName: string;
  lastName: string;
  category: Category;
  status: ResultStatus;
  position: number | null;
  points: number;
  pickedBy: number;
}

/** A stored result's columns (the public API's answer adds the racer's picture). */
export const resultColumns = {
  racerId: raceResults.racerId,
  firstName: racers.firstName,
  lastName: racers.lastName,
  category: raceResults.category,
  status: raceResults.status,
  position: raceResults.position,
  points: raceResults.points,
  pickedBy: raceResults.pickedBy,
};

/**
 * Results in the game's order: by category as the game lists them, then place, non-finishers
 * last, then by name and id so the order is stable.
 */
export const resultOrder = [
  sql`array_position(array[${sql.join(
    CATEGORIES.map((c) => sql`${c}`),
    sql`, `,
  )}]::text[], ${raceResults.category}::text)`,
  sql`${raceResults.position} asc nulls last`,
  asc(raceResults.status),
  asc(racers.lastName),
  asc(racers.firstName),
  asc(raceResults.racerId),
];

/** An event's stored results, in the game's order (resultOrder). */
export function listEventResults(db: DbOrTx, eventId: number): Promise<StoredResult[]> {
  return db
    .select(resultColumns)
    .from(raceResults)
    .innerJoin(racers, eq(racers.id, raceResults.racerId))
    .where(eq(raceResults.eventId, eventId))
    .orderBy(...resultOrder);
}
