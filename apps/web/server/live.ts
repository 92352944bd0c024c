// Live scores on race day (docs/decisions/0171): `GET /api/v1/events/:id/live`, a Server-Sent
// Events stream per viewer, all fed by ONE read of the followed rounds' state per process per
// tick. Any commit on the shared database (the CLI, another process, another machine) reaches
// every viewer at the next tick; nothing is pushed between processes.
import type { LiveRoundState } from "@game/db";
import type { Request, RequestHandler, Response } from "express";

export const LIVE_PATH = /^\/api\/v1\/events\/([^/]+)\/live\/?$/;

/**
 * New streams one address may open a minute: a page reconnects every few seconds at worst
 * (`retry: 5000`), so this only stops a client that hammers the endpoint (each unknown round
 * costs a read of the database).
 */
export const LIVE_OPENS_PER_MINUTE = 60;

export interface LiveHubOptions {
  /** The state of the rounds asked for (one query): `liveRoundStates`. */
  read: (eventIds: number[]) => Promise<LiveRoundState[]>;
  /** How often the followed rounds are read. */
  intervalMs?: number;
  /** A comment line this often keeps proxies from closing an idle stream. */
  heartbeatMs?: number;
  maxStreams: number;
  perIp: number;
  /** New streams an address may open a minute (LIVE_OPENS_PER_MINUTE by default). */
  opensPerMinute?: number;
  /** Where a failed read is reported (the stream carries on at the next tick). */
  onError?: (error: unknown) => void;
}

export interface LiveHub {
  handler: RequestHandler;
  /** Streams open now. */
  streams(): number;
  /** Ends every stream and stops reading: at shutdown, before the server drains. */
  close(): void;
}

interface Round {
  streams: Set<Response>;
  state: LiveRoundState | null;
}

const message = (state: LiveRoundState) => `event: scores\ndata: ${JSON.stringify(state)}\n\n`;

/**
 * The hub's limits: streams in all, per address, and new streams an address may open a minute.
 * `admit` counts a stream before anything is read, so a burst cannot pass the limits while it
 * waits; its `release` (idempotent) gives the place back.
 */
function streamLimits(opts: LiveHubOptions) {
  const byIp = new Map<string, number>();
  let open = 0;
  // Opens per address in the current minute (cleared each minute: bounded by the addresses seen).
  let opens = new Map<string, number>();
  const minute = setInterval(() => {
    opens = new Map();
  }, 60_000);
  minute.unref();
  return {
    count: () => open,
    stop: () => clearInterval(minute),
    admit(ip: string): { release: () => void } | "busy" | "too-many" {
      if (open >= opts.maxStreams) return "busy";
      const opened = (opens.get(ip) ?? 0) + 1;
      opens.set(ip, opened);
      if (
        (byIp.get(ip) ?? 0) >= opts.perIp ||
        opened > (opts.opensPerMinute ?? LIVE_OPENS_PER_MINUTE)
      ) {
        return "too-many";
      }
      open += 1;
      byIp.set(ip, (byIp.get(ip) ?? 0) + 1);
      let counted = true;
      return {
        release() {
          if (!counted) return;
          counted = false;
          open -= 1;
          const left = (byIp.get(ip) ?? 1) - 1;
          if (left > 0) byIp.set(ip, left);
          else byIp.delete(ip);
        },
      };
    },
  };
}

function refuse(res: Response, status: number, code: string, text: string, retry?: number) {
  res.status(status).set({ "Cache-Control": "no-store", "Access-Control-Allow-Origin": "*" });
  if (retry !== undefined) res.set("Retry-After", String(retry));
  res.json({ error: { code, message: text } });
}

/**
 * Starts a viewer's stream with the round's current state (a page compares it with the version
 * it was rendered at). Returns whether the viewer follows the round: not when the round is not
 * live (before its lock, or final: nothing will come) or for HEAD.
 */
function startStream(req: Request, res: Response, state: LiveRoundState): boolean {
  res.writeHead(200, {
    "Content-Type": "text/event-stream; charset=utf-8",
    "Cache-Control": "no-store",
    Connection: "keep-alive",
    // Proxies (nginx) must pass each event on at once, not buffer the stream.
    "X-Accel-Buffering": "no",
    "Access-Control-Allow-Origin": "*",
  });
  res.write(`retry: 5000\n\n${message(state)}`);
  if (!state.live || req.method === "HEAD") {
    res.end();
    return false;
  }
  return true;
}

export function liveHub(opts: LiveHubOptions): LiveHub {
  const intervalMs = opts.intervalMs ?? 1000;
  const rounds = new Map<number, Round>();
  const limits = streamLimits(opts);
  let closed = false;
  let reading = false;

  function broadcast(round: Round, state: LiveRoundState) {
    const text = message(state);
    // A round no longer live (final) has nothing more to say: its viewers stop following it
    // (the last event and the end in one call: one write per stream, not two).
    for (const res of round.streams) {
      if (state.live) res.write(text);
      else res.end(text);
    }
  }

  async function tick() {
    if (reading || rounds.size === 0) return;
    reading = true;
    try {
      const states = await opts.read([...rounds.keys()]);
      for (const state of states) {
        const round = rounds.get(state.eventId);
        if (!round) continue;
        const changed =
          round.state !== null &&
          (round.state.version !== state.version || round.state.live !== state.live);
        round.state = state;
        if (changed) broadcast(round, state);
      }
    } catch (error) {
      opts.onError?.(error);
    } finally {
      reading = false;
    }
  }
  const timer = setInterval(() => void tick(), intervalMs);
  timer.unref();
  const heartbeat = setInterval(() => {
    for (const round of rounds.values()) for (const res of round.streams) res.write(": ping\n\n");
  }, opts.heartbeatMs ?? 25_000);
  heartbeat.unref();

  /** The round's state: what the last tick read, else read now (one read for a burst of viewers). */
  const pending = new Map<number, Promise<LiveRoundState | undefined>>();
  function stateOf(eventId: number): Promise<LiveRoundState | undefined> {
    const known = rounds.get(eventId)?.state;
    if (known) return Promise.resolve(known);
    let p = pending.get(eventId);
    if (!p) {
      p = opts.read([eventId]).then(([state]) => state);
      p.finally(() => pending.delete(eventId)).catch(() => {});
      pending.set(eventId, p);
    }
    return p;
  }

  /** The viewer follows the round: its updates come with the ticks until it ends or leaves. */
  function follow(id: number, res: Response, state: LiveRoundState) {
    let round = rounds.get(id);
    if (!round) {
      round = { streams: new Set(), state };
      rounds.set(id, round);
    } else if (round.state && round.state.version !== state.version) {
      // A tick moved on while this viewer's first read was in flight.
      res.write(message(round.state));
    }
    const followed = round;
    followed.streams.add(res);
    res.on("close", () => {
      followed.streams.delete(res);
      if (followed.streams.size === 0 && rounds.get(id) === followed) rounds.delete(id);
    });
  }

  const handler: RequestHandler = (req: Request, res: Response, next) => {
    const match = LIVE_PATH.exec(req.path);
    if (!match) return next();
    if (req.method === "OPTIONS") {
      res.set({ "Access-Control-Allow-Origin": "*", "Access-Control-Max-Age": "86400" });
      res.status(204).end();
      return;
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.set("Allow", "GET");
      return refuse(res, 405, "method_not_allowed", "Use GET: this is an event stream.");
    }
    const id = /^\d{1,9}$/.test(match[1]!) ? Number(match[1]) : 0;
    if (id < 1) return refuse(res, 400, "bad_request", "id must be a positive whole number.");
    if (closed) return refuse(res, 503, "stopping", "The server is restarting.", 5);
    const admitted = limits.admit(req.ip ?? "");
    if (admitted === "busy") {
      return refuse(res, 503, "busy", "Too many live viewers on this server: try again.", 10);
    }
    if (admitted === "too-many") {
      return refuse(res, 429, "too_many_streams", "Too many live streams from your address.", 30);
    }
    const { release } = admitted;
    res.on("close", release);
    stateOf(id).then(
      (state) => {
        if (res.destroyed || closed) return release();
        if (!state) {
          release();
          return refuse(res, 404, "event_not_found", `There is no event ${id}.`);
        }
        if (startStream(req, res, state)) follow(id, res, state);
      },
      (error) => {
        release();
        opts.onError?.(error);
        if (!res.headersSent) refuse(res, 503, "unavailable", "Live scores are unavailable.", 5);
        else res.end();
      },
    );
  };

  return {
    handler,
    streams: () => limits.count(),
    close() {
      closed = true;
      clearInterval(timer);
      clearInterval(heartbeat);
      limits.stop();
      for (const round of rounds.values()) for (const res of round.streams) res.end();
      rounds.clear();
    },
  };
}
