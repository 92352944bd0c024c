/**
 * Saves the database cannot take right now: it is out of disk space (SQLSTATE 53100), memory
 * (53200) or connections (53300). The player is told to try again in a minute (503 with
 * Retry-After) instead of a generic error, and the admin gets one line naming what ran out and
 * what to do, at most once a minute per cause with a count of the saves refused in between
 * (docs/decisions/0150-abuse-proof-load.md).
 */
import { data, type ServerBuild } from "@remix-run/node";
import { logNotice } from "./log.server";

export const CANNOT_SAVE = "We cannot save right now, try again in a minute";
export const CANNOT_SAVE_RETRY_SECONDS = 60;

/** What ran out, and what an admin does about it, by SQLSTATE (class 53, insufficient resources). */
const SHORTAGES: Readonly<Record<string, { what: string; todo: string }>> = {
  "53000": {
    what: "is short of resources",
    todo: "check the database server's disk, memory and connection limits",
  },
  "53100": {
    what: "is out of disk space",
    todo: "free disk space on the database server or grow its volume",
  },
  "53200": {
    what: "is out of memory",
    todo: "check the database server's memory settings (work_mem, shared_buffers) and what else runs there",
  },
  "53300": {
    what: "has no connection left",
    todo: "raise max_connections or lower the app's connections (10 per process, times WEB_CONCURRENCY)",
  },
  "53400": {
    what: "hit a configured limit",
    todo: "check the database server's configured limits (e.g. max_locks_per_transaction)",
  },
};

export interface Shortage {
  code: string;
  what: string;
  todo: string;
}

/** The database's "insufficient resources" error in `error` or its causes (drizzle wraps it). */
export function shortageOf(error: unknown): Shortage | null {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && code in SHORTAGES) return { code, ...SHORTAGES[code]! };
    current = current instanceof Error ? current.cause : undefined;
  }
  return null;
}

const LOG_EVERY_MS = 60_000;
const lastLine = new Map<string, { at: number; refused: number }>();

/**
 * When `error` is a shortage: logs it (at most once a minute per cause) and returns true, so the
 * caller answers CANNOT_SAVE with 503. False for anything else (the caller throws it on).
 */
export function cannotSave(error: unknown, where: string, now = Date.now()): boolean {
  const shortage = shortageOf(error);
  if (!shortage) return false;
  const last = lastLine.get(shortage.code);
  if (last && now - last.at < LOG_EVERY_MS) {
    last.refused += 1;
    return true;
  }
  const since = last?.refused ? `; ${last.refused} more refused since the last line` : "";
  lastLine.set(shortage.code, { at: now, refused: 0 });
  logNotice(
    where,
    `saves refused: the database ${shortage.what} (SQLSTATE ${shortage.code}): ${shortage.todo}. Players are asked to try again in a minute${since}.`,
  );
  return true;
}

/** The answer to a save refused for a shortage, thrown from any action (root ErrorBoundary). */
export function cannotSaveResponse() {
  return data(
    { message: CANNOT_SAVE },
    { status: 503, headers: { "Retry-After": String(CANNOT_SAVE_RETRY_SECONDS) } },
  );
}

/**
 * Every route's action, guarded: a shortage anywhere in a form post becomes the 503 above
 * instead of a generic 500. server.js applies it to the build (features that can keep the
 * player's input, like the team builders, answer it themselves).
 */
export function guardActions(routes: ServerBuild["routes"]): ServerBuild["routes"] {
  return Object.fromEntries(
    Object.entries(routes).map(([id, route]) => {
      const action = route.module.action;
      if (!action) return [id, route];
      const guarded: typeof action = async (args) => {
        try {
          return await action(args);
        } catch (error) {
          const { method, url } = args.request;
          if (!cannotSave(error, `${method} ${new URL(url).pathname}`)) throw error;
          throw cannotSaveResponse();
        }
      };
      return [id, { ...route, module: { ...route.module, action: guarded } }];
    }),
  );
}
