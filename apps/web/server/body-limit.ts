// Request body limits, enforced before anything reads a body (Remix, the sign-in check, an action):
// a declared Content-Length over the limit is refused without reading a byte; a streamed body
// (no Content-Length) is counted as it arrives and refused the moment it passes the limit.

import type { IncomingMessage, ServerResponse } from "node:http";
import { CSV_MAX_BYTES } from "@game/core";
import type { ErrorRequestHandler, Request, RequestHandler, Response } from "express";

export const FORM_MAX_BYTES = 64 * 1024;
/** A CSV file in a multipart post: the file, plus room for the form's framing and fields. */
export const UPLOAD_MAX_BYTES = CSV_MAX_BYTES + FORM_MAX_BYTES;
/** The dashboard's script posts the parsed rows as JSON, which weighs more than the CSV. */
export const UPLOAD_JSON_MAX_BYTES = CSV_MAX_BYTES * 3;

/**
 * The pages whose actions take an upload: a CSV file (the admin dashboard, racers and results),
 * or racer portraits (images up to the same 5 MB in all per post).
 */
const UPLOAD_PATHS = new Set(["/admin", "/admin/racers", "/admin/results", "/admin/portraits"]);

/** `POST /api/v1/admin/events/:id/results`. */
const RESULTS_PUSH_PATH = /^\/api\/v1\/admin\/events\/[^/]+\/results$/;

export const TOO_LARGE = "The request is too large.";

/** The page a request is for: Remix data requests (`/admin.data`, `/_root.data`) count as their page. */
export function pagePath(pathname: string): string {
  if (pathname === "/_root.data") return "/";
  return pathname.endsWith(".data") ? pathname.slice(0, -".data".length) : pathname;
}

/**
 * The most bytes a request may carry.
 */
export function bodyLimitFor({
  path,
  contentType = "",
}: {
  path: string;
  contentType?: string | undefined;
}): number {
  const page = pagePath(path).replace(/\/+$/, "") || "/";
  // A timing system's push (docs/decisions/0171): a results file's size, as CSV or JSON.
  if (RESULTS_PUSH_PATH.test(page)) {
    return /^application\/json\b/i.test(contentType) ? UPLOAD_JSON_MAX_BYTES : CSV_MAX_BYTES;
  }
  if (!UPLOAD_PATHS.has(page)) return FORM_MAX_BYTES;
  return /^application\/json\b/i.test(contentType) ? UPLOAD_JSON_MAX_BYTES : UPLOAD_MAX_BYTES;
}

/** The error a reader of an over-long streamed body sees (the client has its 413 already). */
export class BodyTooLargeError extends Error {
  readonly status = 413;
  constructor() {
    super(TOO_LARGE);
    this.name = "BodyTooLargeError";
  }
}

function refuse(res: Response): void {
  if (res.headersSent) return;
  // Closing tells the client to stop; Node closes the connection once the 413 is out, and
  // whatever the client still sends is dropped unread.
  res.set("Connection", "close");
  res.status(413).type("text/plain").send(TOO_LARGE);
}

/**
 * Express middleware: 413 for bodies over their limit, before any handler reads them.
 */
export function bodyLimit(options: { limitFor?: typeof bodyLimitFor } = {}): RequestHandler {
  const limitFor = options.limitFor ?? bodyLimitFor;
  return (req, res, next) => {
    closeIfAnsweredEarly(req, res);
    const limit = limitFor({ path: req.path, contentType: req.get("content-type") });
    const declared = req.get("content-length");
    if (declared !== undefined) {
      // Node's parser has already refused a malformed Content-Length; the body cannot be longer.
      if (Number(declared) > limit) return refuse(res);
      return next();
    }
    if (req.get("transfer-encoding") === undefined) return next();
    // A streamed body: count the bytes the parser hands over, before any reader sees them.
    let seen = 0;
    let refused = false;
    const push = req.push;
    req.push = function countedPush(
      this: IncomingMessage,
      chunk: unknown,
      encoding?: BufferEncoding,
    ): boolean {
      // After a refusal nothing more reaches a reader, not even the end: it must never take a
      // truncated body for a whole one.
      if (refused) return true;
      if (chunk !== null && chunk !== undefined) {
        seen += typeof chunk === "string" ? Buffer.byteLength(chunk) : (chunk as Uint8Array).length;
        if (seen > limit) {
          refused = true;
          refuse(res);
          // Whoever reads the body fails instead of acting on part of it; the rest is dropped.
          // (Past Node's small read buffer there is always a reader listening, so it hears this.)
          if (this.listenerCount("error") > 0) this.emit("error", new BodyTooLargeError());
          return true;
        }
      }
      return push.call(this, chunk, encoding);
    };
    next();
  };
}

/**
 * An answer sent before the request's body has all arrived (an upload refused at its 20,001st
 * row, or told to wait for another: decision 0150) closes the connection once it is out, so the
 * rest of the body is dropped unread instead of held in a paused connection.
 */
function closeIfAnsweredEarly(req: Request, res: Response): void {
  const writeHead = res.writeHead;
  // writeHead's overloads (status, message?, headers?) are passed on as they came.
  res.writeHead = function writeHeadClosingEarly(this: ServerResponse, ...args: unknown[]) {
    if (!req.complete) this.setHeader("Connection", "close");
    return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as typeof res.writeHead;
}

/**
 * The last Express error handler: after a 413 (or a client gone away) a late error from the
 * handler that was reading the body has nobody to answer; anything else is answered as a 500
 * without details, logged in one line.
 */
export function lateErrors(): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    if (res.headersSent || error instanceof BodyTooLargeError) {
      if (!res.writableEnded) res.end();
      return;
    }
    console.error(
      `Request failed: ${req.method} ${req.path}: ${(error as { name?: unknown } | null | undefined)?.name ?? "Error"}`,
    );
    res.status(500).type("text/plain").send("Something went wrong on our side.");
  };
}
