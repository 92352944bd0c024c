import { z } from "zod";
import { type Category, normalizeCategory } from "./categories.js";
import { RACER_DEFAULTS } from "./constants.js";
import { unescapeCsvCell } from "./csv-cells.js";

// Writing CSV (every CSV the project writes) and the escaping its readers undo (decision 0154).
export * from "./csv-cells.js";

/** Column headers of the racer CSV upload, as the spec lists them. Picture is optional. */
export const RACER_CSV_COLUMNS = [
  "Category",
  "First Name",
  "Last Name",
  "Picture",
  "Origin",
  "Game ID",
  "Rank2024",
  "TotalPoint2024",
  "Price",
] as const;

export interface RacerRowInput {
  /** 1-based line in the file (the header is line 1). */
  line: number;
  /** Present when the file has an ID column: the racer to update. */
  id?: number;
  category: Category;
  firstName: string;
  lastName: string;
  picture: string | null;
  origin: string;
  gameId: number;
  rank2024: number;
  totalPoint2024: number;
  price: number;
}

export interface SkippedRow {
  line: number;
  reason: string;
}

export interface ParsedRacerRows {
  rows: RacerRowInput[];
  skipped: SkippedRow[];
}

/** Header keys compared loosely: "first name", "FirstName", "\uFEFFCategory" all match. */
export function headerKey(header: string): string {
  return header
    .replace(/^\uFEFF/, "")
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "");
}

type Raw = Record<string, unknown>;

// A file has a handful of distinct headers but every row repeats them: normalise each once.
const headerKeys = new Map<string, string>();
function cachedHeaderKey(header: string): string {
  let key = headerKeys.get(header);
  if (key === undefined) {
    key = headerKey(header);
    if (headerKeys.size < 1000) headerKeys.set(header, key);
  }
  return key;
}

/** Parses a non-negative integer ("75,000", "$75000", " 12 "); undefined when it is not one. */
export function parseCount(value: string): number | undefined {
  const cleaned = value.replace(/[\s,$_]/g, "");
  if (!/^\d{1,12}$/.test(cleaned)) return undefined;
  const n = Number(cleaned);
  return Number.isSafeInteger(n) ? n : undefined;
}

const MAX_TEXT = 200;

/** The racer columns by their header keys (see headerKey), plus ID: which racer a row updates. */
const RACER_CSV_LABELS = {
  category: "Category",
  firstname: "First Name",
  lastname: "Last Name",
  picture: "Picture",
  origin: "Origin",
  gameid: "Game ID",
  rank2024: "Rank2024",
  totalpoint2024: "TotalPoint2024",
  price: "Price",
  id: "ID",
} as const;
type RacerCsvKey = keyof typeof RACER_CSV_LABELS;
const RACER_CSV_KEYS: ReadonlySet<string> = new Set(Object.keys(RACER_CSV_LABELS));
const REQUIRED_KEYS = ["category", "firstname", "lastname"] as const satisfies RacerCsvKey[];

/**
 * One record's cells by header key, as text: headers are compared with headerKey (the first of
 * two headers that read the same wins), a cell is trimmed, a missing or null cell reads as "" and
 * a number typed by the CSV parser as its digits; a cell our export escaped ('=...) reads as its
 * text. Other columns are dropped.
 */
function racerCells(record: Raw): Record<RacerCsvKey, string> {
  // Every key up front, in one order: all records share one object shape.
  const cells: Record<RacerCsvKey, string | undefined> = {
    category: undefined,
    firstname: undefined,
    lastname: undefined,
    picture: undefined,
    origin: undefined,
    gameid: undefined,
    rank2024: undefined,
    totalpoint2024: undefined,
    price: undefined,
    id: undefined,
  };
  for (const header of Object.keys(record)) {
    const key = cachedHeaderKey(header) as RacerCsvKey;
    if (RACER_CSV_KEYS.has(key) && cells[key] === undefined) {
      const value = record[header];
      cells[key] = value == null ? "" : unescapeCsvCell(String(value).trim());
    }
  }
  return {
    category: cells.category ?? "",
    firstname: cells.firstname ?? "",
    lastname: cells.lastname ?? "",
    picture: cells.picture ?? "",
    origin: cells.origin ?? "",
    gameid: cells.gameid ?? "",
    rank2024: cells.rank2024 ?? "",
    totalpoint2024: cells.totalpoint2024 ?? "",
    price: cells.price ?? "",
    id: cells.id ?? "",
  };
}

/** The message of an empty required cell, by key: racerCsvSkipReason merges these into one. */
const MISSING: Readonly<Record<string, string>> = Object.fromEntries(
  REQUIRED_KEYS.map((key) => [key, `missing ${RACER_CSV_LABELS[key]}`]),
);

const requiredText = (key: (typeof REQUIRED_KEYS)[number]) => z.string().min(1, MISSING[key]);

const nameText = (key: "firstname" | "lastname") =>
  requiredText(key).max(MAX_TEXT, `name longer than ${MAX_TEXT} characters`);

/** A count cell ("75,000", "$75000", 12): its value, or `fallback` when empty or not a count. */
const countCell = (fallback: number) =>
  z.preprocess(parseCount, z.int().nonnegative().default(fallback));

/** A racer row as read from the CSV, before any line number or forced event is applied. */
export type RacerCsvRow = Omit<RacerRowInput, "line">;

/**
 * One record of the racer CSV upload (header row already applied, e.g. by papaparse with
 * `header: true`) to a racer row. Headers are matched loosely with headerKey ("first name",
 * "FirstName", "\uFEFFCategory" all read as First Name / Category); cells are read as trimmed
 * plain text, nothing is evaluated. Category, First Name and Last Name are required (a category is
 * read with normalizeCategory; names are at most 200 characters); Picture is optional (null);
 * Origin defaults to ""; Game ID, Rank2024, TotalPoint2024 and Price fall back to
 * RACER_DEFAULTS (5, 0, 0, 75000) when empty or not a non-negative integer; an ID column gives
 * `id` when it holds a positive integer. racerCsvSkipReason turns a failure into one line of text.
 */
export const racerCsvRowSchema = z.preprocess(
  (record: Raw) =>
    typeof record === "object" && record !== null && !Array.isArray(record)
      ? racerCells(record)
      : record,
  z
    .object({
      category: requiredText("category").transform((text, ctx) => {
        const category = normalizeCategory(text);
        if (category) return category;
        ctx.issues.push({
          code: "custom",
          message: `unknown category "${text.slice(0, 40)}"`,
          input: text,
        });
        return z.NEVER;
      }),
      firstname: nameText("firstname"),
      lastname: nameText("lastname"),
      picture: z.string().transform((text) => (text ? text.slice(0, MAX_TEXT) : null)),
      origin: z.string().transform((text) => text.slice(0, MAX_TEXT) || RACER_DEFAULTS.origin),
      gameid: countCell(RACER_DEFAULTS.gameId),
      rank2024: countCell(RACER_DEFAULTS.rank2024),
      totalpoint2024: countCell(RACER_DEFAULTS.totalPoint2024),
      price: countCell(RACER_DEFAULTS.price),
      id: z.preprocess(parseCount, z.int().positive().optional()).catch(undefined),
    })
    .transform(
      (cells): RacerCsvRow => ({
        ...(cells.id !== undefined ? { id: cells.id } : {}),
        category: cells.category,
        firstName: cells.firstname,
        lastName: cells.lastname,
        picture: cells.picture,
        origin: cells.origin,
        gameId: cells.gameid,
        rank2024: cells.rank2024,
        totalPoint2024: cells.totalpoint2024,
        price: cells.price,
      }),
    ),
);

/** What racerCsvSkipReason reads of an issue: zod's issues and Standard Schema's both fit. */
export interface RacerCsvIssue {
  readonly message: string;
  readonly path?: readonly unknown[];
}

/** The required columns an issue list reports as empty, in column order. */
function missingColumns(issues: readonly RacerCsvIssue[]): string[] {
  return REQUIRED_KEYS.filter((key) =>
    issues.some((issue) => issue.path?.[0] === key && issue.message === MISSING[key]),
  ).map((key) => RACER_CSV_LABELS[key]);
}

/**
 * Why racerCsvRowSchema refused a record, as parseRacerRows reports it: the missing required
 * columns in column order ("missing First Name, Last Name"), else the unknown category, else the
 * over-long name. Takes the issues of the failed parse (`result.error.issues`).
 */
export function racerCsvSkipReason(issues: readonly RacerCsvIssue[]): string {
  const missing = missingColumns(issues);
  if (missing.length > 0) return `missing ${missing.join(", ")}`;
  for (const key of REQUIRED_KEYS) {
    const issue = issues.find((i) => i.path?.[0] === key);
    if (issue) return issue.message;
  }
  return issues[0]?.message ?? "not a racer row";
}

/**
 * racerCsvRowSchema on one record through its Standard Schema entry point, which reports a refused
 * record by its issues alone. safeParse builds a ZodError (an Error, stack trace included) once
 * `.error` is read, which more than doubles the cost of a skipped row.
 */
function checkRacerRecord(record: Raw) {
  const result = racerCsvRowSchema["~standard"].validate(record);
  if (!(result instanceof Promise)) return result;
  // Only when reading a cell threw (a value whose String() throws): zod then answers with a
  // rejected promise. Throw that error here instead, as a plain parse does.
  result.catch(() => {});
  racerCsvRowSchema.parse(record);
  throw new TypeError("racerCsvRowSchema is synchronous");
}

const isBlank = (record: Raw) =>
  Object.values(record).every((v) => v == null || String(v).trim() === "");

/**
 * Turns CSV records (header row already applied, e.g. by papaparse with `header: true`) into racer
 * rows with racerCsvRowSchema. Rows without Category, First Name or Last Name are skipped with
 * their line; numbers that fail to parse fall back to the defaults. Cell text is kept as plain
 * text: nothing is evaluated.
 */
export function parseRacerRows(
  records: readonly Raw[],
  opts: { firstLine?: number; gameId?: number } = {},
): ParsedRacerRows {
  const firstLine = opts.firstLine ?? 2;
  const rows: RacerRowInput[] = [];
  const skipped: SkippedRow[] = [];
  records.forEach((record, i) => {
    const line = firstLine + i;
    const result = checkRacerRecord(record);
    if (!result.issues) {
      // Key by key: V8 copies `{ line, ...row }` slowly. Same keys, same order.
      const row = result.value;
      rows.push({
        line,
        ...(row.id !== undefined ? { id: row.id } : {}),
        category: row.category,
        firstName: row.firstName,
        lastName: row.lastName,
        picture: row.picture,
        origin: row.origin,
        gameId: opts.gameId ?? row.gameId,
        rank2024: row.rank2024,
        totalPoint2024: row.totalPoint2024,
        price: row.price,
      });
      return;
    }
    // A blank line is not worth reporting as a skipped racer (and has no required cell).
    if (missingColumns(result.issues).length > 0 && isBlank(record)) return;
    skipped.push({ line, reason: racerCsvSkipReason(result.issues) });
  });
  return { rows, skipped };
}

/** Lower-cased "first|last" with spaces collapsed: how a racer is matched within a game. */
export function racerNameKey(firstName: string, lastName: string): string {
  const norm = (s: string) => s.trim().toLowerCase().replace(/\s+/g, " ");
  return `${norm(firstName)}|${norm(lastName)}`;
}

/** A racer's natural key across games. */
export function racerKey(r: { gameId: number; firstName: string; lastName: string }): string {
  return `${r.gameId}|${racerNameKey(r.firstName, r.lastName)}`;
}
