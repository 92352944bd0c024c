/**
 * CSV text to rows of cells, each with the file's line number of its first line (quoted cells may
 * span lines), through papaparse: the one CSV reader of the racer and results files, so every
 * problem can be reported where the admin finds it in a spreadsheet.
 */
import Papa from "papaparse";

export interface CsvRow {
  /** Line on which the row starts (1-based). */
  line: number;
  cells: string[];
}

export interface CsvQuoteError {
  line: number;
  /** papaparse's message ("Quoted field unterminated."). */
  message: string;
  /** `unclosed`: a quote never closed; `stray`: text after a closing quote. */
  kind: "unclosed" | "stray";
}

/**
 * Every row (blank lines too, as one empty cell) of `text` split on `delimiter`. Rows end as the
 * first line does (`\r\n`, `\n` or `\r`); a quoted line break inside a cell may differ (Excel).
 * Also the first quoting problem, if any; papaparse still returns its best reading of the rows.
 */
export function readCsvRows(
  text: string,
  delimiter: string,
): { rows: CsvRow[]; quoteError: CsvQuoteError | null } {
  const rows: CsvRow[] = [];
  const firstBreak = text.search(/\r\n|\n|\r/);
  const newline: "\r\n" | "\n" | "\r" =
    firstBreak < 0
      ? "\n"
      : text.startsWith("\r\n", firstBreak)
        ? "\r\n"
        : text[firstBreak] === "\r"
          ? "\r"
          : "\n";
  // Lines as an editor counts them: every line feed (or every carriage return in an old Mac file).
  const lineBreak = newline === "\r" ? "\r" : "\n";
  // Line of a character index, counted forward as the rows come (each row starts after the last).
  let counted = 0;
  let lineNo = 1;
  const lineAt = (index: number) => {
    for (let at = text.indexOf(lineBreak, counted); at !== -1 && at < index; ) {
      lineNo++;
      at = text.indexOf(lineBreak, at + 1);
    }
    counted = Math.max(counted, index);
    return lineNo;
  };
  let end = 0;
  let quoteError: CsvQuoteError | null = null;
  Papa.parse<string[]>(text, {
    header: false,
    delimiter,
    newline,
    skipEmptyLines: false,
    step(result) {
      const start = text.startsWith(newline, end) ? end + newline.length : end;
      const line = lineAt(start);
      end = result.meta.cursor;
      if (!quoteError) {
        const quote = result.errors.find((e) => e.type === "Quotes");
        if (quote) {
          const kind = quote.code === "MissingQuotes" ? "unclosed" : "stray";
          quoteError = { line, message: quote.message, kind };
        }
      }
      rows.push({ line, cells: result.data.map((c) => (c == null ? "" : String(c))) });
    },
  });
  return { rows, quoteError };
}
