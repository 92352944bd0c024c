import {
  CATEGORIES,
  type Category,
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
import { freezeDueEvents, type SettlementSummary, settleInTransaction } from "./scoring.js";

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
  | {
      ok: true;
      dryRun: boolean;
      eventId: number;
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

/**
 * Imports an event's results from CSV text: the whole file is checked first (every problem
 * reported by line, nothing written when there is one); then, in one transaction, the results of
 * the categories the file covers are replaced and the event is settled again. A corrected file
 * simply replaces the old one; a timing company's file per category (`category`, or a Category
 * column) leaves the other categories' results in place (docs/decisions/0089).
 */
export async function importResults(
  db: DbOrTx,
  eventId: number,
  csvText: string,
  opts: { now?: Date; dryRun?: boolean; audit?: AdminActor; category?: Category } = {},
): Promise<ImportResultsOutcome> {
  const now = opts.now ?? new Date();
  const [event] = await db.select({ id: events.id }).from(events).where(eq(events.id, eventId));
  if (!event) {
    return {
      ok: false,
      reason: "not-found",
      issues: [{ line: 1, message: `There is no event ${eventId}.` }],
    };
  }
  const known = await eventRacers(db, eventId);
  const check = checkResults(readCsv(csvText), known, { category: opts.category });
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
  if (opts.dryRun) return { ok: true, dryRun: true, eventId, categories, rows };

  await freezeDueEvents(db, now);
  const settlement = await db.transaction(async (tx) => {
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
      });
    }
    return settleInTransaction(tx, eventId, now, opts.audit);
  });
  return { ok: true, dryRun: false, eventId, categories, rows, settlement };
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
