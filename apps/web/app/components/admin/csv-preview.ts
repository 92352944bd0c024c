/**
 * What the dashboard shows before uploading: the browser's papaparse result checked with the
 * same @game/core rules the server applies, so the counts and reasons match what will happen.
 */
import {
  CSV_MAX_BYTES,
  CSV_MAX_ROWS,
  headerKey,
  parseRacerRows,
  type RacerRowInput,
  type SkippedRow,
} from "@game/core";
import type { ParseResult } from "papaparse";

export type CsvRecord = Record<string, string>;

export type CsvPreview =
  | {
      ok: true;
      /** What gets sent: every record, so line numbers stay those of the file. */
      records: CsvRecord[];
      /** Data lines read (blank lines not counted). */
      read: number;
      rows: RacerRowInput[];
      skipped: SkippedRow[];
    }
  | { ok: false; error: string };

const REQUIRED = ["Category", "First Name", "Last Name"];

const mb = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

/** Checked before the file is even read. */
export function fileTooBig(bytes: number): string | null {
  return bytes > CSV_MAX_BYTES
    ? `The file is ${mb(bytes)}; racer files are limited to ${mb(CSV_MAX_BYTES)}.`
    : null;
}

const isBlank = (r: CsvRecord) => Object.values(r).every((v) => v == null || v === "");

export function previewCsv(result: ParseResult<CsvRecord>, text?: string): CsvPreview {
  const quote = result.errors.find((e) => e.type === "Quotes");
  if (quote) {
    const line =
      text !== undefined
        ? text.slice(0, quote.index ?? 0).split("\n").length
        : (quote.row ?? 0) + 1;
    return { ok: false, error: `Line ${line}: ${quote.message.toLowerCase()}.` };
  }
  const have = new Set((result.meta.fields ?? []).map(headerKey));
  const missing = REQUIRED.filter((c) => !have.has(headerKey(c)));
  if (missing.length > 0) {
    return { ok: false, error: `The header has no ${missing.join(", ")} column.` };
  }
  const records = [...result.data];
  if (records.length > 0 && isBlank(records[records.length - 1]!)) records.pop();
  if (records.length > CSV_MAX_ROWS) {
    return {
      ok: false,
      error: `The file has ${records.length.toLocaleString("en-US")} rows; racer files are limited to ${CSV_MAX_ROWS.toLocaleString("en-US")} rows.`,
    };
  }
  const { rows, skipped } = parseRacerRows(records);
  return { ok: true, records, read: records.filter((r) => !isBlank(r)).length, rows, skipped };
}
