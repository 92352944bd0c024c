import type { Db, RankingVersions, UserRow } from "@game/db";

/** What loaders and actions count and time for `/metrics` (docs/decisions/0136). */
export interface AppMetrics {
  /** A team save kept (null) or refused for `reason`. */
  teamSave(reason: string | null): void;
  /** Runs `fn`, recording its duration as `job` (settle, season_advance). */
  timeJob<T>(job: string, fn: () => Promise<T>): Promise<T>;
}

/** Times `fn` as `job` when the server collects metrics (tests often do not). */
export function timed<T>(
  context: { metrics?: AppMetrics },
  job: string,
  fn: () => Promise<T>,
): Promise<T> {
  return context.metrics ? context.metrics.timeJob(job, fn) : fn();
}

/** What the server hands every loader and action (see server.js). */
export interface AppEnv {
  port: number;
  host: string;
  production: boolean;
  databaseUrl?: string;
  dataDir: string;
  sessionSecret: string;
  smtpUrl?: string;
  publicUrl?: string;
  /** Express's `trust proxy` setting (TRUST_PROXY): the number of proxies in front, or off. */
  trustProxy?: false | number;
}

declare module "@remix-run/node" {
  interface AppLoadContext {
    /** The primary: writes, and a signed-in player's own data (their team, leagues, greeting). */
    db: Db;
    /**
     * Public read-only pages (rankings, racers, events, the public API, player and racer pages):
     * a streaming replica when DATABASE_REPLICA_URL is set, else the primary. It may lag a
     * moment behind, so never read what the viewer has just written from here (ADR 0131).
     */
    readDb: Db;
    dbKind: "pglite" | "postgres";
    env: AppEnv;
    /** The clock: injected so lock-time rules can be tested at exact boundaries. */
    now(): Date;
    /** The caller's IP as Express sees it (honours TRUST_PROXY), for rate limits. */
    clientIp?: string;
    /** This request's Content-Security-Policy nonce, for the inline scripts Remix renders. */
    cspNonce?: string;
    /**
     * A page request's (GET/HEAD) session lookup, shared by its loaders (the root's and the
     * page's run side by side): one query instead of one per loader. Absent for actions, whose
     * loaders must see what the action did to the session, and in hand-built test contexts.
     */
    viewer?: { user?: Promise<UserRow | null> };
    /** The ranking versions (at most a second old): what ranking caches and ETags key on. */
    rankingVersions?: () => Promise<RankingVersions>;
    /** Names the running build, so an ETag never outlives a deploy. */
    buildVersion?: () => string;
    /** The process's metrics (server/metrics.js): team saves, settlement times. */
    metrics?: AppMetrics;
    /** Runs `fn` at shutdown, after requests in flight and before the database closes. */
    onClose?(fn: () => Promise<void>): void;
    /**
     * Calls `start` once this request's response is sent (the server's; utils/after-response
     * falls back to the next turn of the event loop without it).
     */
    afterResponse?(start: () => void): void;
  }
}
