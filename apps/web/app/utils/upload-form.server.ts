/**
 * The dashboard's file uploads (racers, results, portraits) read one way: a multipart post read
 * as it arrives, each part capped (a racer file also by its rows, counted while it streams), and
 * the uploaded file's name made safe to show and to record in the audit log. Heavy uploads (CSV
 * files read, checked and imported) run one at a time (docs/decisions/0150-abuse-proof-load.md).
 */
import { CSV_MAX_ROWS, createCsvByteRowCounter, createCsvRowCounter } from "@game/core";
import {
  MaxPartSizeExceededError,
  type UploadHandler,
  unstable_composeUploadHandlers,
  unstable_createMemoryUploadHandler,
  unstable_parseMultipartFormData,
} from "@remix-run/node";
import { BusyError, createWorkQueue } from "./work-queue.server";

/**
 * One CSV upload at a time in this process: ten 5 MB files posted together once held 270 MB and
 * made a visitor wait 13 s. The others are told to wait (503 with Retry-After) before a byte of
 * theirs is read.
 */
export const uploadWork = createWorkQueue({ concurrency: 1, maxWaiting: 0, typicalMs: 5000 });

export const UPLOAD_BUSY = "Another upload is being processed. Please wait a moment and try again.";

/** Runs `work` (reading and importing one upload) when no other upload runs; else BusyError. */
export function oneUploadAtATime<T>(work: () => Promise<T>): Promise<T> {
  return uploadWork.run(work);
}

export { BusyError };

/** A racer file's refusal once its rows pass CSV_MAX_ROWS, before the rest is read. */
export const TOO_MANY_ROWS = `The file has more than ${CSV_MAX_ROWS.toLocaleString("en-US")} rows; racer files are limited to ${CSV_MAX_ROWS.toLocaleString("en-US")} rows.`;

class TooManyRowsError extends Error {}

/**
 * The posted form, or why not: `too-big` when a part passes `maxPartSize` bytes,
 * `too-many-rows` when `maxRows` is given and the file part's CSV rows (counted as the bytes
 * arrive) pass it, `unreadable` when the body is not multipart (or is broken).
 */
export function readUploadForm(
  request: Request,
  maxPartSize: number,
): Promise<FormData | "too-big" | "unreadable">;
export function readUploadForm(
  request: Request,
  maxPartSize: number,
  opts: { maxRows: number },
): Promise<FormData | "too-big" | "too-many-rows" | "unreadable">;
export async function readUploadForm(
  request: Request,
  maxPartSize: number,
  opts: { maxRows?: number } = {},
): Promise<FormData | "too-big" | "too-many-rows" | "unreadable"> {
  const maxRows = opts.maxRows;
  const files: UploadHandler = async ({ name, filename, contentType, data }) => {
    if (!filename) return undefined;
    const counter = maxRows === undefined ? null : createCsvByteRowCounter();
    const chunks: Uint8Array<ArrayBuffer>[] = [];
    let size = 0;
    for await (const chunk of data as AsyncIterable<Uint8Array<ArrayBuffer>>) {
      size += chunk.byteLength;
      if (size > maxPartSize) throw new MaxPartSizeExceededError(name, maxPartSize);
      if (counter) {
        counter.push(chunk);
        if (counter.rows > maxRows!) throw new TooManyRowsError();
      }
      chunks.push(chunk);
    }
    // The last row (without a line break) and a file too short to have been counted yet.
    if (counter && counter.end() > maxRows!) throw new TooManyRowsError();
    return new File(chunks, filename, { type: contentType });
  };
  try {
    return await unstable_parseMultipartFormData(
      request,
      unstable_composeUploadHandlers(files, unstable_createMemoryUploadHandler({ maxPartSize })),
    );
  } catch (error) {
    if (error instanceof MaxPartSizeExceededError) return "too-big";
    if (error instanceof TooManyRowsError) return "too-many-rows";
    return "unreadable";
  }
}

/**
 * The rows of the CSV text in a JSON body's top-level string field `field` (the dashboard posts
 * `{ fileName, bytes, text }`), counted as the JSON arrives: `push` takes the body's text piece
 * by piece and returns the rows so far.
 */
export function createJsonCsvRowCounter(field: string) {
  const counter = createCsvRowCounter();
  let depth = 0;
  let inString = false;
  let escaped = false;
  let unicode = "";
  let expectKey = false;
  let afterColon = false;
  let token = "";
  let lastKey: string | null = null;
  /** Inside the wanted field's value: its characters go to the counter. */
  let counting = false;

  const char = (c: string) => {
    if (counting) counter.push(c);
    else if (depth === 1 && expectKey) token += c;
  };

  const ESCAPES: Record<string, string> = {
    '"': '"',
    "\\": "\\",
    "/": "/",
    b: "\b",
    f: "\f",
    n: "\n",
    r: "\r",
    t: "\t",
  };

  return {
    push(text: string): number {
      for (const c of text) {
        if (inString) {
          if (unicode) {
            unicode += c;
            if (unicode.length === 5) {
              char(String.fromCharCode(Number.parseInt(unicode.slice(1), 16)));
              unicode = "";
            }
          } else if (escaped) {
            escaped = false;
            if (c === "u") unicode = "u";
            else char(ESCAPES[c] ?? c);
          } else if (c === "\\") {
            escaped = true;
          } else if (c === '"') {
            inString = false;
            if (counting) counting = false;
            else if (depth === 1 && expectKey) {
              lastKey = token;
              expectKey = false;
            }
          } else {
            char(c);
          }
          continue;
        }
        if (c === '"') {
          inString = true;
          token = "";
          counting = depth === 1 && afterColon && lastKey === field;
          afterColon = false;
        } else if (c === "{" || c === "[") {
          depth++;
          afterColon = false;
          if (depth === 1) expectKey = c === "{";
        } else if (c === "}" || c === "]") {
          depth--;
        } else if (c === ":" && depth === 1) {
          afterColon = true;
        } else if (c === "," && depth === 1) {
          expectKey = true;
          lastKey = null;
        } else if (!/\s/.test(c)) {
          afterColon = false;
        }
      }
      return counter.rows;
    },
    get rows() {
      return counter.rows;
    },
  };
}

/**
 * An uploaded file's name (of a `File`, or as a script sent it), without path separators, at
 * most 120 characters; `fallback` when there is none.
 */
export function uploadFileName(file: unknown, fallback: string): string {
  const name = file instanceof File ? file.name : typeof file === "string" ? file : "";
  return name.replace(/[\\/]/g, "_").trim().slice(0, 120) || fallback;
}
