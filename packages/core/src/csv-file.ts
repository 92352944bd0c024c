/**
 * Reading an uploaded CSV file's bytes as text, the same way in the browser, the server and the
 * CLI (only TextDecoder: no Node API). Spreadsheets save CSV in several encodings; guessing wrong
 * stores "Latin On�" for ever, so an encoding that cannot be told is refused with a message.
 */

/** A file that cannot be read at all; the message is meant for the person who chose it. */
export class CsvFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CsvFileError";
  }
}

export type CsvEncoding = "UTF-8" | "UTF-8 with BOM" | "UTF-16 LE" | "UTF-16 BE" | "Windows-1252";

export interface DecodedCsv {
  text: string;
  encoding: CsvEncoding;
}

export const EMPTY_FILE = "The file is empty.";
export const NOT_TEXT = "This is not a text CSV file.";

const startsWith = (bytes: Uint8Array, ...prefix: number[]) =>
  prefix.every((b, i) => bytes[i] === b);

/** Formats people pick by mistake, named so they know what to do instead. */
function knownBinary(bytes: Uint8Array): string | null {
  if (startsWith(bytes, 0x50, 0x4b, 0x03, 0x04)) {
    return `${NOT_TEXT} It looks like an Excel or OpenDocument workbook: save it as "CSV UTF-8" first.`;
  }
  if (startsWith(bytes, 0xd0, 0xcf, 0x11, 0xe0)) {
    return `${NOT_TEXT} It looks like an old Excel workbook (.xls): save it as "CSV UTF-8" first.`;
  }
  if (startsWith(bytes, 0x25, 0x50, 0x44, 0x46)) return `${NOT_TEXT} It is a PDF document.`;
  return null;
}

/**
 * UTF-16 without a BOM: text of Latin letters has a zero byte in every other position. Looks at
 * the first 4096 bytes only (so a file arriving in pieces can be told from its start).
 */
export function bomlessUtf16(bytes: Uint8Array): "utf-16le" | "utf-16be" | null {
  const n = Math.min(bytes.length - (bytes.length % 2), 4096);
  if (n < 4) return null;
  let evenZero = 0;
  let oddZero = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) evenZero++;
    if (bytes[i + 1] === 0) oddZero++;
  }
  const pairs = n / 2;
  if (oddZero > pairs * 0.6 && evenZero < pairs * 0.1) return "utf-16le";
  if (evenZero > pairs * 0.6 && oddZero < pairs * 0.1) return "utf-16be";
  return null;
}

// Control characters a text CSV never holds (tab, line feed and carriage return are fine).
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/**
 * Windows-1252's characters at 0x80-0x9F (euro sign, curly quotes, dashes...). Some TextDecoder
 * implementations decode the label as Latin-1 and leave these as control characters.
 */
const CP1252_HIGH =
  "\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f" +
  "\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178";

function decode(label: string, bytes: Uint8Array, fatal: boolean): string {
  const text = new TextDecoder(label, { fatal, ignoreBOM: false }).decode(bytes);
  return label === "windows-1252"
    ? text.replace(/[\u0080-\u009f]/g, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80]!)
    : text;
}

/**
 * The text of a CSV file: UTF-8 (with or without BOM), UTF-16 LE/BE (with BOM, or plainly
 * recognisable without), or else Windows-1252, what Excel's plain "CSV" saves on Windows.
 * Throws CsvFileError for an empty file, a binary one, or bytes that read as none of these.
 */
export function decodeCsvBytes(input: Uint8Array | ArrayBuffer): DecodedCsv {
  const bytes = input instanceof Uint8Array ? input : new Uint8Array(input);
  if (bytes.length === 0) throw new CsvFileError(EMPTY_FILE);
  const binary = knownBinary(bytes);
  if (binary) throw new CsvFileError(binary);

  let decoded: DecodedCsv;
  if (startsWith(bytes, 0xef, 0xbb, 0xbf)) {
    decoded = { text: utf8(bytes.subarray(3)), encoding: "UTF-8 with BOM" };
  } else if (startsWith(bytes, 0xff, 0xfe)) {
    decoded = { text: utf16("utf-16le", bytes.subarray(2)), encoding: "UTF-16 LE" };
  } else if (startsWith(bytes, 0xfe, 0xff)) {
    decoded = { text: utf16("utf-16be", bytes.subarray(2)), encoding: "UTF-16 BE" };
  } else {
    const wide = bomlessUtf16(bytes);
    if (wide) {
      decoded = {
        text: utf16(wide, bytes),
        encoding: wide === "utf-16le" ? "UTF-16 LE" : "UTF-16 BE",
      };
    } else if (bytes.includes(0)) {
      throw new CsvFileError(NOT_TEXT);
    } else {
      try {
        decoded = { text: decode("utf-8", bytes, true), encoding: "UTF-8" };
      } catch {
        decoded = { text: decode("windows-1252", bytes, false), encoding: "Windows-1252" };
      }
    }
  }
  if (CONTROL.test(decoded.text)) {
    throw new CsvFileError(
      decoded.encoding === "Windows-1252"
        ? `${NOT_TEXT} Its characters are neither UTF-8 nor Windows-1252: save it as "CSV UTF-8".`
        : NOT_TEXT,
    );
  }
  if (decoded.text.trim() === "") throw new CsvFileError(EMPTY_FILE);
  return decoded;
}

function utf8(bytes: Uint8Array): string {
  try {
    return decode("utf-8", bytes, true);
  } catch {
    throw new CsvFileError(
      `${NOT_TEXT} It starts as UTF-8 but holds bytes that are not: save it again as "CSV UTF-8".`,
    );
  }
}

function utf16(label: "utf-16le" | "utf-16be", bytes: Uint8Array): string {
  try {
    return decode(label, bytes, true);
  } catch {
    throw new CsvFileError(`${NOT_TEXT} It starts as UTF-16 but is not valid UTF-16.`);
  }
}

/** The delimiters a CSV file may use, in order of preference on a tie. */
const DELIMITERS = [",", ";", "\t", "|"] as const;

/** How often each delimiter occurs in `line`, outside quotes. */
export function delimiterCounts(line: string): Map<string, number> {
  const counts = new Map<string, number>(DELIMITERS.map((d) => [d, 0]));
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && counts.has(ch)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  }
  return counts;
}

/** The most frequent delimiter in `line` (outside quotes), or null when it has none. */
export function lineDelimiter(line: string): string | null {
  let best: string | null = null;
  let most = 0;
  for (const [d, n] of delimiterCounts(line)) {
    if (n > most) {
      best = d;
      most = n;
    }
  }
  return best;
}

/**
 * A file's delimiter, from its header line: the most frequent of , ; tab | outside quotes (the
 * racer parser, the streaming row count and the results reader all read it this way).
 */
export function headerDelimiter(headerLine: string): string {
  return lineDelimiter(headerLine) ?? ",";
}
