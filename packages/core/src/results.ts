import { z } from "zod";
import { CATEGORIES, type Category, normalizeCategory } from "./categories.js";
import { CSV_MAX_BYTES, CSV_MAX_ROWS } from "./constants.js";
import { headerKey, parseCount, racerNameKey } from "./csv.js";
import { unescapeCsvCell } from "./csv-cells.js";
import { delimiterCounts, lineDelimiter } from "./csv-file.js";
import { readCsvRows } from "./csv-rows.js";
import { NON_FINISH, type NonFinish, pointsForPosition } from "./scoring.js";

/*
 * Race results: the CSV an admin imports after a race, checked as a whole before anything is
 * written, and the reference settlement that the SQL settlement must match.
 */

export const RESULT_STATUSES = ["finished", ...NON_FINISH] as const;
export type ResultStatus = (typeof RESULT_STATUSES)[number];

/** A place (1-based, per category) or a non-finish status. */
export type ParsedPosition =
  | { status: "finished"; position: number }
  | { status: NonFinish; position: null };

/** One checked result, ready to store. */
export interface ResultRowInput {
  /** 1-based line of the file where the row starts (the header is line 1). */
  line: number;
  /** The racer as the file names them ("BRUNI Loic", "Loïc Bruni", "#7"): for the matched table. */
  asWritten: string;
  racerId: number;
  category: Category;
  status: ResultStatus;
  position: number | null;
}

/** A problem found in the file, with the line it is on (1 for the header or the whole file). */
export interface ResultIssue {
  line: number;
  message: string;
}

/** What the check needs to know about the racers of the event. */
export interface ResultRacer {
  id: number;
  category: Category;
  firstName: string;
  lastName: string;
}

export type ResultsCheck =
  | {
      ok: true;
      rows: ResultRowInput[];
      /**
       * The categories the file scores (its racers' categories, and the one chosen for it): an
       * import replaces these categories' results and keeps the others'.
       */
      categories: Category[];
    }
  | { ok: false; issues: ResultIssue[]; rows: ResultRowInput[] };

/** Options of checkResults. */
export interface ResultsCheckOptions {
  /**
   * The category of the whole file (timing companies publish one file per category): rows are
   * matched within it, and a Category column, when there is one, must agree.
   */
  category?: Category;
}

/** A place can be written "7", "07", "7th" or "7." in timing exports. */
const PLACE = /^0*([1-9]\d{0,5})(?:st|nd|rd|th|\.)?$/i;
const STATUS_ALIASES: Record<string, NonFinish> = {
  dnf: "DNF",
  dns: "DNS",
  dsq: "DSQ",
  dq: "DSQ",
  "did not finish": "DNF",
  "did not start": "DNS",
  disqualified: "DSQ",
};

/** A non-finish written in a time, gap or status cell ("DNF", "dsq", "Did not start"). */
export function parseNonFinish(text: string): NonFinish | undefined {
  return STATUS_ALIASES[text.trim().toLowerCase().replace(/\s+/g, " ")];
}

/** Reads a Position cell: a finishing place or DNF, DNS, DSQ (any case); undefined otherwise. */
export function parsePosition(text: string): ParsedPosition | undefined {
  const value = text.trim();
  const place = PLACE.exec(value);
  if (place) return { status: "finished", position: Number(place[1]) };
  const status = STATUS_ALIASES[value.toLowerCase()];
  return status ? { status, position: null } : undefined;
}

/** Points a stored result is worth: the points table for a place, 0 for DNF, DNS and DSQ. */
export function pointsForStoredResult(r: {
  status: ResultStatus;
  position: number | null;
}): number {
  return r.status === "finished" ? pointsForPosition(r.position) : 0;
}

// ---------------------------------------------------------------------------------------------
// CSV text -> records with line numbers

export interface CsvRecord {
  /** Line on which the record starts (1-based). */
  line: number;
  values: string[];
}

export interface CsvTable {
  header: string[];
  records: CsvRecord[];
  /** Problems of the text itself (a quote never closed), by line. */
  errors?: ResultIssue[];
}

function detectDelimiter(text: string): string {
  // The header line, or when a timing export starts with a title ("Men Elite - Final") above its
  // header, the line with the most delimiters among the first few (a title has few, a header
  // many). Counted as every CSV reader here counts them (csv-file.ts: , ; tab |, outside quotes).
  const lines = text.split(/\r?\n/, 12);
  const first = lineDelimiter(lines[0] ?? "");
  if (first) return first;
  let best = ",";
  let most = 0;
  for (const line of lines) {
    const d = lineDelimiter(line);
    const n = d ? (delimiterCounts(line).get(d) ?? 0) : 0;
    if (d && n > most) {
      best = d;
      most = n;
    }
  }
  return best;
}

/** Records a timing export may have above its header (a title, the race, the date). */
const MAX_TITLE_ROWS = 10;

/**
 * The table with its real header: the first row when it names a place column, else the first of
 * the next few rows that names a place column and a racer (name or id) column, the rows above it
 * being a timing export's title block. Unchanged when there is no such row.
 */
function skipTitleRows(table: CsvTable): CsvTable {
  if (findColumns(table.header).position >= 0) return table;
  const at = table.records.slice(0, MAX_TITLE_ROWS).findIndex((r) => {
    const cols = findColumns(r.values.map((v) => v.trim()));
    const names = cols.name >= 0 || (cols.firstName >= 0 && cols.lastName >= 0);
    return cols.position >= 0 && (names || cols.racerId >= 0);
  });
  if (at < 0) return table;
  return {
    header: table.records[at]!.values.map((v) => v.trim()),
    records: table.records.slice(at + 1),
    errors: table.errors,
  };
}

/**
 * The results file as records, each with the line it starts on (csv-rows, papaparse), so every
 * problem can be reported where the admin will find it in a spreadsheet. Comma, semicolon and
 * tab delimiters are detected from the header (or a title block above it). Blank lines are
 * dropped; a quote never closed is reported on the line its row starts.
 */
export function readCsv(input: string): CsvTable {
  const text = input.replace(/^\uFEFF/, "");
  const { rows, quoteError } = readCsvRows(text, detectDelimiter(text));
  const kept = rows
    .filter((r) => r.cells.length > 1 || r.cells[0]!.trim() !== "")
    // A formula a CSV we wrote escaped ('=..., csv-cells) reads as the text it was.
    .map((r) => ({ line: r.line, values: r.cells.map(unescapeCsvCell) }));
  const errors: ResultIssue[] =
    quoteError?.kind === "unclosed"
      ? [{ line: quoteError.line, message: "A quoted cell starting on this line is never closed." }]
      : [];
  const [header, ...records] = kept;
  return { header: header?.values.map((h) => h.trim()) ?? [], records, errors };
}

// ---------------------------------------------------------------------------------------------
// Checking a results file

/** Accent- and case-insensitive name key: timing exports often drop accents ("Loic Bruni"). */
export function foldedNameKey(firstName: string, lastName: string): string {
  return racerNameKey(firstName, lastName)
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "");
}

/**
 * A racer's name as a set of words, accents, case and punctuation ignored, in any order: a
 * timing export's "BRUNI Loic", "Loïc Bruni" and "bruni, loïc" all read "bruni loic".
 */
export function nameWordsKey(name: string): string {
  return nameWords(name).sort().join(" ");
}

/** The words of a name, in order, accents, case ("ß" = "SS") and punctuation ignored. */
function nameWords(name: string): string[] {
  return name
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toUpperCase()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim()
    .split(" ")
    .filter(Boolean);
}

/** Levenshtein distance between two short strings (names), in O(a * b) time and O(b) space. */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  const x = [...a];
  const y = [...b];
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const current = [i];
    for (let j = 1; j <= y.length; j++) {
      current[j] = Math.min(
        previous[j]! + 1,
        current[j - 1]! + 1,
        previous[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[y.length]!;
}

/**
 * The racers whose names are closest to `written` (words in any order, accents and case
 * ignored), closest first, at most `max`; only those near enough to be a typo (a third of the
 * name's letters, at least 2 edits), so a stranger gets no suggestion.
 */
export function closestRacers<R extends Pick<ResultRacer, "firstName" | "lastName">>(
  written: string,
  racers: readonly R[],
  max = 3,
): R[] {
  const key = nameWords(written).join(" ");
  if (!key) return [];
  const limit = Math.max(2, Math.floor(key.length / 3));
  // Either order of the racer's names: a typo must not move a word elsewhere in a sorted key.
  const distance = (r: R) =>
    Math.min(
      editDistance(key, nameWords(`${r.firstName} ${r.lastName}`).join(" ")),
      editDistance(key, nameWords(`${r.lastName} ${r.firstName}`).join(" ")),
    );
  return racers
    .map((r) => ({ r, d: distance(r) }))
    .filter((c) => c.d <= limit)
    .sort((a, b) => a.d - b.d || label(a.r).localeCompare(label(b.r)))
    .slice(0, max)
    .map((c) => c.r);
}

const ID_HEADERS = new Set(["racerid", "id"]);
/** Headers of the place column: ours, and the timing companies'. */
const POSITION_HEADERS = new Set(["position", "pos", "place", "rank", "rk", "pl"]);
/** Headers of a single name column (timing exports write "BRUNI Loic"). */
const NAME_HEADERS = new Set(["name", "ridername", "racername", "rider", "racer", "fullname"]);
/** Cells where a timing export may write DNF, DNS or DSQ instead of a time. */
const STATUS_HEADERS = new Set(["status", "time", "gap", "racetime", "finaltime", "result"]);

type Columns = {
  position: number;
  firstName: number;
  lastName: number;
  name: number;
  category: number;
  racerId: number;
  statuses: number[];
};

function findColumns(header: readonly string[]): Columns {
  const keys = header.map(headerKey);
  const at = (k: string) => keys.indexOf(k);
  return {
    position: keys.findIndex((k) => POSITION_HEADERS.has(k)),
    firstName: at("firstname"),
    lastName: at("lastname"),
    name: keys.findIndex((k) => NAME_HEADERS.has(k)),
    category: at("category"),
    racerId: keys.findIndex((k) => ID_HEADERS.has(k)),
    statuses: keys.flatMap((k, i) => (STATUS_HEADERS.has(k) ? [i] : [])),
  };
}

/** The shape of one row as read from the file, before racers are looked up. */
const resultCellsSchema = z.object({
  position: z
    .string()
    .trim()
    .min(1, "Position is empty.")
    .transform((text, ctx) => {
      const parsed = parsePosition(text);
      if (!parsed) {
        ctx.addIssue({
          code: "custom",
          message: `Position "${text.slice(0, 20)}" is not a place (1, 2, 3...) or DNF, DNS, DSQ.`,
        });
        return z.NEVER;
      }
      return parsed;
    }),
  racerId: z
    .string()
    .trim()
    .transform((text, ctx) => {
      if (text === "") return undefined;
      const id = parseCount(text);
      if (!id) {
        ctx.addIssue({
          code: "custom",
          message: `Racer ID "${text.slice(0, 20)}" is not a number.`,
        });
        return z.NEVER;
      }
      return id;
    }),
  firstName: z.string().trim().max(200, "First Name is longer than 200 characters."),
  lastName: z.string().trim().max(200, "Last Name is longer than 200 characters."),
  category: z
    .string()
    .trim()
    .transform((text, ctx) => {
      if (text === "") return undefined;
      const category = normalizeCategory(text);
      if (!category) {
        ctx.addIssue({ code: "custom", message: `Unknown category "${text.slice(0, 40)}".` });
        return z.NEVER;
      }
      return category;
    }),
});
export type ResultCells = z.infer<typeof resultCellsSchema>;

/** Checks one row's cells; the row schema shared by the CLI and the admin dashboard. */
export function parseResultCells(
  cells: Record<keyof ResultCells, string>,
): { ok: true; value: ResultCells } | { ok: false; messages: string[] } {
  const parsed = resultCellsSchema.safeParse(cells);
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, messages: parsed.error.issues.map((i) => i.message) };
}

function label(r: Pick<ResultRacer, "firstName" | "lastName">): string {
  return `${r.firstName} ${r.lastName}`.trim();
}

/** The problem with the file as a whole, if any: no header, a column missing, no rows, too many. */
function fileIssue(table: CsvTable, cols: Columns): ResultIssue | null {
  const missing: string[] = [];
  const hasNames = cols.name >= 0 || (cols.firstName >= 0 && cols.lastName >= 0);
  if (cols.position < 0) missing.push("Position");
  if (cols.racerId < 0 && !hasNames) {
    if (cols.firstName < 0) missing.push("First Name");
    if (cols.lastName < 0) missing.push("Last Name");
  }
  if (table.header.length === 0) return { line: 1, message: "The file is empty." };
  if (missing.length > 0) {
    const columns = missing.join(", ");
    return {
      line: 1,
      message: `Missing column${missing.length > 1 ? "s" : ""} ${columns} (expected Position, First Name, Last Name, Category, or a Racer ID column; timing exports: Rank and Name).`,
    };
  }
  if (table.records.length === 0) return { line: 1, message: "The file has no result rows." };
  if (table.records.length > CSV_MAX_ROWS) {
    return { line: 1, message: `The file has more than ${CSV_MAX_ROWS} rows.` };
  }
  return null;
}

/** The event's racers by ID and by name: as written, folded, and as words in any order. */
interface RacerIndex {
  all: readonly ResultRacer[];
  byId: Map<number, ResultRacer>;
  byName: Map<string, ResultRacer[]>;
  byFolded: Map<string, ResultRacer[]>;
  byWords: Map<string, ResultRacer[]>;
}

function indexRacers(racers: readonly ResultRacer[]): RacerIndex {
  const index: RacerIndex = {
    all: racers,
    byId: new Map(racers.map((r) => [r.id, r])),
    byName: new Map(),
    byFolded: new Map(),
    byWords: new Map(),
  };
  for (const r of racers) {
    const add = (map: Map<string, ResultRacer[]>, key: string) =>
      map.set(key, [...(map.get(key) ?? []), r]);
    add(index.byName, racerNameKey(r.firstName, r.lastName));
    add(index.byFolded, foldedNameKey(r.firstName, r.lastName));
    add(index.byWords, nameWordsKey(`${r.firstName} ${r.lastName}`));
  }
  return index;
}

/** One row read from the file: its cells checked, the racer not looked up yet. */
interface ReadRow {
  position: ResultCells["position"];
  racerId: number | undefined;
  firstName: string;
  lastName: string;
  /** The single name column's text ("BRUNI Loic"), when the row is named by it. */
  fullName: string;
  useFullName: boolean;
  /** How the file names the racer, for the messages and the preview. */
  written: string;
  category: Category | undefined;
}

/** Reads a row's cells, or says what is wrong with them. */
function readRow(
  values: readonly string[],
  cols: Columns,
  chosen: Category | undefined,
): { ok: true; row: ReadRow } | { ok: false; messages: string[] } {
  const cell = (index: number) => (index < 0 ? "" : (values[index] ?? ""));
  // A DNF, DNS or DSQ in a time, gap or status cell wins over a place (some exports number
  // every row): the racer did not finish, whatever the rank column says.
  const nonFinish = cols.statuses.map((i) => parseNonFinish(cell(i))).find((s) => s !== undefined);
  const parsed = parseResultCells({
    position: nonFinish ?? cell(cols.position),
    racerId: cell(cols.racerId),
    firstName: cell(cols.firstName),
    lastName: cell(cols.lastName),
    category: cell(cols.category),
  });
  if (!parsed.ok) return parsed;
  const { position, racerId, firstName, lastName } = parsed.value;
  if (parsed.value.category && chosen && parsed.value.category !== chosen) {
    return {
      ok: false,
      messages: [
        `The Category "${parsed.value.category}" is not the category chosen for this file (${chosen}).`,
      ],
    };
  }
  const category = parsed.value.category ?? chosen;
  const fullName = cols.name >= 0 ? cell(cols.name).trim().slice(0, 200) : "";
  const useFullName = !(firstName && lastName) && fullName !== "";
  const written =
    racerId !== undefined ? `#${racerId}` : useFullName ? fullName : label({ firstName, lastName });
  return {
    ok: true,
    row: { position, racerId, firstName, lastName, fullName, useFullName, written, category },
  };
}

/**
 * The racer a row names: by its Racer ID, else by name within its category (as written, then
 * folded, then the words in any order); or the message saying why there is none.
 */
function matchRacer(
  row: ReadRow,
  index: RacerIndex,
  hasNameColumn: boolean,
): { racer: ResultRacer } | { message: string } {
  const { racerId, firstName, lastName, fullName, useFullName, written, category } = row;
  if (racerId !== undefined) {
    const racer = index.byId.get(racerId);
    if (!racer) return { message: `Unknown racer: no racer with ID ${racerId} in this event.` };
    return { racer };
  }
  if (!useFullName && (!firstName || !lastName)) {
    return {
      message: hasNameColumn
        ? "Name is empty (give the racer's name or a Racer ID)."
        : `${!firstName ? "First Name" : "Last Name"} is empty (give both names or a Racer ID).`,
    };
  }
  const inCategory = (list: ResultRacer[] | undefined) =>
    category ? list?.filter((r) => r.category === category) : list;
  const exact = useFullName ? undefined : index.byName.get(racerNameKey(firstName, lastName));
  const folded = useFullName ? undefined : index.byFolded.get(foldedNameKey(firstName, lastName));
  // Then the words in any order, accents and case ignored ("BRUNI Loic", swapped columns).
  const words = index.byWords.get(
    nameWordsKey(useFullName ? fullName : `${firstName} ${lastName}`),
  );
  let candidates = inCategory(exact);
  if (!candidates?.length) candidates = inCategory(folded);
  if (!candidates?.length) candidates = inCategory(words);
  if (!candidates?.length) {
    const elsewhere = exact ?? folded ?? words;
    if (elsewhere?.length && category) {
      return { message: `${written} races in ${elsewhere[0]!.category}, not ${category}.` };
    }
    const near = closestRacers(
      written,
      index.all.filter((r) => !category || r.category === category),
    );
    return {
      message: `Unknown racer: ${written}${category ? ` in ${category}` : ""} is not a racer of this event.${
        near.length ? ` Did you mean ${near.map(label).join(" or ")}?` : ""
      }`,
    };
  }
  if (candidates.length > 1) {
    return {
      message: `${written} matches ${candidates.length} racers: add the Category or a Racer ID.`,
    };
  }
  return { racer: candidates[0]! };
}

/**
 * Checks a whole results file against the racers of the event. Every problem is reported with
 * its line: missing columns, malformed rows, unknown racers, a racer listed twice, a place taken
 * twice within a category. `ok` only when there is none: then `rows` is what to store.
 */
export function checkResults(
  table: CsvTable,
  racers: readonly ResultRacer[],
  opts: ResultsCheckOptions = {},
): ResultsCheck {
  const issues: ResultIssue[] = [];
  const rows: ResultRowInput[] = [];
  if (table.errors?.length) return { ok: false, rows, issues: [...table.errors] };
  table = skipTitleRows(table);
  const cols = findColumns(table.header);
  const problem = fileIssue(table, cols);
  if (problem) return { ok: false, rows, issues: [problem] };

  const index = indexRacers(racers);
  const scope = new Set<Category>(opts.category ? [opts.category] : []);
  const racerLine = new Map<number, number>();
  const placeLine = new Map<string, number>();

  for (const { line, values } of table.records) {
    const read = readRow(values, cols, opts.category);
    if (!read.ok) {
      for (const message of read.messages) issues.push({ line, message });
      continue;
    }
    const { position, written, category } = read.row;
    const match = matchRacer(read.row, index, cols.name >= 0);
    if ("message" in match) {
      issues.push({ line, message: match.message });
      continue;
    }
    const { racer } = match;
    if (category && category !== racer.category) {
      issues.push({
        line,
        message: `${label(racer)} races in ${racer.category}, not ${category}.`,
      });
      continue;
    }
    const seenOn = racerLine.get(racer.id);
    if (seenOn !== undefined) {
      issues.push({ line, message: `${label(racer)} is listed twice (first on line ${seenOn}).` });
      continue;
    }
    racerLine.set(racer.id, line);
    if (position.status === "finished") {
      const key = `${racer.category}|${position.position}`;
      const takenOn = placeLine.get(key);
      if (takenOn !== undefined) {
        issues.push({
          line,
          message: `Position ${position.position} in ${racer.category} is already taken on line ${takenOn}.`,
        });
        continue;
      }
      placeLine.set(key, line);
    }
    scope.add(racer.category);
    rows.push({
      line,
      asWritten: written,
      racerId: racer.id,
      category: racer.category,
      status: position.status,
      position: position.position,
    });
  }
  if (issues.length > 0) return { ok: false, issues, rows };
  return { ok: true, rows, categories: CATEGORIES.filter((c) => scope.has(c)) };
}

/** `Line 4: Position "x" is not a place...`: how issues are printed by the CLI and the dashboard. */
export function formatResultIssue(issue: ResultIssue): string {
  return `Line ${issue.line}: ${issue.message}`;
}

/** The admin dashboard's results upload form (one schema for the browser and the server). */
export const resultsUploadSchema = z.object({
  eventId: z.coerce
    .number({ error: "Choose an event." })
    .int("Choose an event.")
    .positive("Choose an event."),
  csv: z
    .string({ error: "Choose a results CSV file." })
    .refine((s) => s.trim().length > 0, "Choose a results CSV file.")
    .refine(
      (s) => s.length <= CSV_MAX_BYTES,
      `The file is larger than ${CSV_MAX_BYTES / 1024 / 1024} MB.`,
    ),
  /** The file's category, for a timing company's one-category file ("" or absent: from the file). */
  category: z
    .string()
    .optional()
    .transform((text, ctx) => {
      if (!text?.trim()) return undefined;
      const category = normalizeCategory(text);
      if (!category) {
        ctx.addIssue({ code: "custom", message: `Unknown category "${text.slice(0, 40)}".` });
        return z.NEVER;
      }
      return category;
    }),
  intent: z.enum(["preview", "import"]).default("preview"),
});
export type ResultsUploadInput = z.infer<typeof resultsUploadSchema>;

/** The dashboard's "settle again" button (re-runs the settlement of an event's stored results). */
export const settleFormSchema = z.object({
  eventId: z.coerce
    .number({ error: "Choose an event." })
    .int("Choose an event.")
    .positive("Choose an event."),
});

/** The most rows a pushed JSON body may hold (a results file's size limit keeps CSV bounded). */
export const JSON_RESULTS_MAX_ROWS = 5000;

/**
 * A timing system's JSON results as the table a CSV file reads as (decision 0171), so both go
 * through the same checks: an array of objects (or `{ "results": [...] }`) whose keys are the
 * CSV's column names ("position", "firstName" or "First Name", "category", "racerId", ...).
 * Item n is "line" n + 1, as if the header were line 1. A body of any other shape is one issue.
 */
export function jsonResultsTable(value: unknown): CsvTable {
  const items =
    value && typeof value === "object" && !Array.isArray(value) && "results" in value
      ? (value as { results: unknown }).results
      : value;
  const issue = (message: string): CsvTable => ({
    header: [],
    records: [],
    errors: [{ line: 1, message }],
  });
  if (!Array.isArray(items) || items.length === 0) {
    return issue(
      'Expected a JSON array of results (or { "results": [...] }), one object per racer.',
    );
  }
  if (items.length > JSON_RESULTS_MAX_ROWS) {
    return issue(`At most ${JSON_RESULTS_MAX_ROWS} results in one body.`);
  }
  const header: string[] = [];
  const seen = new Set<string>();
  for (const [i, item] of items.entries()) {
    if (!item || typeof item !== "object" || Array.isArray(item)) {
      return issue(`Result ${i + 1} is not an object.`);
    }
    for (const key of Object.keys(item)) {
      if (!seen.has(key)) {
        seen.add(key);
        header.push(key);
      }
    }
  }
  const cell = (v: unknown) => (v === null || v === undefined ? "" : String(v));
  const records = items.map((item: Record<string, unknown>, i) => ({
    line: i + 2,
    values: header.map((key) => cell(item[key])),
  }));
  // Keys match columns as headers do (case, spaces and underscores aside): firstName, first_name.
  return { header, records, errors: [] };
}
