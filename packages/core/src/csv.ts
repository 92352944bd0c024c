import { type Category, normalizeCategory } from "./categories.js";
import { RACER_DEFAULTS } from "./constants.js";

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

function pick(row: Raw, column: string): string {
  const want = cachedHeaderKey(column);
  for (const [k, v] of Object.entries(row)) {
    if (cachedHeaderKey(k) === want) return v == null ? "" : String(v).trim();
  }
  return "";
}

/** Parses a non-negative integer ("75,000", "$75000", " 12 "); undefined when it is not one. */
export function parseCount(value: string): number | undefined {
  const cleaned = value.replace(/[\s,$_]/g, "");
  if (!/^\d{1,12}$/.test(cleaned)) return undefined;
  const n = Number(cleaned);
  return Number.isSafeInteger(n) ? n : undefined;
}

const MAX_TEXT = 200;

/**
 * Turns CSV records (header row already applied, e.g. by papaparse with `header: true`) into racer
 * rows. Rows without Category, First Name or Last Name are skipped with their line; numbers that
 * fail to parse fall back to the defaults. Cell text is kept as plain text: nothing is evaluated.
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
    const categoryText = pick(record, "Category");
    const firstName = pick(record, "First Name");
    const lastName = pick(record, "Last Name");
    const missing = [
      !categoryText && "Category",
      !firstName && "First Name",
      !lastName && "Last Name",
    ].filter(Boolean);
    if (missing.length > 0) {
      // A blank line is not worth reporting as a skipped racer.
      if (Object.values(record).every((v) => v == null || String(v).trim() === "")) return;
      skipped.push({ line, reason: `missing ${missing.join(", ")}` });
      return;
    }
    const category = normalizeCategory(categoryText);
    if (!category) {
      skipped.push({ line, reason: `unknown category "${categoryText.slice(0, 40)}"` });
      return;
    }
    if (firstName.length > MAX_TEXT || lastName.length > MAX_TEXT) {
      skipped.push({ line, reason: "name longer than 200 characters" });
      return;
    }
    const idText = pick(record, "ID");
    const id = idText ? parseCount(idText) : undefined;
    const picture = pick(record, "Picture");
    rows.push({
      line,
      ...(id ? { id } : {}),
      category,
      firstName,
      lastName,
      picture: picture ? picture.slice(0, MAX_TEXT) : null,
      origin: pick(record, "Origin").slice(0, MAX_TEXT) || RACER_DEFAULTS.origin,
      gameId: opts.gameId ?? parseCount(pick(record, "Game ID")) ?? RACER_DEFAULTS.gameId,
      rank2024: parseCount(pick(record, "Rank2024")) ?? RACER_DEFAULTS.rank2024,
      totalPoint2024: parseCount(pick(record, "TotalPoint2024")) ?? RACER_DEFAULTS.totalPoint2024,
      price: parseCount(pick(record, "Price")) ?? RACER_DEFAULTS.price,
    });
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
