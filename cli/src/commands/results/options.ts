/** What the results commands read and print the same way. */
import {
  CATEGORIES,
  type Category,
  CSV_MAX_BYTES,
  CsvFileError,
  decodeCsvBytes,
  normalizeCategory,
} from "@game/core";
import { InvalidArgumentError } from "commander";
import { readInputFile } from "../../context.js";
import { CliError } from "../../errors.js";

/** `--category "Pro Men"` (also "pro-men", "Elite Men"): the category of the whole file. */
export function categoryOption(value: string): Category {
  const category = normalizeCategory(value);
  if (!category) {
    throw new InvalidArgumentError(`must be one of ${CATEGORIES.map((c) => `"${c}"`).join(", ")}.`);
  }
  return category;
}

/** Results files share the racer files' size limit. */
function readBytes(file: string): Uint8Array {
  return readInputFile(file, (size) => {
    if (size > CSV_MAX_BYTES) {
      throw new CliError(`${file} is larger than ${CSV_MAX_BYTES / 1024 / 1024} MB`);
    }
  });
}

/**
 * The file's text, decoded as the dashboard decodes uploads: timing exports come from Excel as
 * often as not, in UTF-8, UTF-16 or Windows-1252 ("HÖLL" must not become "H�LL").
 */
export function readResultsText(file: string): string {
  const bytes = readBytes(file);
  try {
    return decodeCsvBytes(bytes).text;
  } catch (error) {
    if (error instanceof CsvFileError) throw new CliError(`${file}: ${error.message}`);
    throw error;
  }
}

/** A result's place column: the position, or DNF, DNS, DSQ. */
export const place = (r: { status: string; position: number | null }) =>
  r.status === "finished" ? String(r.position) : r.status;
