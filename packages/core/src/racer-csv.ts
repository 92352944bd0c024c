/**
 * The racer CSV upload read as a whole file: the one parser behind the dashboard's preview, its
 * upload and `game-admin racers import`, so what the preview shows is what the server does.
 *
 * - The header is the first non-blank line; blank lines anywhere are skipped (never reported).
 * - Columns are matched loosely (headerKey); a column the file does not have is "not given": an
 *   existing racer keeps that field, a new racer gets the spec's default. An empty cell counts as
 *   not given too (docs/decisions/0080).
 * - A number cell that is not a number at all ("n/a") falls back to the default as the spec says,
 *   and every such fallback is listed with its line. A number that is one but cannot be right
 *   (below 0, a fraction, too large, scientific notation, "75.000") skips the row with the reason.
 *   A Game ID or ID that does not read skips the row: a racer is never moved to another event.
 * - Cells past the header's columns are ignored when empty (Excel's trailing commas); a row whose
 *   extra cells hold text is skipped (usually an unquoted comma in a name).
 * - A cell the export wrote with a quote before a formula ('=..., csv-cells) reads as the text it
 *   was; a formula written plainly is kept as plain text too. Nothing is ever evaluated.
 */
import { type Category, normalizeCategory } from "./categories.js";
import { CSV_MAX_BYTES, CSV_MAX_ROWS, RACER_DEFAULTS } from "./constants.js";
import { headerKey, type RacerRowInput, type SkippedRow } from "./csv.js";
import { unescapeCsvCell } from "./csv-cells.js";
import {
  type CsvEncoding,
  CsvFileError,
  decodeCsvBytes,
  EMPTY_FILE,
  headerDelimiter,
  NOT_TEXT,
} from "./csv-file.js";
import { type CsvRow, readCsvRows } from "./csv-rows.js";

/** The refusal of a file with a header and nothing under it. */
export const NO_RACER_ROWS = "The file has a header but no racer rows.";

/** The largest number a racer field holds (a PostgreSQL integer). */
export const RACER_NUMBER_MAX = 2_147_483_647;
const MAX_TEXT = 200;

/** Fields an import may change on an existing racer (its event and id are who it is). */
export const RACER_UPDATE_FIELDS = [
  "category",
  "firstName",
  "lastName",
  "picture",
  "origin",
  "rank2024",
  "totalPoint2024",
  "price",
] as const;
export type RacerUpdateField = (typeof RACER_UPDATE_FIELDS)[number];

/** The spec's column name of each field, for messages. */
export const RACER_FIELD_LABELS: Readonly<Record<RacerUpdateField | "gameId" | "id", string>> = {
  category: "Category",
  firstName: "First Name",
  lastName: "Last Name",
  picture: "Picture",
  origin: "Origin",
  gameId: "Game ID",
  rank2024: "Rank2024",
  totalPoint2024: "TotalPoint2024",
  price: "Price",
  id: "ID",
};

/** Header keys (headerKey) to fields. */
const COLUMN_OF_KEY: Readonly<Record<string, RacerUpdateField | "gameId" | "id">> = {
  category: "category",
  firstname: "firstName",
  lastname: "lastName",
  picture: "picture",
  origin: "origin",
  gameid: "gameId",
  rank2024: "rank2024",
  totalpoint2024: "totalPoint2024",
  price: "price",
  id: "id",
};
type Column = RacerUpdateField | "gameId" | "id";
const REQUIRED: readonly Column[] = ["category", "firstName", "lastName"];

/** One racer row of the file: the values a new racer gets, and which of them the file gave. */
export interface RacerImportRow extends RacerRowInput {
  /** Fields the row gives (non-empty cell): only these change an existing racer. */
  given: readonly RacerUpdateField[];
}

/** A cell that was there but not readable, replaced by the spec's default. */
export interface DefaultUsed {
  line: number;
  column: string;
  cell: string;
  used: number;
}

export interface RacerCsvFile {
  /** How the bytes were read, when they were (readRacerCsvBytes). */
  encoding?: CsvEncoding;
  /** The racer columns found, by their spec names. */
  columns: string[];
  /** Header cells that are not racer columns: ignored. */
  ignoredColumns: string[];
  /** Data lines (blank lines not counted). */
  read: number;
  rows: RacerImportRow[];
  skipped: SkippedRow[];
  defaults: DefaultUsed[];
}

export interface RacerCsvOptions {
  /** Every row goes to this event, whatever its Game ID cell says (CLI `--game`). */
  gameId?: number;
}

/** How a default-backed message reads: `Price "n/a" is not a number: used 75000`. */
export function defaultUsedText(d: DefaultUsed): string {
  return `${d.column} "${d.cell.slice(0, 40)}" is not a number: used ${d.used}`;
}

type Whole =
  | { kind: "empty" }
  | { kind: "value"; value: number }
  | { kind: "wrong"; why: string }
  | { kind: "unreadable" };

/**
 * A whole number as spreadsheets write them: "75000", "75,000", "$75 000", "75000.00". A number
 * that cannot be meant ("-5", "1.5", "1.2E+12", 13 digits, the ambiguous "75.000") is `wrong`;
 * text that is no number at all is `unreadable`.
 */
export function readWholeNumber(cell: string, max = RACER_NUMBER_MAX): Whole {
  let text = cell.replace(/[\s\u00a0\u202f'$€£]/g, "");
  if (text === "") return { kind: "empty" };
  if (/^[+-]?\d{1,3}(,\d{3})+(\.\d+)?$/.test(text)) text = text.replace(/,/g, "");
  if (/^\d{1,3}(\.\d{3})+$/.test(text)) {
    return { kind: "wrong", why: "is ambiguous (thousands or decimals?): write it without dots" };
  }
  if (/^[+-]?\d+(\.\d+)?e[+-]?\d+$/i.test(text)) {
    return { kind: "wrong", why: "is in scientific notation: format the column as a number" };
  }
  if (!/^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(text)) return { kind: "unreadable" };
  const n = Number(text);
  if (!Number.isInteger(n)) return { kind: "wrong", why: "is not a whole number" };
  if (n < 0) return { kind: "wrong", why: "is below 0" };
  if (n > max) return { kind: "wrong", why: "is too large" };
  return { kind: "value", value: n === 0 ? 0 : n };
}

const isBlankRow = (cells: readonly string[]) => cells.every((c) => c.trim() === "");

/** Splits CSV text into rows of cells with the file's line number of each row's first line. */
function splitLines(text: string): CsvRow[] {
  const firstLine = text.split(/\r\n|\r|\n/).find((l) => l.trim() !== "") ?? "";
  const { rows, quoteError } = readCsvRows(text, headerDelimiter(firstLine));
  if (quoteError) {
    throw new CsvFileError(
      `Line ${quoteError.line}: ${quoteError.message.replace(/\.$/, "").toLowerCase()} (a quote " is not closed or is inside a cell that is not quoted).`,
    );
  }
  return rows;
}

/**
 * Reads racer CSV text (see the file comment). Throws CsvFileError when the file as a whole
 * cannot be a racer file: empty, too large, a quoting error, a header without Category, First
 * Name and Last Name, or more than CSV_MAX_ROWS data lines.
 */
export function parseRacerCsv(text: string, opts: RacerCsvOptions = {}): RacerCsvFile {
  const source = text.replace(/^\uFEFF/, "");
  if (
    source.length > CSV_MAX_BYTES / 4 &&
    new TextEncoder().encode(source).length > CSV_MAX_BYTES
  ) {
    throw new CsvFileError(
      `The file is larger than ${CSV_MAX_BYTES / (1024 * 1024)} MB, the limit for racer files.`,
    );
  }
  if (source.trim() === "") throw new CsvFileError(EMPTY_FILE);
  const lines = splitLines(source);
  return racerRowsOf(lines, opts);
}

/** Reads the bytes of a racer CSV file: decodeCsvBytes, then parseRacerCsv. */
export function readRacerCsvBytes(
  bytes: Uint8Array | ArrayBuffer,
  opts: RacerCsvOptions = {},
): RacerCsvFile {
  const size = bytes.byteLength;
  if (size > CSV_MAX_BYTES) {
    throw new CsvFileError(
      `The file is ${(size / (1024 * 1024)).toFixed(1)} MB; racer files are limited to ${CSV_MAX_BYTES / (1024 * 1024)} MB.`,
    );
  }
  const { text, encoding } = decodeCsvBytes(bytes);
  return { ...parseRacerCsv(text, opts), encoding };
}

/**
 * Records with header names as keys (papaparse `header: true`, as older clients send them) read
 * with the same rules; record i is line i + 2, papaparse's `__parsed_extra` cells are extra cells.
 */
export function racerCsvFromRecords(
  records: readonly Record<string, unknown>[],
  opts: RacerCsvOptions = {},
): RacerCsvFile {
  if (records.length === 0) throw new CsvFileError(EMPTY_FILE);
  // Every key any record has, in order of appearance: JSON rows need not all carry every column.
  const header = [...new Set(records.flatMap((r) => Object.keys(r)))].filter(
    (h) => h !== "__parsed_extra",
  );
  const text = (v: unknown) => (v == null ? "" : typeof v === "object" ? NOT_TEXT : String(v));
  const lines: CsvRow[] = [{ line: 1, cells: header }];
  records.forEach((record, i) => {
    const extra = record.__parsed_extra;
    const cells = header.map((h) => text(record[h]));
    if (Array.isArray(extra)) cells.push(...extra.map(text));
    lines.push({ line: i + 2, cells });
  });
  return racerRowsOf(lines, opts);
}

function racerRowsOf(lines: CsvRow[], opts: RacerCsvOptions): RacerCsvFile {
  const headerAt = lines.findIndex((l) => !isBlankRow(l.cells));
  if (headerAt < 0) throw new CsvFileError(EMPTY_FILE);
  const headerLine = lines[headerAt]!;
  const header = headerLine.cells;
  const columnAt: (Column | null)[] = [];
  const seen = new Set<Column>();
  const ignoredColumns: string[] = [];
  for (const name of header) {
    const column = COLUMN_OF_KEY[headerKey(name)];
    if (column && !seen.has(column)) {
      seen.add(column);
      columnAt.push(column);
    } else {
      columnAt.push(null);
      if (name.trim() !== "") ignoredColumns.push(name.trim().slice(0, 40));
    }
  }
  const missing = REQUIRED.filter((c) => !seen.has(c)).map((c) => RACER_FIELD_LABELS[c]);
  if (missing.length > 0) {
    const binaryLooking = header.join("").length > 0 && /[\uFFFD]/.test(header.join(""));
    if (binaryLooking) throw new CsvFileError(NOT_TEXT);
    throw new CsvFileError(
      `Line ${headerLine.line}: the header has no ${missing.join(", ")} column (the first line that is not blank must name the columns: Category, First Name, Last Name, ...).`,
    );
  }
  const data = lines.slice(headerAt + 1).filter((l) => !isBlankRow(l.cells));
  if (data.length === 0) {
    throw new CsvFileError(NO_RACER_ROWS);
  }
  if (data.length > CSV_MAX_ROWS) {
    throw new CsvFileError(
      `The file has ${data.length.toLocaleString("en-US")} rows; racer files are limited to ${CSV_MAX_ROWS.toLocaleString("en-US")} rows.`,
    );
  }
  const file: RacerCsvFile = {
    columns: header.flatMap((_, i) => {
      const c = columnAt[i];
      return c ? [RACER_FIELD_LABELS[c]] : [];
    }),
    ignoredColumns,
    read: data.length,
    rows: [],
    skipped: [],
    defaults: [],
  };
  for (const { line, cells } of data) {
    const byColumn = new Map<Column, string>();
    const extra: string[] = [];
    cells.forEach((cell, i) => {
      const column = i < columnAt.length ? columnAt[i] : null;
      // A formula our export wrote as text ('=...) reads back as the text it was.
      if (column) byColumn.set(column, unescapeCsvCell(cell.trim()));
      else if (i >= header.length || header[i]?.trim() === "") {
        // Past the header, or under a header cell left empty: nobody said what it is.
        if (cell.trim() !== "") extra.push(cell.trim());
      }
    });
    const result = readRow(line, byColumn, extra, opts, file.defaults);
    if ("reason" in result) file.skipped.push({ line, reason: result.reason });
    else file.rows.push(result);
  }
  return file;
}

function readRow(
  line: number,
  cells: Map<Column, string>,
  extra: string[],
  opts: RacerCsvOptions,
  fileDefaults: DefaultUsed[],
): RacerImportRow | { reason: string } {
  // Reported only when the row is imported.
  const defaults: DefaultUsed[] = [];
  if (extra.length > 0) {
    const shown = extra
      .slice(0, 2)
      .map((c) => `"${c.slice(0, 30)}"`)
      .join(", ");
    return {
      reason: `${extra.length} more ${extra.length === 1 ? "cell" : "cells"} than the header has (${shown}): is a comma in a name not quoted?`,
    };
  }
  const cell = (c: Column) => cells.get(c) ?? "";
  const missing = REQUIRED.filter((c) => cell(c) === "").map((c) => RACER_FIELD_LABELS[c]);
  if (missing.length > 0) return { reason: `missing ${missing.join(", ")}` };
  const category: Category | undefined = normalizeCategory(cell("category"));
  if (!category) return { reason: `unknown category "${cell("category").slice(0, 40)}"` };
  for (const c of ["firstName", "lastName"] as const) {
    if (cell(c).length > MAX_TEXT) return { reason: `name longer than ${MAX_TEXT} characters` };
  }

  let id: number | undefined;
  const idCell = cell("id");
  if (idCell !== "") {
    const read = readWholeNumber(idCell);
    if (read.kind !== "value" || read.value === 0) {
      return { reason: `ID "${idCell.slice(0, 20)}" is not a racer id` };
    }
    id = read.value;
  }

  let gameId: number = opts.gameId ?? RACER_DEFAULTS.gameId;
  const gameCell = cell("gameId");
  if (opts.gameId === undefined && gameCell !== "") {
    const read = readWholeNumber(gameCell);
    if (read.kind !== "value" || read.value === 0) {
      return { reason: `Game ID "${gameCell.slice(0, 20)}" is not an event id` };
    }
    gameId = read.value;
  }

  const given: RacerUpdateField[] = ["category", "firstName", "lastName"];
  const numbers = { rank2024: 0, totalPoint2024: 0, price: 0 };
  for (const field of ["rank2024", "totalPoint2024", "price"] as const) {
    const fallback = RACER_DEFAULTS[field];
    const text = cell(field);
    const read = readWholeNumber(text);
    if (read.kind === "wrong") {
      return { reason: `${RACER_FIELD_LABELS[field]} ${text.slice(0, 20)} ${read.why}` };
    }
    if (read.kind === "value") {
      numbers[field] = read.value;
      given.push(field);
    } else if (read.kind === "unreadable") {
      numbers[field] = fallback;
      given.push(field);
      defaults.push({ line, column: RACER_FIELD_LABELS[field], cell: text, used: fallback });
    } else {
      numbers[field] = fallback;
    }
  }
  const picture = cell("picture").slice(0, MAX_TEXT);
  const origin = cell("origin").slice(0, MAX_TEXT);
  if (picture) given.push("picture");
  if (origin) given.push("origin");

  fileDefaults.push(...defaults);
  return {
    line,
    ...(id !== undefined ? { id } : {}),
    category,
    firstName: cell("firstName"),
    lastName: cell("lastName"),
    picture: picture || null,
    origin: origin || RACER_DEFAULTS.origin,
    gameId,
    rank2024: numbers.rank2024,
    totalPoint2024: numbers.totalPoint2024,
    price: numbers.price,
    given: RACER_UPDATE_FIELDS.filter((f) => given.includes(f)),
  };
}
