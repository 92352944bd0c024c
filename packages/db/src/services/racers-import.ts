/**
 * The racer import shared by the dashboard and `game-admin racers import`. The file is read by
 * `parseRacerCsv` from @game/core (the dashboard's preview runs the same function), then planned
 * against the database: a racer is matched by (event, name), or by its id when the file has an ID
 * column, and only the fields the file gives change (docs/decisions/0080): a column the file does
 * not carry never resets anything. Every change is listed field by field, old -> new. A dry run
 * plans without writing (no insert, so no racer id is used up); a real import writes the plan in
 * ONE transaction, so importing a file twice is the same as once and a failure writes nothing.
 */
import {
  CATEGORIES,
  type Category,
  CSV_MAX_BYTES,
  CSV_MAX_ROWS,
  type CsvEncoding,
  CsvFileError,
  type DefaultUsed,
  parseRacerCsv,
  RACER_FIELD_LABELS,
  RACER_NUMBER_MAX,
  RACER_UPDATE_FIELDS,
  type RacerCsvFile,
  type RacerImportRow,
  type RacerUpdateField,
  racerCsvFromRecords,
  racerNameKey,
  readRacerCsvBytes,
  type SkippedRow,
} from "@game/core";
import { and, asc, count, eq, inArray, type SQL, sql } from "drizzle-orm";
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

const CHUNK = 1000;
/** Cells per record: a racer CSV has about ten columns; anything far beyond is not one. */
const MAX_FIELDS = 64;

export type CsvRecord = Record<string, unknown>;

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

/** CsvFileError (core's refusal of a file) as this service's error: one class for callers. */
function asImportError<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof CsvFileError) throw new RacerImportError(error.message);
    throw error;
  }
}

/**
 * Reads a racer CSV file, its bytes (the encoding is detected) or its text, exactly as the
 * dashboard's preview does. Throws RacerImportError with a message for the person when the file
 * as a whole cannot be imported.
 */
export function readRacerCsv(
  input: string | Uint8Array,
  opts: { gameId?: number } = {},
): RacerCsvFile {
  return asImportError(() =>
    typeof input === "string" ? parseRacerCsv(input, opts) : readRacerCsvBytes(input, opts),
  );
}

/** Records as received over the network: refused unless they are plain string maps. */
function checkRecords(records: unknown): asserts records is CsvRecord[] {
  if (!Array.isArray(records)) throw new RacerImportError("No racer rows were sent.");
  if (records.length > CSV_MAX_ROWS) {
    throw new RacerImportError(
      `The file has ${records.length.toLocaleString("en-US")} rows; racer files are limited to ${CSV_MAX_ROWS.toLocaleString("en-US")} rows.`,
    );
  }
  for (const r of records) {
    if (r === null || typeof r !== "object" || Array.isArray(r)) {
      throw new RacerImportError("Every racer row must be a set of named columns.");
    }
    const values = Object.entries(r);
    if (values.length > MAX_FIELDS) throw new RacerImportError("A row has too many columns.");
    for (const [key, v] of values) {
      // papaparse puts the cells past the header in an array: read as extra cells.
      const cells = key === "__parsed_extra" && Array.isArray(v) ? v : [v];
      for (const c of cells) {
        if (c != null && typeof c !== "string" && typeof c !== "number") {
          throw new RacerImportError("Racer cells must be text.");
        }
        if (typeof c === "string" && c.length > 10_000) {
          throw new RacerImportError("A cell is longer than 10,000 characters.");
        }
      }
    }
  }
}

export interface RacerImportInput {
  /** The CSV file: its bytes (encoding detected) or its decoded text. */
  csv?: string | Uint8Array;
  /** Or records with header names as keys (papaparse `header: true`), as older clients send. */
  records?: unknown;
  /** Import every row into this event, whatever the Game ID column says (CLI `--game`). */
  gameId?: number;
  /** Plan and report exactly as an import would, writing nothing (no racer id is used). */
  dryRun?: boolean;
  actor: AdminActor;
  /** The file name, for the audit log. */
  source?: string;
  /** Called after each chunk is written. */
  onProgress?: (done: number, total: number) => void;
}

/** One field an import sets, old -> new (old is null for a new racer). */
export interface RacerFieldChange {
  field: string;
  from: string | number | null;
  to: string | number | null;
}

/** A racer the import creates or changes, with every field that changes. */
export interface RacerChange {
  line: number;
  action: "create" | "update";
  gameId: number;
  name: string;
  changes: RacerFieldChange[];
}

export interface RacerImportSummary {
  dryRun: boolean;
  /** How the file's bytes were read, when the service read them. */
  encoding?: CsvEncoding;
  /** Data lines read (blank lines not counted). */
  rows: number;
  created: number;
  updated: number;
  /** Matched racers whose fields were already exactly the file's. */
  unchanged: number;
  /** Lines not imported, with why, in line order. */
  skipped: SkippedRow[];
  /** Cells that were not numbers, replaced by the spec's default, by line. */
  defaults: DefaultUsed[];
  /** Optional columns the file lacks: existing racers keep these fields. */
  kept: string[];
  /** Header cells that are not racer columns: ignored. */
  ignoredColumns: string[];
  /** Every racer created or changed, in line order. */
  changes: RacerChange[];
  /**
   * Saved teams holding a racer whose price this import changes. They stay valid: a team keeps
   * the price it paid (docs/decisions/0101); the count tells the admin who sees a new price.
   */
  teamsTouched: number;
}

type Fields = Pick<
  PublicRacer,
  | "gameId"
  | "category"
  | "firstName"
  | "lastName"
  | "picture"
  | "origin"
  | "rank2024"
  | "totalPoint2024"
  | "price"
>;

interface Existing extends Fields {
  id: number;
  nameKey: string;
}

/** A row planned against the database: what the racer becomes. */
export interface PlannedRacer extends Fields {
  line: number;
  /** The racer updated; undefined for a new one. */
  id?: number;
  nameKey: string;
}

const OPTIONAL_COLUMNS = ["Picture", "Origin", "Rank2024", "TotalPoint2024", "Price"];

/**
 * Imports racers (see the file comment). Rows are skipped, with their line and the reason, when:
 * the file's cells refuse them (see parseRacerCsv), the event does not exist, the ID matches no
 * racer of that event, an ID row would take another racer's name, or the racer appears twice.
 */
export async function importRacers(
  db: DbOrTx,
  input: RacerImportInput,
): Promise<RacerImportSummary> {
  if (input.gameId !== undefined && !(Number.isSafeInteger(input.gameId) && input.gameId > 0)) {
    throw new RacerImportError(`"${input.gameId}" is not an event id.`);
  }
  const opts = { gameId: input.gameId };
  let file: RacerCsvFile;
  if (input.csv !== undefined) {
    file = readRacerCsv(input.csv, opts);
  } else {
    checkRecords(input.records);
    const records = input.records;
    file = asImportError(() => racerCsvFromRecords(records, opts));
  }

  const run = async (tx: DbOrTx) => {
    const skipped: SkippedRow[] = [...file.skipped];
    const plan = await planImport(tx, file.rows, skipped, !input.dryRun);
    skipped.sort((a, b) => a.line - b.line);
    const summary: RacerImportSummary = {
      dryRun: Boolean(input.dryRun),
      ...(file.encoding ? { encoding: file.encoding } : {}),
      rows: file.read,
      created: plan.creates.length,
      updated: plan.updates.length,
      unchanged: plan.unchanged,
      skipped,
      defaults: file.defaults,
      kept: OPTIONAL_COLUMNS.filter((c) => !file.columns.includes(c)),
      ignoredColumns: file.ignoredColumns,
      changes: plan.changes,
      teamsTouched: await teamsTouchedByPrices(tx, plan.updates),
    };
    const total = plan.creates.length + plan.updates.length;
    if (input.dryRun) {
      input.onProgress?.(total, total);
      return summary;
    }
    let done = 0;
    for (const chunk of chunks(plan.updates, CHUNK)) {
      await updateRacers(tx, chunk);
      done += chunk.length;
      input.onProgress?.(done, total);
    }
    for (const chunk of chunks(plan.creates, CHUNK)) {
      await insertRacers(tx, chunk);
      done += chunk.length;
      input.onProgress?.(done, total);
    }
    if (total > 0) {
      await recordAudit(tx, input.actor, "racers.import", input.source ?? "racers", {
        created: summary.created,
        updated: summary.updated,
        unchanged: summary.unchanged,
        skipped: skipped.length,
        ...(input.gameId ? { gameId: input.gameId } : {}),
      });
    }
    return summary;
  };
  const summary = await db.transaction(run);
  if (!input.dryRun && summary.created + summary.updated === 0) input.onProgress?.(0, 0);
  return summary;
}

const chunks = <T>(list: T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(list.length / size) }, (_, i) =>
    list.slice(i * size, (i + 1) * size),
  );

const existingColumns = {
  id: racers.id,
  nameKey: racers.nameKey,
  gameId: racers.gameId,
  category: racers.category,
  firstName: racers.firstName,
  lastName: racers.lastName,
  picture: racers.picture,
  origin: racers.origin,
  rank2024: racers.rank2024,
  totalPoint2024: racers.totalPoint2024,
  price: racers.price,
};

/** The racers of these events, locked for the import's transaction when it writes. */
async function racersOfEvents(tx: DbOrTx, gameIds: number[], lock: boolean): Promise<Existing[]> {
  if (gameIds.length === 0) return [];
  const query = tx.select(existingColumns).from(racers).where(inArray(racers.gameId, gameIds));
  return (lock ? await query.for("update") : await query) as Existing[];
}

/** What a row makes of a racer: the file's fields where it gives them, the racer's elsewhere. */
function merge(row: RacerImportRow, current: Existing | undefined): Fields {
  const next: Fields = {
    gameId: row.gameId,
    category: row.category,
    firstName: row.firstName,
    lastName: row.lastName,
    picture: row.picture,
    origin: row.origin,
    rank2024: row.rank2024,
    totalPoint2024: row.totalPoint2024,
    price: row.price,
  };
  if (!current) return next;
  const kept = next as Record<RacerUpdateField, unknown>;
  for (const field of RACER_UPDATE_FIELDS) {
    if (!row.given.includes(field)) kept[field] = current[field];
  }
  return next;
}

function diff(current: Existing | undefined, next: Fields): RacerFieldChange[] {
  const changes: RacerFieldChange[] = [];
  for (const field of RACER_UPDATE_FIELDS) {
    const from = current ? current[field] : null;
    const to = next[field];
    if (current && from === to) continue;
    if (!current && (to === null || to === "")) continue;
    changes.push({ field: RACER_FIELD_LABELS[field], from, to });
  }
  return changes;
}

/** Decides, against the database as it is, which rows create, update, leave alone or skip. */
async function planImport(
  tx: DbOrTx,
  rows: RacerImportRow[],
  skipped: SkippedRow[],
  lock: boolean,
) {
  const gameIds = [...new Set(rows.map((r) => r.gameId))].filter((g) => g <= RACER_NUMBER_MAX);
  const known = new Set(
    gameIds.length === 0
      ? []
      : (await tx.select({ id: events.id }).from(events).where(inArray(events.id, gameIds))).map(
          (e) => e.id,
        ),
  );
  const existing = await racersOfEvents(tx, [...known], lock);
  const byId = new Map(existing.map((r) => [r.id, r]));
  const byKey = new Map(existing.map((r) => [`${r.gameId}|${r.nameKey}`, r]));
  // An ID row may name a racer of another event: look it up to say so.
  const strayIds = [
    ...new Set(rows.flatMap((r) => (r.id && !byId.has(r.id) ? [r.id] : []))),
  ].filter((id) => id <= RACER_NUMBER_MAX);
  const elsewhere = new Map<number, number>();
  for (const chunk of chunks(strayIds, 5000)) {
    const found = await tx
      .select({ id: racers.id, gameId: racers.gameId })
      .from(racers)
      .where(inArray(racers.id, chunk));
    for (const r of found) elsewhere.set(r.id, r.gameId);
  }

  const creates: PlannedRacer[] = [];
  const updates: PlannedRacer[] = [];
  const changes: RacerChange[] = [];
  let unchanged = 0;
  const lineOfRacer = new Map<string, number>();
  for (const row of rows) {
    const nameKey = racerNameKey(row.firstName, row.lastName);
    const key = `${row.gameId}|${nameKey}`;
    const skip = (reason: string) => skipped.push({ line: row.line, reason });
    if (!known.has(row.gameId)) {
      skip(`unknown event ${row.gameId}`);
      continue;
    }
    let current: Existing | undefined;
    if (row.id) {
      current = byId.get(row.id);
      if (!current) {
        const other = elsewhere.get(row.id);
        skip(
          other === undefined
            ? `no racer with ID ${row.id}`
            : `racer ${row.id} belongs to event ${other}, not ${row.gameId}`,
        );
        continue;
      }
      const owner = byKey.get(key);
      if (owner !== undefined && owner.id !== row.id) {
        skip(`racer ${owner.id} in event ${row.gameId} already has that name`);
        continue;
      }
    } else {
      current = byKey.get(key);
    }
    // One racer twice in a file: which line should win is a guess.
    const racer = current ? `id:${current.id}` : key;
    const seen = lineOfRacer.get(racer) ?? lineOfRacer.get(key);
    if (seen !== undefined) {
      skip(`same racer as line ${seen}`);
      continue;
    }
    lineOfRacer.set(racer, row.line);
    lineOfRacer.set(key, row.line);

    const next = merge(row, current);
    const fieldChanges = diff(current, next);
    const name = `${next.firstName} ${next.lastName}`;
    if (current && fieldChanges.length === 0) {
      unchanged++;
      continue;
    }
    const planned: PlannedRacer = {
      line: row.line,
      ...(current ? { id: current.id } : {}),
      ...next,
      nameKey: racerNameKey(next.firstName, next.lastName),
    };
    (current ? updates : creates).push(planned);
    changes.push({
      line: row.line,
      action: current ? "update" : "create",
      gameId: row.gameId,
      name,
      changes: fieldChanges,
    });
  }
  return { creates, updates, unchanged, changes };
}

function fields(r: PlannedRacer) {
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
 * Inserts new racers in one statement per chunk. The rows travel as one JSON parameter: building
 * thousands of bound parameters costs more than the insert itself.
 */
async function insertRacers(tx: DbOrTx, chunk: PlannedRacer[]): Promise<void> {
  const json = JSON.stringify(chunk.map(fields));
  await tx.execute(sql`
    insert into ${racers} (game_id, category, first_name, last_name, name_key, picture,
                           origin, rank2024, total_point2024, price)
    select v."gameId", v."category", v."firstName", v."lastName", v."nameKey", v."picture",
           v."origin", v."rank2024", v."totalPoint2024", v."price"
    from jsonb_to_recordset(${json}::jsonb) as v(
      "gameId" integer, "category" text, "firstName" text, "lastName" text, "nameKey" text,
      "picture" text, "origin" text, "rank2024" integer, "totalPoint2024" integer, "price" integer)`);
}

/** Sets racers (named by id) to their planned fields, in one statement per chunk. */
async function updateRacers(tx: DbOrTx, chunk: PlannedRacer[]): Promise<void> {
  const json = JSON.stringify(chunk.map((r) => ({ id: r.id, ...fields(r) })));
  await tx.execute(sql`
    update ${racers} as r set
      category = v."category", first_name = v."firstName", last_name = v."lastName",
      name_key = v."nameKey", picture = v."picture", origin = v."origin",
      rank2024 = v."rank2024", total_point2024 = v."totalPoint2024", price = v."price",
      updated_at = now()
    from jsonb_to_recordset(${json}::jsonb) as v(
      "id" integer, "category" text, "firstName" text, "lastName" text, "nameKey" text,
      "picture" text, "origin" text, "rank2024" integer, "totalPoint2024" integer, "price" integer)
    where r.id = v."id"`);
}

export interface AdminRacerRow extends PublicRacer {
  /** When the racer was withdrawn from the round; null while they start. */
  withdrawnAt: Date | null;
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
      .select({
        ...publicRacerColumns,
        withdrawnAt: racers.withdrawnAt,
        updatedAt: racers.updatedAt,
      })
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

/** How many saved teams hold a racer whose price the planned updates change. */
async function teamsTouchedByPrices(
  tx: DbOrTx,
  updates: readonly { id?: number; price: number }[],
): Promise<number> {
  const priced = updates.flatMap((u) => (u.id ? [{ id: u.id, price: u.price }] : []));
  if (priced.length === 0) return 0;
  const [row] = rowsOf<{ n: number }>(
    await tx.execute(sql`
      select count(distinct tr.team_id)::int as n
      from json_to_recordset(${JSON.stringify(priced)}::json) as v(id integer, price integer)
      join racers r on r.id = v.id and r.price <> v.price
      join events e on e.id = r.game_id
      join team_racers tr on tr.person_id = r.person_id
      join teams t on t.id = tr.team_id and t.competition_id = e.competition_id`),
  );
  return row?.n ?? 0;
}
