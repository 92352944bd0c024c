import { z } from "zod";
import { type Category, normalizeCategory } from "./categories.js";
import { CSV_MAX_BYTES, CSV_MAX_ROWS } from "./constants.js";
import { headerKey, parseCount, racerNameKey } from "./csv.js";
import { NON_FINISH, type NonFinish, pointsForPosition } from "./scoring.js";

/*
 * Race results: the CSV an admin imports after a race, checked as a whole before anything is
 * written, and the reference settlement that the SQL settlement must match.
 */

/** Columns of a results file. A racer id column ("Racer ID" or "ID") may replace the names. */
export const RESULT_CSV_COLUMNS = ["Position", "First Name", "Last Name", "Category"] as const;

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
  | { ok: true; rows: ResultRowInput[] }
  | { ok: false; issues: ResultIssue[]; rows: ResultRowInput[] };

/** A place can be written "7", "07", "7th" or "7." in timing exports. */
const PLACE = /^0*([1-9]\d{0,5})(?:st|nd|rd|th|\.)?$/i;
const STATUS_ALIASES: Record<string, NonFinish> = {
  dnf: "DNF",
  dns: "DNS",
  dsq: "DSQ",
  dq: "DSQ",
};

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
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const count = (d: string) => firstLine.split(d).length - 1;
  const candidates = [",", ";", "\t"].sort((a, b) => count(b) - count(a));
  return count(candidates[0]!) > 0 ? candidates[0]! : ",";
}

/**
 * A small RFC 4180 reader that keeps the line each record starts on (quoted cells may span lines),
 * so every problem can be reported where the admin will find it in a spreadsheet. Comma,
 * semicolon and tab delimiters are detected from the header. Blank lines are dropped.
 */
export function readCsv(input: string): CsvTable {
  const text = input.replace(/^\uFEFF/, "");
  const delimiter = detectDelimiter(text);
  const rows: CsvRecord[] = [];
  let line = 1;
  let start = 1;
  let cell = "";
  let cells: string[] = [];
  let quoted = false;
  let quoteLine = 0;
  let i = 0;
  const endRecord = () => {
    cells.push(cell);
    if (cells.length > 1 || cells[0]!.trim() !== "") rows.push({ line: start, values: cells });
    cells = [];
    cell = "";
  };
  while (i < text.length) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else {
        if (ch === "\n") line += 1;
        cell += ch;
      }
      i += 1;
      continue;
    }
    if (ch === '"' && cell.trim() === "") {
      quoted = true;
      quoteLine = line;
      cell = "";
    } else if (ch === delimiter) {
      cells.push(cell);
      cell = "";
    } else if (ch === "\n" || ch === "\r") {
      endRecord();
      if (ch === "\r" && text[i + 1] === "\n") i += 1;
      line += 1;
      start = line;
    } else {
      cell += ch;
    }
    i += 1;
  }
  const errors: ResultIssue[] = quoted
    ? [{ line: quoteLine, message: "A quoted cell starting on this line is never closed." }]
    : [];
  if (cell !== "" || cells.length > 0) endRecord();
  const [header, ...records] = rows;
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

const ID_HEADERS = new Set(["racerid", "id"]);

type Columns = {
  position: number;
  firstName: number;
  lastName: number;
  category: number;
  racerId: number;
};

function findColumns(header: readonly string[]): Columns {
  const keys = header.map(headerKey);
  const at = (k: string) => keys.indexOf(k);
  return {
    position: keys.findIndex((k) => k === "position" || k === "pos" || k === "place"),
    firstName: at("firstname"),
    lastName: at("lastname"),
    category: at("category"),
    racerId: keys.findIndex((k) => ID_HEADERS.has(k)),
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

/**
 * Checks a whole results file against the racers of the event. Every problem is reported with
 * its line: missing columns, malformed rows, unknown racers, a racer listed twice, a place taken
 * twice within a category. `ok` only when there is none: then `rows` is what to store.
 */
export function checkResults(table: CsvTable, racers: readonly ResultRacer[]): ResultsCheck {
  const issues: ResultIssue[] = [];
  const rows: ResultRowInput[] = [];
  if (table.errors?.length) return { ok: false, rows, issues: [...table.errors] };
  const cols = findColumns(table.header);
  const missing: string[] = [];
  if (cols.position < 0) missing.push("Position");
  if (cols.racerId < 0) {
    if (cols.firstName < 0) missing.push("First Name");
    if (cols.lastName < 0) missing.push("Last Name");
  }
  if (table.header.length === 0) {
    return { ok: false, rows, issues: [{ line: 1, message: "The file is empty." }] };
  }
  if (missing.length > 0) {
    const columns = missing.join(", ");
    return {
      ok: false,
      rows,
      issues: [
        {
          line: 1,
          message: `Missing column${missing.length > 1 ? "s" : ""} ${columns} (expected Position, First Name, Last Name, Category, or a Racer ID column).`,
        },
      ],
    };
  }
  if (table.records.length === 0) {
    return { ok: false, rows, issues: [{ line: 1, message: "The file has no result rows." }] };
  }
  if (table.records.length > CSV_MAX_ROWS) {
    return {
      ok: false,
      rows,
      issues: [{ line: 1, message: `The file has more than ${CSV_MAX_ROWS} rows.` }],
    };
  }

  const byId = new Map(racers.map((r) => [r.id, r]));
  const byName = new Map<string, ResultRacer[]>();
  const byFolded = new Map<string, ResultRacer[]>();
  for (const r of racers) {
    const add = (map: Map<string, ResultRacer[]>, key: string) =>
      map.set(key, [...(map.get(key) ?? []), r]);
    add(byName, racerNameKey(r.firstName, r.lastName));
    add(byFolded, foldedNameKey(r.firstName, r.lastName));
  }
  const cell = (values: readonly string[], index: number) =>
    index < 0 ? "" : (values[index] ?? "");
  const racerLine = new Map<number, number>();
  const placeLine = new Map<string, number>();

  for (const { line, values } of table.records) {
    const parsed = parseResultCells({
      position: cell(values, cols.position),
      racerId: cell(values, cols.racerId),
      firstName: cell(values, cols.firstName),
      lastName: cell(values, cols.lastName),
      category: cell(values, cols.category),
    });
    if (!parsed.ok) {
      for (const message of parsed.messages) issues.push({ line, message });
      continue;
    }
    const { position, racerId, firstName, lastName, category } = parsed.value;

    let racer: ResultRacer | undefined;
    if (racerId !== undefined) {
      racer = byId.get(racerId);
      if (!racer) {
        issues.push({ line, message: `Unknown racer: no racer with ID ${racerId} in this event.` });
        continue;
      }
    } else {
      if (!firstName || !lastName) {
        issues.push({
          line,
          message: `${!firstName ? "First Name" : "Last Name"} is empty (give both names or a Racer ID).`,
        });
        continue;
      }
      const inCategory = (list: ResultRacer[] | undefined) =>
        category ? list?.filter((r) => r.category === category) : list;
      const exact = byName.get(racerNameKey(firstName, lastName));
      let candidates = inCategory(exact);
      if (!candidates?.length)
        candidates = inCategory(byFolded.get(foldedNameKey(firstName, lastName)));
      if (!candidates?.length) {
        const elsewhere = exact ?? byFolded.get(foldedNameKey(firstName, lastName));
        issues.push({
          line,
          message:
            elsewhere?.length && category
              ? `${label({ firstName, lastName })} races in ${elsewhere[0]!.category}, not ${category}.`
              : `Unknown racer: ${label({ firstName, lastName })}${category ? ` in ${category}` : ""} is not a racer of this event.`,
        });
        continue;
      }
      if (candidates.length > 1) {
        issues.push({
          line,
          message: `${label({ firstName, lastName })} matches ${candidates.length} racers: add the Category or a Racer ID.`,
        });
        continue;
      }
      racer = candidates[0]!;
    }
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
    rows.push({
      line,
      racerId: racer.id,
      category: racer.category,
      status: position.status,
      position: position.position,
    });
  }
  return issues.length > 0 ? { ok: false, issues, rows } : { ok: true, rows };
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

// ---------------------------------------------------------------------------------------------
// The reference settlement: the rules of scoring and ranking in plain code. The SQL settlement
// in @game/db must give exactly this; property tests compare the two on random seasons.

export interface SettlementInput {
  /** Every settled event (the one being settled included). */
  events: readonly { id: number; startsAt: Date | number }[];
  results: readonly {
    eventId: number;
    racerId: number;
    status: ResultStatus;
    position: number | null;
  }[];
  /** Frozen teams: one row per (event, player, racer). */
  frozen: readonly { eventId: number; userId: number; racerId: number }[];
  users: readonly { id: number; usernameKey: string }[];
  leagues: readonly { id: number; memberIds: readonly number[] }[];
}

export interface SettledPlayer {
  points: number;
  /** Season rank, shared on ties (1, 1, 3); null before the first scored event. */
  ranking: number | null;
  /** Season rank before the latest settled event; null when not ranked then. */
  previousRanking: number | null;
  /** Unique place in the season table (ties ordered by username, then id); null when unranked. */
  position: number | null;
}

export interface Settlement {
  /** Key `${eventId}:${racerId}`. */
  racers: Map<string, { points: number; pickedBy: number }>;
  /** Key `${eventId}:${userId}`. */
  eventScores: Map<string, { points: number; rank: number; position: number }>;
  players: Map<number, SettledPlayer>;
  /** Key `${leagueId}:${userId}`: a member's score is their season points. */
  memberScores: Map<string, number>;
  leagues: Map<number, { totalPoints: number; ranking: number; previousRanking: number | null }>;
}

/** Average of member scores in hundredths, rounded half up, computed exactly. */
export function averageToCents(scores: readonly number[]): number {
  if (scores.length === 0) return 0;
  const total = scores.reduce((a, b) => a + b, 0);
  return Math.round((total * 100) / scores.length) / 100;
}

/** Competition ranks ("1, 1, 3") for `points`, any order; rank = 1 + number strictly higher. */
function sharedRanks<K>(entries: readonly { key: K; points: number }[]): Map<K, number> {
  const sorted = [...entries].sort((a, b) => b.points - a.points);
  const ranks = new Map<K, number>();
  sorted.forEach((e, i) => {
    const prev = sorted[i - 1];
    ranks.set(e.key, prev && prev.points === e.points ? ranks.get(prev.key)! : i + 1);
  });
  return ranks;
}

/** Order of the tables: points highest first, then username (case-insensitive), then id. */
export function compareStanding(
  a: { points: number; usernameKey: string; id: number },
  b: { points: number; usernameKey: string; id: number },
): number {
  if (a.points !== b.points) return b.points - a.points;
  if (a.usernameKey !== b.usernameKey) return a.usernameKey < b.usernameKey ? -1 : 1;
  return a.id - b.id;
}

export function referenceSettlement(input: SettlementInput): Settlement {
  const ms = (d: Date | number) => (d instanceof Date ? d.getTime() : d);
  const settled = new Set(input.events.map((e) => e.id));
  const latest = [...input.events].sort((a, b) => ms(b.startsAt) - ms(a.startsAt) || b.id - a.id)[0]
    ?.id;
  const usernameKey = new Map(input.users.map((u) => [u.id, u.usernameKey]));

  const resultPoints = new Map<string, number>();
  const racers = new Map<string, { points: number; pickedBy: number }>();
  for (const r of input.results) {
    if (!settled.has(r.eventId)) continue;
    const points = pointsForStoredResult(r);
    resultPoints.set(`${r.eventId}:${r.racerId}`, points);
    racers.set(`${r.eventId}:${r.racerId}`, { points, pickedBy: 0 });
  }

  const teamPoints = new Map<number, Map<number, number>>();
  for (const f of input.frozen) {
    if (!settled.has(f.eventId)) continue;
    const key = `${f.eventId}:${f.racerId}`;
    const racer = racers.get(key);
    if (racer) racer.pickedBy += 1;
    const byUser = teamPoints.get(f.eventId) ?? new Map<number, number>();
    teamPoints.set(f.eventId, byUser);
    byUser.set(f.userId, (byUser.get(f.userId) ?? 0) + (resultPoints.get(key) ?? 0));
  }

  const eventScores = new Map<string, { points: number; rank: number; position: number }>();
  const season = new Map<number, { points: number; previous: number; hadPrevious: boolean }>();
  for (const [eventId, byUser] of teamPoints) {
    const entries = [...byUser].map(([id, points]) => ({
      key: id,
      id,
      points,
      usernameKey: usernameKey.get(id)!,
    }));
    const ranks = sharedRanks(entries);
    [...entries].sort(compareStanding).forEach((e, i) => {
      eventScores.set(`${eventId}:${e.id}`, {
        points: e.points,
        rank: ranks.get(e.id)!,
        position: i + 1,
      });
      const s = season.get(e.id) ?? { points: 0, previous: 0, hadPrevious: false };
      s.points += e.points;
      if (eventId !== latest) {
        s.previous += e.points;
        s.hadPrevious = true;
      }
      season.set(e.id, s);
    });
  }

  const players = new Map<number, SettledPlayer>();
  const ranked = [...season].map(([id, s]) => ({
    key: id,
    id,
    points: s.points,
    usernameKey: usernameKey.get(id)!,
  }));
  const ranks = sharedRanks(ranked);
  const previousRanks = sharedRanks(
    [...season]
      .filter(([, s]) => s.hadPrevious)
      .map(([id, s]) => ({ key: id, points: s.previous })),
  );
  const positions = new Map([...ranked].sort(compareStanding).map((e, i) => [e.id, i + 1]));
  for (const u of input.users) {
    const s = season.get(u.id);
    players.set(u.id, {
      points: s?.points ?? 0,
      ranking: ranks.get(u.id) ?? null,
      previousRanking: previousRanks.get(u.id) ?? null,
      position: positions.get(u.id) ?? null,
    });
  }

  const memberScores = new Map<string, number>();
  const hasPrevious = input.events.length > 1;
  const leagueRows = input.leagues.map((l) => {
    const scores = l.memberIds.map((id) => players.get(id)?.points ?? 0);
    for (const [i, id] of l.memberIds.entries()) memberScores.set(`${l.id}:${id}`, scores[i]!);
    const previous = l.memberIds.map((id) => season.get(id)?.previous ?? 0);
    return {
      id: l.id,
      totalPoints: averageToCents(scores),
      previousPoints: averageToCents(previous),
    };
  });
  const byTotal = [...leagueRows].sort((a, b) => b.totalPoints - a.totalPoints || a.id - b.id);
  const byPrevious = [...leagueRows].sort(
    (a, b) => b.previousPoints - a.previousPoints || a.id - b.id,
  );
  const previousPlace = new Map(byPrevious.map((l, i) => [l.id, i + 1]));
  const leagues = new Map(
    byTotal.map((l, i) => [
      l.id,
      {
        totalPoints: l.totalPoints,
        ranking: i + 1,
        previousRanking: hasPrevious ? previousPlace.get(l.id)! : null,
      },
    ]),
  );
  return { racers, eventScores, players, memberScores, leagues };
}
