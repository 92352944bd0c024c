/**
 * Counting the racer rows of a CSV file while it is still arriving, so an upload over
 * CSV_MAX_ROWS is refused at its 20,001st row instead of after the whole file was read and
 * parsed (docs/decisions/0150). The count is the one `parseRacerCsv` makes (non-blank rows after
 * the header, split as papaparse splits them with the file's delimiter and line break) for every
 * file the parser accepts; from bytes it may count fewer (never more), so a file is never refused
 * here that the parser would take.
 */
import { bomlessUtf16, headerDelimiter } from "./csv-file.js";

export interface CsvRowCounter {
  /** Reads the next piece of the file. */
  push(chunk: string): void;
  /** The end of the file: the final count. */
  end(): number;
  /** Data rows (non-blank rows after the header) seen so far. */
  readonly rows: number;
}

export interface CsvRowCounterOptions {
  /**
   * Count U+FFFD as blank. Set when bytes were decoded as UTF-8 before their encoding is known:
   * a Windows-1252 no-break space reads as U+FFFD there, and a blank row must not be counted.
   */
  replacementIsBlank?: boolean;
}

const QUOTE = 34;
const CR = 13;
const LF = 10;
const LINE_BREAK = /\r\n|\r|\n/;

/** JavaScript's trim() whitespace (what makes a cell blank), by character code. */
function isSpace(code: number, replacementIsBlank: boolean): boolean {
  if (code <= 32) return code === 32 || (code >= 9 && code <= 13);
  if (code < 160) return false;
  if (code === 0xfffd) return replacementIsBlank;
  return /\s/.test(String.fromCharCode(code));
}

function isBlankText(text: string, replacementIsBlank: boolean): boolean {
  for (let i = 0; i < text.length; i++) {
    if (!isSpace(text.charCodeAt(i), replacementIsBlank)) return false;
  }
  return true;
}

type State =
  /** At the start of a field. */
  | "field-start"
  /** Inside an unquoted field. */
  | "unquoted"
  /** Inside a quoted field. */
  | "quoted"
  /** A quote inside a quoted field: an escaped quote or the closing one (next character). */
  | "quote-seen"
  /** After a closing quote: spaces, then a delimiter or the line break. */
  | "after-quote";

/** Counts the data rows of CSV text fed piece by piece (see the file comment). */
export function createCsvRowCounter(opts: CsvRowCounterOptions = {}): CsvRowCounter {
  const replacementIsBlank = opts.replacementIsBlank === true;
  /** Text held until the line break and the delimiter are known. */
  let head = "";
  let started = false;
  let delimiter = 0;
  let crlf = false;
  /** The line break character ("\r" for both \r\n and \r files, "\n" otherwise). */
  let breakCode = LF;
  let state: State = "field-start";
  /** A "\r" waiting for its "\n" (\r\n files). */
  let pendingCr = false;
  let rowHasText = false;
  let rowsSeen = 0;

  const endRow = () => {
    if (rowHasText) rowsSeen++;
    rowHasText = false;
    state = "field-start";
  };

  /** One character outside a quoted field's content, once "\r\n" pairs are resolved. */
  const outside = (code: number, isBreak: boolean) => {
    if (isBreak) {
      endRow();
      return;
    }
    if (state === "after-quote") {
      if (code === delimiter) state = "field-start";
      else if (!isSpace(code, replacementIsBlank)) {
        // Malformed: papaparse looks on for the closing quote (and reports the file).
        state = "quoted";
        if (code === QUOTE) state = "quote-seen";
        else rowHasText = true;
      }
      return;
    }
    if (code === delimiter) {
      state = "field-start";
      return;
    }
    if (state === "field-start" && code === QUOTE) {
      state = "quoted";
      return;
    }
    state = "unquoted";
    if (!rowHasText && !isSpace(code, replacementIsBlank)) rowHasText = true;
  };

  const feed = (text: string) => {
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (state === "quoted") {
        if (code === QUOTE) state = "quote-seen";
        else if (!rowHasText && !isSpace(code, replacementIsBlank)) rowHasText = true;
        continue;
      }
      if (state === "quote-seen") {
        if (code === QUOTE) {
          // An escaped quote: a character of the cell.
          rowHasText = true;
          state = "quoted";
          continue;
        }
        state = "after-quote";
      }
      if (pendingCr) {
        pendingCr = false;
        if (code === LF) {
          outside(LF, true);
          continue;
        }
        outside(CR, false);
      }
      if (crlf && code === CR) {
        pendingCr = true;
        continue;
      }
      outside(code, !crlf && code === breakCode);
    }
  };

  /** Starts counting once the first line break and the header line are known (or at the end). */
  const start = (atEnd: boolean) => {
    // The parser takes a byte-order mark off, and Papa Parse one more: a second one must not
    // turn the quote after it into a plain character here.
    const text = head.replace(/^\uFEFF{1,2}/, "");
    const found = LINE_BREAK.exec(text);
    // A "\r" ending the text so far may be the first half of "\r\n".
    if (!atEnd && (!found || (found[0] === "\r" && found.index === text.length - 1))) return;
    const lines = text.split(LINE_BREAK);
    // Blank as the rows are blank: a U+FFFD standing in for a no-break space is no header.
    const headerAt = lines.findIndex((l) => !isBlankText(l, replacementIsBlank));
    // The header line must be whole: followed by a line break, or the last line of the file.
    if (!atEnd && (headerAt < 0 || headerAt === lines.length - 1)) return;
    const newline = found?.[0] ?? "\n";
    crlf = newline === "\r\n";
    breakCode = newline === "\r" ? CR : LF;
    delimiter = headerDelimiter(headerAt < 0 ? "" : lines[headerAt]!).charCodeAt(0);
    started = true;
    head = "";
    feed(text);
  };

  return {
    push(chunk: string) {
      if (chunk === "") return;
      if (started) {
        feed(chunk);
        return;
      }
      head += chunk;
      start(false);
    },
    end() {
      if (!started) start(true);
      if (pendingCr) {
        pendingCr = false;
        outside(CR, false);
      }
      endRow();
      return this.rows;
    },
    get rows() {
      // The first non-blank row is the header.
      return Math.max(0, rowsSeen - 1);
    },
  };
}

/** Racer rows of CSV text (the count parseRacerCsv makes of a file it accepts). */
export function countCsvRows(text: string): number {
  const counter = createCsvRowCounter();
  counter.push(text);
  return counter.end();
}

export interface CsvByteRowCounter {
  /** Reads the next bytes of the file. */
  push(bytes: Uint8Array): void;
  end(): number;
  /** Data rows seen so far: never more than the file has. */
  readonly rows: number;
}

/** Bytes looked at before the encoding is chosen (what decodeCsvBytes looks at for UTF-16). */
const SNIFF_BYTES = 4096;

/**
 * Counts the data rows of a CSV file's bytes as they arrive, decoded the way decodeCsvBytes
 * decodes them: UTF-8 (with or without BOM), UTF-16 LE/BE (BOM, or recognised without), and
 * Windows-1252 read as UTF-8 (its delimiters, quotes and line breaks are the same bytes).
 */
export function createCsvByteRowCounter(): CsvByteRowCounter {
  let sniffed: Uint8Array | null = new Uint8Array(0);
  let decoder: { decode(bytes?: Uint8Array, opts?: { stream?: boolean }): string } | null = null;
  let text: CsvRowCounter | null = null;

  const choose = (bytes: Uint8Array) => {
    let label = "utf-8";
    let skip = 0;
    if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) skip = 3;
    else if (bytes[0] === 0xff && bytes[1] === 0xfe) [label, skip] = ["utf-16le", 2];
    else if (bytes[0] === 0xfe && bytes[1] === 0xff) [label, skip] = ["utf-16be", 2];
    else label = bomlessUtf16(bytes) ?? "utf-8";
    decoder = new TextDecoder(label, { ignoreBOM: false });
    text = createCsvRowCounter({ replacementIsBlank: label === "utf-8" });
    text.push(decoder.decode(bytes.subarray(skip), { stream: true }));
  };

  return {
    push(bytes: Uint8Array) {
      if (sniffed) {
        const joined = new Uint8Array(sniffed.length + bytes.length);
        joined.set(sniffed);
        joined.set(bytes, sniffed.length);
        if (joined.length < SNIFF_BYTES) {
          sniffed = joined;
          return;
        }
        sniffed = null;
        choose(joined);
        return;
      }
      text!.push(decoder!.decode(bytes, { stream: true }));
    },
    end() {
      if (sniffed) {
        const bytes = sniffed;
        sniffed = null;
        choose(bytes);
      }
      text!.push(decoder!.decode());
      return text!.end();
    },
    get rows() {
      return text?.rows ?? 0;
    },
  };
}
