// Environment, parsed once at start-up by one zod schema: a bad value stops the server with a clear
// line naming the variable.
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { resolveDataDir } from "@game/db";
import { z } from "zod";
import { METRICS_ENV_VARS } from "./metrics.js";

/** The server's settings, read from its environment once at start. */
export interface Env {
  port: number;
  host: string;
  production: boolean;
  databaseUrl?: string | undefined;
  databaseReplicaUrl?: string | undefined;
  webConcurrency: number;
  dataDir: string;
  sessionSecret: string;
  smtpUrl?: string | undefined;
  publicUrl?: string | undefined;
  trustProxy: false | number;
  dbStartTimeoutMs: number;
  /** Live score streams (docs/decisions/0171): at most this many open on one process... */
  liveMaxStreams: number;
  /** ...and this many from one address (a visitor's tabs), so no one visitor takes them all. */
  liveStreamsPerIp: number;
}

/**
 * A number read from a variable's text (`fallback` when unset; also when empty if
 * `emptyIsUnset`), or the message naming the variable, what it must be and what it got.
 */
const numberVar = (
  name: string,
  { fallback, emptyIsUnset = false }: { fallback: number; emptyIsUnset?: boolean },
  isValid: (n: number) => boolean,
  what: string,
) =>
  z
    .string()
    .optional()
    .transform((text, ctx) => {
      const n = Number(text === undefined || (emptyIsUnset && text === "") ? fallback : text);
      if (isValid(n)) return n;
      ctx.addIssue({ code: "custom", message: `${name} must be ${what}, got "${text}"` });
      return z.NEVER;
    });

/** An optional URL variable (empty is unset) whose text must pass `isValid`. */
const urlVar = (isValid: (url: string) => boolean, message: string) =>
  z
    .string()
    .optional()
    .transform((text) => text || undefined)
    .refine((url) => url === undefined || isValid(url), { error: message });

const isPostgresUrl = (url: string) => /^postgres(ql)?:\/\//.test(url);

/** The variables the server reads, checked in this order; the first problem stops the start. */
const envSchema = z
  .object({
    PORT: numberVar(
      "PORT",
      { fallback: 3000 },
      (n) => Number.isInteger(n) && n >= 0 && n <= 65535,
      "a port number",
    ),
    DATABASE_URL: urlVar(
      isPostgresUrl,
      "DATABASE_URL must start with postgres:// or postgresql://",
    ),
    DATABASE_REPLICA_URL: urlVar(
      isPostgresUrl,
      "DATABASE_REPLICA_URL must start with postgres:// or postgresql://",
    ),
    WEB_CONCURRENCY: numberVar(
      "WEB_CONCURRENCY",
      { fallback: 1, emptyIsUnset: true },
      (n) => Number.isInteger(n) && n >= 1 && n <= 256,
      "a number of processes from 1 to 256",
    ),
    SMTP_URL: urlVar(
      (url) => /^smtps?:\/\//.test(url),
      "SMTP_URL must start with smtp:// or smtps://",
    ),
    PUBLIC_URL: z
      .string()
      .optional()
      .transform((text) => text || undefined)
      .refine((url) => url === undefined || isHttpUrl(url), {
        error: (issue) => `PUBLIC_URL must be an http:// or https:// address, got "${issue.input}"`,
      }),
    DATABASE_START_TIMEOUT: numberVar(
      "DATABASE_START_TIMEOUT",
      { fallback: 30 },
      (n) => Number.isFinite(n) && n >= 0,
      "a number of seconds",
    ),
    LIVE_MAX_STREAMS: numberVar(
      "LIVE_MAX_STREAMS",
      { fallback: 20_000, emptyIsUnset: true },
      (n) => Number.isInteger(n) && n >= 0,
      "a number of streams",
    ),
    LIVE_STREAMS_PER_IP: numberVar(
      "LIVE_STREAMS_PER_IP",
      { fallback: 20, emptyIsUnset: true },
      (n) => Number.isInteger(n) && n >= 1,
      "a number of streams of at least 1",
    ),
    HOST: z.string().optional(),
    NODE_ENV: z.string().optional(),
    SESSION_SECRET: z.string().optional(),
    TRUST_PROXY: z.string().optional().transform(readTrustProxy),
  })
  .refine((v) => !v.DATABASE_REPLICA_URL || v.DATABASE_URL, {
    error:
      "DATABASE_REPLICA_URL needs DATABASE_URL: a replica is of a PostgreSQL primary, not of the embedded database",
  });

/**
 * Every variable the server reads: those above, DATA_DIR (read by @game/db) and the metrics
 * port's (metrics.ts). What the deploy examples may set (server/deploy-files.test.ts).
 */
export const SERVER_ENV_VARS: readonly string[] = [
  ...Object.keys(envSchema.shape),
  "DATA_DIR",
  ...METRICS_ENV_VARS,
];

export function readEnv(env: NodeJS.ProcessEnv = process.env): Env {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) throw new Error(parsed.error.issues[0]?.message);
  const v = parsed.data;
  const dataDir = resolveDataDir(env);
  return {
    port: v.PORT,
    host: v.HOST || "0.0.0.0",
    production: v.NODE_ENV === "production",
    databaseUrl: v.DATABASE_URL,
    databaseReplicaUrl: v.DATABASE_REPLICA_URL,
    webConcurrency: v.WEB_CONCURRENCY,
    dataDir,
    sessionSecret: v.SESSION_SECRET || generatedSecret(dataDir),
    smtpUrl: v.SMTP_URL,
    publicUrl: v.PUBLIC_URL,
    trustProxy: v.TRUST_PROXY,
    dbStartTimeoutMs: v.DATABASE_START_TIMEOUT * 1000,
    liveMaxStreams: v.LIVE_MAX_STREAMS,
    liveStreamsPerIp: v.LIVE_STREAMS_PER_IP,
  };
}

function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return (u.protocol === "http:" || u.protocol === "https:") && u.hostname !== "";
  } catch {
    return false;
  }
}

/** More proxies than any deployment chains: a bigger number is a typo. */
const MAX_PROXY_HOPS = 10;

/**
 * Express's `trust proxy`, as a number of hops: the client's address is the one that many
 * entries from the right of X-Forwarded-For, where the proxies in front of the app appended it.
 * Off (the socket's address) by default. `true` would take the leftmost entry, which the client
 * writes itself: every per-IP limit could be skipped, so it is refused with what to set instead
 * (docs/decisions/0153-proxies-origins-and-redirects.md).
 */
function readTrustProxy(value: string | undefined, ctx: z.RefinementCtx): false | number {
  const text = (value ?? "").trim();
  if (text === "" || text.toLowerCase() === "false") return false;
  if (/^\d+$/.test(text) && Number(text) <= MAX_PROXY_HOPS) return Number(text) || false;
  ctx.addIssue({
    code: "custom",
    message:
      text.toLowerCase() === "true"
        ? `TRUST_PROXY=true would believe any X-Forwarded-For a client writes, so every per-IP limit could be skipped: set TRUST_PROXY to the number of proxies in front of the app (TRUST_PROXY=1 behind one nginx or load balancer)`
        : `TRUST_PROXY must be the number of proxies in front of the app (TRUST_PROXY=1 behind one nginx or load balancer), got "${value}"`,
  });
  return z.NEVER;
}

/** The embedded default keeps a generated secret in the data folder, so sessions survive restarts. */
function generatedSecret(dataDir: string): string {
  const file = path.join(dataDir, "session-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const secret = randomBytes(32).toString("hex");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
