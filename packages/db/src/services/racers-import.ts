/**
 * The racer import shared by the dashboard and `game-admin racers import`: CSV records (split by
 * papaparse with a header row, in the browser or in the CLI) are re-validated here with the same
 * `parseRacerRows` rules from @game/core and upserted in ONE transaction: a racer is matched by
 * (event, name) and updated, or by its id when the file has an ID column; otherwise inserted. So
 * importing a file twice is the same as importing it once, and a failure writes nothing.
 */
import {
  CATEGORIES,
  type Category,
  CSV_MAX_BYTES,
  CSV_MAX_ROWS,
  headerKey,
  parseRacerRows,
  type RacerRowInput,
  racerNameKey,
  type SkippedRow,
} from "@game/core";
import { and, asc, count, eq, inArray, type SQL, sql } from "drizzle-orm";
import Papa from "papaparse";
import { type DbOrTx, rowsOf } from "../client.js";
import { events, racers } from "../schema/index.js";
import { type AdminActor, recordAudit } from "./audit.js";
import { type PublicRacer, publicRacerColumns } from "./racers.js";

/** The file cannot be imported at all (too big, not a racer CSV): nothing was written. */
export class RacerImportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RacerImportError";
  }
}

/** Without these columns no row could be imported. */
export const REQUIRED_RACER_COLUMNS = ["Category", "First Name", "Last Name"] as const;

const INT_MAX = 2_147_483_647;
const CHUNK = 1000;
/** Cells per record: a racer CSV has about ten columns; anything far beyond is not one. */
const MAX_FIELDS = 64;

export type CsvRecord = Record<string, unknown>;

/** Columns the header lacks, by their spec names. */
export function missingRacerColumns(fields: readonly string[]): string[] {
  const have = new Set(fields.map(headerKey));
  return REQUIRED_RACER_COLUMNS.filter((c) => !have.has(headerKey(c)));
}

function sizeText(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** Refuses a file over the size limit, before anything is read from it. */
export function checkCsvSize(bytes: number): void {
  if (bytes > CSV_MAX_BYTES) {
    throw new RacerImportError(
      `The file is ${sizeText(bytes)}; racer files are limited to ${sizeText(CSV_MAX_BYTES)}.`,
    );
  }
}

function checkRowCount(rows: number): void {
  if (rows > CSV_MAX_ROWS) {
    throw new RacerImportError(
      `The file has ${rows.toLocaleString("en-US")} rows; racer files are limited to ${CSV_MAX_ROWS.toLocaleString("en-US")} rows.`,
    );
  }
}

/**
 * Splits racer CSV text into records exactly as the dashboard does in the browser (papaparse,
 * header row, every line kept so record i is line i + 2). A quoting error or a header without the
 * required columns refuses the whole file: importing part of a broken file is worse than none.
 */
export function readRacerCsv(text: string): CsvRecord[] {
  checkCsvSize(Buffer.byteLength(text, "utf8"));
  const parsed = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: false });
  const quoteError = parsed.errors.find((e) => e.type === "Quotes");
  if (quoteError) {
    // Papaparse's row numbers differ by error kind; the character index does not.
    const before = text.slice(0, quoteError.index ?? 0);
    const line = before.split("\n").length;
    throw new RacerImportError(`Line ${line}: ${quoteError.message.toLowerCase()}.`);
  }
  const fields = parsed.meta.fields ?? [];
  const missing = missingRacerColumns(fields);
  if (missing.length > 0) {
    throw new RacerImportError(`The header has no ${missing.join(", ")} column.`);
  }
  // A trailing newline gives papaparse one empty record; it is not a line of the file.
  const data = parsed.data;
  const last = data[data.length - 1];
  if (last && Object.values(last).every((v) => v == null || v === "")) data.pop();
  checkRowCount(data.length);
  return data;
}

/** Records as received over the network: refused unless they are plain string maps. */
function checkRecords(records: unknown): asserts records is CsvRecord[] {
  if (!Array.isArray(records)) throw new RacerImportError("No racer rows were sent.");
  checkRowCount(records.length);
  for (const r of records) {
    if (r === null || typeof r !== "object" || Array.isArray(r)) {
      throw new RacerImportError("Every racer row must be a set of named columns.");
    }
    const values = Object.values(r);
    if (values.length > MAX_FIELDS) throw new RacerImportError("A row has too many columns.");
    for (const v of values) {
      if (v != null && typeof v !== "string" && typeof v !== "number") {
        throw new RacerImportError("Racer cells must be text.");
      }
      if (typeof v === "string" && v.length > 10_000) {
        throw new RacerImportError("A cell is longer than 10,000 characters.");
      }
    }
  }
  if (records.length > 0) {
    const missing = missingRacerColumns(Object.keys(records[0] as object));
    if (missing.length > 0) {
      throw new RacerImportError(`The header has no ${missing.join(", ")} column.`);
    }
  }
}

export interface RacerImportInput {
  /** CSV records with header names as keys (papaparse `header: true`). */
  records: unknown;
  /** Import every row into this event, whatever the Game ID column says (CLI `--game`). */
  gameId?: number;
  /** Compute the same summary, then roll back: nothing is written. */
  dryRun?: boolean;
  actor: AdminActor;
  /** The file name, for the audit log. */
  source?: string;
  /** Called after each chunk is written. */
  onProgress?: (done: number, total: number) => void;
}

export interface RacerImportSummary {
  dryRun: boolean;
  /** Data lines read (blank lines not counted). */
  rows: number;
  created: number;
  updated: number;
  /** Matched racers whose fields were already exactly the file's. */
  unchanged: number;
  /** Lines not imported, with why, in line order. */
  skipped: SkippedRow[];
}

class DryRunRollback extends Error {}

interface Planned extends RacerRowInput {
  nameKey: string;
}

function outOfRange(row: RacerRowInput): string | null {
  for (const [label, value] of [
    ["Rank2024", row.rank2024],
    ["TotalPoint2024", row.totalPoint2024],
    ["Price", row.price],
  ] as const) {
    if (value > INT_MAX) return `${label} ${value} is too large`;
  }
  return null;
}

const chunks = <T>(list: T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(list.length / size) }, (_, i) =>
    list.slice(i * size, (i + 1) * size),
  );

/**
 * Imports racers in one transaction (see the file comment). Rows are skipped, with their line and
 * the reason, when: a required cell is empty, the category is unknown, a number does not fit, the
 * event does not exist, the ID matches no racer of that event, or the racer appears twice.
 */
export async function importRacers(
  db: DbOrTx,
  input: RacerImportInput,
): Promise<RacerImportSummary> {
  checkRecords(input.records);
  const records = input.records;
  if (input.gameId !== undefined && !(Number.isSafeInteger(input.gameId) && input.gameId > 0)) {
    throw new RacerImportError(`"${input.gameId}" is not an event id.`);
  }
  const parsed = parseRacerRows(records, { gameId: input.gameId });
  const skipped: SkippedRow[] = [...parsed.skipped];
  const blank = records.filter((r) =>
    Object.values(r).every((v) => v == null || String(v).trim() === ""),
  ).length;
  const candidates: RacerRowInput[] = [];
  for (const row of parsed.rows) {
    const reason = row.gameId > INT_MAX ? `unknown event ${row.gameId}` : outOfRange(row);
    if (reason) skipped.push({ line: row.line, reason });
    else candidates.push(row);
  }

  let summary: RacerImportSummary | undefined;
  try {
    await db.transaction(async (tx) => {
      const plan = await planImport(tx, candidates, skipped);
      const total = plan.byId.length + plan.byName.length;
      let done = 0;
      let created = 0;
      let updated = 0;
      for (const chunk of chunks(plan.byId, CHUNK)) {
        updated += await updateById(tx, chunk);
        done += chunk.length;
        input.onProgress?.(done, total);
      }
      for (const chunk of chunks(plan.byName, CHUNK)) {
        const written = await upsertByName(tx, chunk);
        created += written.filter((w) => w.inserted).length;
        updated += written.filter((w) => !w.inserted).length;
        done += chunk.length;
        input.onProgress?.(done, total);
      }
      if (total === 0) input.onProgress?.(0, 0);
      skipped.sort((a, b) => a.line - b.line);
      summary = {
        dryRun: Boolean(input.dryRun),
        rows: records.length - blank,
        created,
        updated,
        unchanged: total - created - updated,
        skipped,
      };
      if (input.dryRun) throw new DryRunRollback();
      if (created + updated > 0) {
        await recordAudit(tx, input.actor, "racers.import", input.source ?? "racers", {
          created,
          updated,
          unchanged: summary.unchanged,
          skipped: skipped.length,
          ...(input.gameId ? { gameId: input.gameId } : {}),
        });
      }
    });
  } catch (error) {
    if (!(error instanceof DryRunRollback)) throw error;
  }
  return summary!;
}

/** Decides, against the database as it is, which rows update by id, upsert by name, or skip. */
async function planImport(tx: DbOrTx, rows: RacerRowInput[], skipped: SkippedRow[]) {
  const gameIds = [...new Set(rows.map((r) => r.gameId))];
  const known = new Set(
    gameIds.length === 0
      ? []
      : (await tx.select({ id: events.id }).from(events).where(inArray(events.id, gameIds))).map(
          (e) => e.id,
        ),
  );
  const ids = [...new Set(rows.flatMap((r) => (r.id && r.id <= INT_MAX ? [r.id] : [])))];
  const existingById = new Map<number, { gameId: number; nameKey: string }>();
  for (const chunk of chunks(ids, 5000)) {
    const found = await tx
      .select({ id: racers.id, gameId: racers.gameId, nameKey: racers.nameKey })
      .from(racers)
      .where(inArray(racers.id, chunk));
    for (const r of found) existingById.set(r.id, r);
  }
  // Who owns each (event, name) now: an id row may not take another racer's name.
  const ownerOfKey = new Map<string, number>();
  const idGames = [...new Set(rows.filter((r) => r.id).map((r) => r.gameId))].filter((g) =>
    known.has(g),
  );
  if (idGames.length > 0) {
    const owners = await tx
      .select({ id: racers.id, gameId: racers.gameId, nameKey: racers.nameKey })
      .from(racers)
      .where(inArray(racers.gameId, idGames));
    for (const r of owners) ownerOfKey.set(`${r.gameId}|${r.nameKey}`, r.id);
  }

  const byId: Planned[] = [];
  const byName: Planned[] = [];
  const lineOfKey = new Map<string, number>();
  const lineOfId = new Map<number, number>();
  for (const row of rows) {
    const nameKey = racerNameKey(row.firstName, row.lastName);
    const key = `${row.gameId}|${nameKey}`;
    const skip = (reason: string) => skipped.push({ line: row.line, reason });
    if (!known.has(row.gameId)) {
      skip(`unknown event ${row.gameId}`);
      continue;
    }
    if (row.id) {
      const current = existingById.get(row.id);
      if (!current) {
        skip(`no racer with ID ${row.id}`);
        continue;
      }
      if (current.gameId !== row.gameId) {
        skip(`racer ${row.id} belongs to event ${current.gameId}, not ${row.gameId}`);
        continue;
      }
      const owner = ownerOfKey.get(key);
      if (owner !== undefined && owner !== row.id) {
        skip(`racer ${owner} in event ${row.gameId} already has that name`);
        continue;
      }
      const seen = lineOfId.get(row.id);
      if (seen !== undefined) {
        skip(`same racer ID as line ${seen}`);
        continue;
      }
      lineOfId.set(row.id, row.line);
    }
    const seen = lineOfKey.get(key);
    if (seen !== undefined) {
      skip(`same racer as line ${seen}`);
      continue;
    }
    lineOfKey.set(key, row.line);
    (row.id ? byId : byName).push({ ...row, nameKey });
  }
  return { byId, byName };
}

function fields(r: Planned) {
  return {
    gameId: r.gameId,
    category: r.category,
    firstName: r.firstName,
    lastName: r.lastName,
    nameKey: r.nameKey,
    picture: r.picture,
    origin: r.origin,
    rank2024: r.rank2024,
    totalPoint2024: r.totalPoint2024,
    price: r.price,
  };
}

/**
 * Multi-row insert, updating the racers that already exist (same event and name) when a field
 * differs; returns one row per racer written, `inserted` false for an update. The rows travel as
 * one JSON parameter: building thousands of bound parameters costs more than the insert itself.
 */
async function upsertByName(tx: DbOrTx, chunk: Planned[]): Promise<{ inserted: boolean }[]> {
  const json = JSON.stringify(chunk.map(fields));
  const result = await tx.execute(sql`
    insert into ${racers} as r (game_id, category, first_name, last_name, name_key, picture,
                                origin, rank2024, total_point2024, price)
    select v."gameId", v."category", v."firstName", v."lastName", v."nameKey", v."picture",
           v."origin", v."rank2024", v."totalPoint2024", v."price"
    from jsonb_to_recordset(${json}::jsonb) as v(
      "gameId" integer, "category" text, "firstName" text, "lastName" text, "nameKey" text,
      "picture" text, "origin" text, "rank2024" integer, "totalPoint2024" integer, "price" integer)
    on conflict (game_id, name_key) do update set
      category = excluded.category, first_name = excluded.first_name,
      last_name = excluded.last_name, picture = excluded.picture, origin = excluded.origin,
      rank2024 = excluded.rank2024, total_point2024 = excluded.total_point2024,
      price = excluded.price, updated_at = now()
    where (r.category, r.first_name, r.last_name, r.picture, r.origin, r.rank2024,
           r.total_point2024, r.price)
      is distinct from
        (excluded.category, excluded.first_name, excluded.last_name, excluded.picture,
         excluded.origin, excluded.rank2024, excluded.total_point2024, excluded.price)
    returning (r.xmax = 0) as inserted`);
  return rowsOf<{ inserted: boolean }>(result);
}

/** Updates racers named by id, in one statement per chunk; returns how many changed. */
async function updateById(tx: DbOrTx, chunk: Planned[]): Promise<number> {
  const json = JSON.stringify(chunk.map((r) => ({ id: r.id, ...fields(r) })));
  const result = await tx.execute(sql`
    update ${racers} as r set
      category = v."category", first_name = v."firstName", last_name = v."lastName",
      name_key = v."nameKey", picture = v."picture", origin = v."origin",
      rank2024 = v."rank2024", total_point2024 = v."totalPoint2024", price = v."price",
      updated_at = now()
    from jsonb_to_recordset(${json}::jsonb) as v(
      "id" integer, "category" text, "firstName" text, "lastName" text, "nameKey" text,
      "picture" text, "origin" text, "rank2024" integer, "totalPoint2024" integer, "price" integer)
    where r.id = v."id"
      and (r.category, r.first_name, r.last_name, r.name_key, r.picture, r.origin, r.rank2024,
           r.total_point2024, r.price)
        is distinct from
          (v."category", v."firstName", v."lastName", v."nameKey", v."picture", v."origin",
           v."rank2024", v."totalPoint2024", v."price")
    returning r.id`);
  return rowsOf(result).length;
}

export interface AdminRacerRow extends PublicRacer {
  updatedAt: Date;
}

/** Racers of every event (or one), optionally one category: event, category, rank, name. */
export async function listRacersForAdmin(
  db: DbOrTx,
  opts: { gameId?: number; category?: Category; limit?: number; offset?: number } = {},
): Promise<{ rows: AdminRacerRow[]; total: number }> {
  const where: SQL[] = [];
  if (opts.gameId !== undefined) where.push(eq(racers.gameId, opts.gameId));
  if (opts.category) where.push(eq(racers.category, opts.category));
  const limit = Math.min(Math.max(Math.trunc(opts.limit ?? CSV_MAX_ROWS), 1), 100_000);
  const offset = Math.max(Math.trunc(opts.offset ?? 0), 0);
  const [rows, [totals]] = await Promise.all([
    db
      .select({ ...publicRacerColumns, updatedAt: racers.updatedAt })
      .from(racers)
      .where(and(...where))
      .orderBy(
        asc(racers.gameId),
        // The tab order (Pro Men, Pro Women, 17-18 Men, 17-18 Women), not alphabetical.
        sql`array_position(array[${sql.join(
          CATEGORIES.map((c) => sql`${c}`),
          sql`, `,
        )}]::text[], ${racers.category})`,
        sql`(${racers.rank2024} = 0)`,
        asc(racers.rank2024),
        asc(racers.lastName),
        asc(racers.firstName),
        asc(racers.id),
      )
      .limit(limit)
      .offset(offset),
    db
      .select({ total: count() })
      .from(racers)
      .where(and(...where)),
  ]);
  return { rows, total: totals?.total ?? 0 };
}
