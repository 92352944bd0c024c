/**
 * The dashboard's racer upload, both ways in: JSON rows parsed by papaparse in the browser (the
 * enhanced form), or the CSV file itself in a plain multipart post (without JavaScript). Either
 * way the server re-validates every row with the same @game/core rules and imports through the
 * same service as `game-admin racers import`.
 */
import { CSV_MAX_BYTES, CSV_MAX_ROWS, EMPTY_FILE, NO_RACER_ROWS as NO_ROWS } from "@game/core";
import {
  checkCsvSize,
  importRacers,
  RacerImportError,
  type RacerImportSummary,
  webActor,
} from "@game/db";
import type { AppLoadContext } from "@remix-run/node";
import { logError } from "~/utils/log.server";
import {
  BusyError,
  createJsonCsvRowCounter,
  oneUploadAtATime,
  readUploadForm,
  TOO_MANY_ROWS,
  UPLOAD_BUSY,
  uploadFileName,
} from "~/utils/upload-form.server";
import { NO_DATA } from "./upload-messages";

type Admin = { id: number; email: string };

export type UploadResult =
  | { ok: true; fileName: string; summary: RacerImportSummary }
  | { ok: false; error: string; summary?: RacerImportSummary };

export interface UploadAnswer {
  result: UploadResult;
  status: number;
}

/** The rows as JSON weigh more than the CSV they came from: allow for that, no more. */
export const JSON_MAX_BYTES = CSV_MAX_BYTES * 3;

const TOO_BIG = `The upload is too large: racer files are limited to ${CSV_MAX_BYTES / (1024 * 1024)} MB.`;

function fail(error: string, status: number, summary?: RacerImportSummary): UploadAnswer {
  return { result: { ok: false, error, ...(summary ? { summary } : {}) }, status };
}

/**
 * Reads a request body as text, refusing it as soon as it passes `max` bytes (null), or as soon
 * as the CSV text in its `text` field passes CSV_MAX_ROWS rows ("too-many-rows").
 */
async function readCapped(request: Request, max: number): Promise<string | null | "too-many-rows"> {
  const declared = Number(request.headers.get("Content-Length"));
  if (Number.isFinite(declared) && declared > max) return null;
  if (!request.body) return "";
  const reader = request.body.getReader();
  const decoder = new TextDecoder();
  const rows = createJsonCsvRowCounter("text");
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      return null;
    }
    // Not cancelled: the answer goes out and the server closes the connection (body-limit.js).
    if (rows.push(decoder.decode(value, { stream: true })) > CSV_MAX_ROWS) return "too-many-rows";
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Runs one upload (reading its body included) when no other runs; told to wait otherwise
 * (docs/decisions/0150-abuse-proof-load.md).
 */
async function oneAtATime(work: () => Promise<UploadAnswer>): Promise<UploadAnswer> {
  try {
    return await oneUploadAtATime(work);
  } catch (error) {
    if (error instanceof BusyError) return fail(UPLOAD_BUSY, 503);
    throw error;
  }
}

async function runImport(
  context: AppLoadContext,
  admin: Admin,
  from: { csv: string | Uint8Array } | { records: unknown },
  fileName: string,
  dryRun = false,
): Promise<UploadAnswer> {
  try {
    const summary = await importRacers(context.db, {
      ...from,
      dryRun,
      actor: webActor(admin),
      source: fileName,
    });
    if (summary.rows === 0) return fail(NO_DATA, 400, summary);
    if (summary.created + summary.updated + summary.unchanged === 0) {
      return fail("None of the rows could be imported.", 400, summary);
    }
    return { result: { ok: true, fileName, summary }, status: 200 };
  } catch (error) {
    if (error instanceof RacerImportError) {
      // A file without data rows is the spec's "No data" case: its alert, then the reason.
      const noData = error.message === EMPTY_FILE || error.message === NO_ROWS;
      return fail(noData ? `${NO_DATA} ${error.message}` : error.message, 400);
    }
    logError("Racer upload failed", error);
    return fail("The database refused the upload.", 500);
  }
}

/**
 * `{ fileName, bytes, text, dryRun }` from the dashboard's script: the file's text as the browser
 * decoded it (with the same @game/core function the server uses), read again here. Older clients
 * send `records` (papaparse rows) instead of `text`. A dry run answers the preview's changes.
 */
export function uploadFromJson(
  request: Request,
  context: AppLoadContext,
  admin: Admin,
): Promise<UploadAnswer> {
  return oneAtATime(() => importJson(request, context, admin));
}

async function importJson(
  request: Request,
  context: AppLoadContext,
  admin: Admin,
): Promise<UploadAnswer> {
  const text = await readCapped(request, JSON_MAX_BYTES);
  if (text === null) return fail(TOO_BIG, 413);
  if (text === "too-many-rows") return fail(TOO_MANY_ROWS, 413);
  let body: {
    fileName?: unknown;
    bytes?: unknown;
    text?: unknown;
    records?: unknown;
    dryRun?: unknown;
  };
  try {
    body = JSON.parse(text);
  } catch {
    return fail("The upload could not be read.", 400);
  }
  if (body === null || typeof body !== "object") return fail("The upload could not be read.", 400);
  if (typeof body.bytes === "number") {
    try {
      checkCsvSize(body.bytes);
    } catch (error) {
      return fail((error as Error).message, 413);
    }
  }
  const from = typeof body.text === "string" ? { csv: body.text } : { records: body.records };
  return runImport(
    context,
    admin,
    from,
    uploadFileName(body.fileName, "upload.csv"),
    body.dryRun === true,
  );
}

/** A plain `multipart/form-data` post with the CSV file in `file` (no JavaScript). */
export function uploadFromForm(
  request: Request,
  context: AppLoadContext,
  admin: Admin,
): Promise<UploadAnswer> {
  return oneAtATime(() => importForm(request, context, admin));
}

async function importForm(
  request: Request,
  context: AppLoadContext,
  admin: Admin,
): Promise<UploadAnswer> {
  // The rows are counted as the file arrives: one over the limit ends the upload there.
  const form = await readUploadForm(request, CSV_MAX_BYTES, { maxRows: CSV_MAX_ROWS });
  if (form === "too-big") return fail(TOO_BIG, 413);
  if (form === "too-many-rows") return fail(TOO_MANY_ROWS, 413);
  if (form === "unreadable") return fail("The upload could not be read.", 400);
  const file = form.get("file");
  if (!(file instanceof Blob) || file.size === 0) return fail(NO_DATA, 400);
  // The bytes, not file.text(): the service detects the encoding (Excel's Windows-1252 too).
  const bytes = new Uint8Array(await file.arrayBuffer());
  return runImport(context, admin, { csv: bytes }, uploadFileName(file, "upload.csv"));
}

export function isJsonRequest(request: Request): boolean {
  return (request.headers.get("Content-Type") ?? "").toLowerCase().startsWith("application/json");
}
