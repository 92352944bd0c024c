/**
 * What the dashboard shows before uploading: the file read in the browser by the same @game/core
 * functions the server runs on the text it is sent (decodeCsvBytes, parseRacerCsv), so the rows,
 * skipped lines, defaults and refusals match what the upload will do.
 */
import { CSV_MAX_BYTES } from "@game/core/constants";
import { CsvFileError, decodeCsvBytes } from "@game/core/csv-file";
import { parseRacerCsv, type RacerCsvFile } from "@game/core/racer-csv";

export type CsvPreview =
  | {
      ok: true;
      /** The decoded text: what gets sent, so the server reads exactly this. */
      text: string;
      file: RacerCsvFile;
    }
  | { ok: false; error: string };

const mb = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

/** Checked before the file is even read. */
export function fileTooBig(bytes: number): string | null {
  return bytes > CSV_MAX_BYTES
    ? `The file is ${mb(bytes)}; racer files are limited to ${mb(CSV_MAX_BYTES)}.`
    : null;
}

/** Reads a chosen file's bytes as the server will: a refusal comes back as its message. */
export function previewCsvBytes(bytes: ArrayBuffer | Uint8Array): CsvPreview {
  try {
    const { text, encoding } = decodeCsvBytes(bytes);
    return { ok: true, text, file: { ...parseRacerCsv(text), encoding } };
  } catch (error) {
    if (error instanceof CsvFileError) return { ok: false, error: error.message };
    throw error;
  }
}
