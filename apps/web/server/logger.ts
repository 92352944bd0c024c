// Structured logs (pino): in production one JSON line per request and per error, each with the
// request's id; never cookies, headers, query strings, e-mail addresses or SQL parameters
// (docs/decisions/0073 and 0136-metrics-and-logs.md).

import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Request, Response } from "express";
import pino, { type DestinationStream, type Logger, type LoggerOptions } from "pino";
import { type HttpLogger, pinoHttp } from "pino-http";

/** An id a client or proxy may hand us: short, plain characters only; anything else is replaced. */
const GOOD_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * The process's logger: JSON lines on stdout in production; in development only warnings and
 * errors, as JSON too (the server's own start lines stay plain console lines).
 */
export function createLogger({
  production,
  destination,
}: {
  production: boolean;
  destination?: DestinationStream;
}): Logger {
  const options: LoggerOptions = {
    level: production ? "info" : "warn",
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    // Nothing logged may carry these, whatever a caller passes by mistake.
    redact: {
      paths: ["req.headers", "headers", "cookie", "email", "password", "params"],
      remove: true,
    },
  };
  return destination ? pino(options, destination) : pino(options);
}

/** The request's id: the `X-Request-Id` it came with when sane, else a new one. */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers["x-request-id"];
  return typeof given === "string" && GOOD_ID.test(given) ? given : randomUUID();
}

/**
 * Express middleware: gives every request an id (kept from `X-Request-Id`, else new), returns it
 * as `X-Request-Id`, hands it on to Remix (the request header), and in production logs one line
 * per answer: method, route (the label of the metrics, never the raw URL: paths and queries
 * carry join codes and tokens), status, time and id.
 */
export function requestLogger(
  logger: Logger,
  {
    production,
    routeOf,
  }: { production: boolean; routeOf: (req: Request, res: Response) => string },
): HttpLogger<Request, Response> {
  return pinoHttp<Request, Response>({
    logger,
    autoLogging: production,
    quietReqLogger: true,
    genReqId: (req, res) => {
      const id = requestIdOf(req);
      // Remix code (error logs) reads it from the request it is handed.
      req.headers["x-request-id"] = id;
      res.setHeader("X-Request-Id", id);
      return id;
    },
    customAttributeKeys: { reqId: "requestId", responseTime: "ms" },
    serializers: {
      req: () => undefined,
      res: () => undefined,
      err: () => undefined,
    },
    wrapSerializers: false,
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? "error" : "info"),
    customSuccessMessage: () => "request",
    customErrorMessage: () => "request",
    customSuccessObject: (req, res, value) => ({
      method: req.method,
      route: routeOf(req, res),
      status: res.statusCode,
      ms: value.ms,
    }),
    customErrorObject: (req, res, _error, value) => ({
      method: req.method,
      route: routeOf(req, res),
      status: res.statusCode,
      ms: value.ms,
    }),
  });
}
