/**
 * Writing CSV that a spreadsheet opens safely, and reading it back unchanged (decision 0154).
 *
 * A text cell that starts with = + - @, a tab or a carriage return is a formula to Excel,
 * LibreOffice and Google Sheets ("CSV injection": `=HYPERLINK(...)`, `=cmd|' /C calc'!A0`). Every
 * CSV the project writes goes through `writeCsv`, which puts a single quote before such a cell
 * (OWASP's advice), and every CSV reader takes exactly that quote off again with
 * `unescapeCsvCell`, so export then import gives back the same text.
 *
 * Numbers are written as numbers, never quoted: a JavaScript number's digits ("-5", "1e+21")
 * cannot be a formula, and a negative number stays one a spreadsheet can add up.
 */
import Papa from "papaparse";

/**
 * Text a spreadsheet would evaluate, after any quotes already in front of it: a cell that really
 * starts with a quote before such a character gets one more, so the quote taken off on reading is
 * always the one added here.
 */
const EVALUATED = /^'*[=+\-@\t\r]/;

/** `text` as a cell a spreadsheet shows as text: a single quote before a formula's start. */
export function escapeCsvCell(text: string): string {
  return EVALUATED.test(text) ? `'${text}` : text;
}

/** A cell as `escapeCsvCell` wrote it, back to its text (any other cell is left as it is). */
export function unescapeCsvCell(cell: string): string {
  return cell.startsWith("'") && EVALUATED.test(cell.slice(1)) ? cell.slice(1) : cell;
}

export type CsvCell = string | number | null | undefined;

/**
 * A CSV file's text: the header, then one line per row, CRLF line ends, a UTF-8 BOM first (so
 * Excel reads accents right). Text cells go through escapeCsvCell; a cell with a comma, a quote
 * or a line break is quoted, and so is one with spaces at either end (readers trim cells). Null
 * and undefined are empty cells.
 */
export function writeCsv(fields: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  const text = (cell: CsvCell) =>
    cell == null ? "" : typeof cell === "number" ? cell : escapeCsvCell(cell);
  // Rows as arrays, the header first: with `fields` and no rows papaparse adds a blank line.
  const csv = Papa.unparse([fields.map(escapeCsvCell), ...rows.map((row) => row.map(text))], {
    newline: "\r\n",
    quotes: (v) => typeof v === "string" && /^\s|\s$/.test(v),
  });
  return `\uFEFF${csv}\r\n`;
}
