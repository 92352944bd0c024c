// Environment, read and checked once at start-up: a bad value stops the server with a clear line.
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { resolveDataDir } from "@game/db";

/** @typedef {{ port: number, host: string, production: boolean, databaseUrl?: string, databaseReplicaUrl?: string, webConcurrency: number, dataDir: string, sessionSecret: string, smtpUrl?: string, publicUrl?: string, trustProxy: boolean | number | string, dbStartTimeoutMs: number }} Env */

/** @returns {Env} */
export function readEnv(env = process.env) {
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`PORT must be a port number, got "${env.PORT}"`);
  }
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new Error("DATABASE_URL must start with postgres:// or postgresql://");
  }
  const databaseReplicaUrl = env.DATABASE_REPLICA_URL || undefined;
  if (databaseReplicaUrl && !/^postgres(ql)?:\/\//.test(databaseReplicaUrl)) {
    throw new Error("DATABASE_REPLICA_URL must start with postgres:// or postgresql://");
  }
  if (databaseReplicaUrl && !databaseUrl) {
    throw new Error(
      "DATABASE_REPLICA_URL needs DATABASE_URL: a replica is of a PostgreSQL primary, not of the embedded database",
    );
  }
  const webConcurrency = Number(env.WEB_CONCURRENCY || 1);
  if (!Number.isInteger(webConcurrency) || webConcurrency < 1 || webConcurrency > 256) {
    throw new Error(
      `WEB_CONCURRENCY must be a number of processes from 1 to 256, got "${env.WEB_CONCURRENCY}"`,
    );
  }
  const smtpUrl = env.SMTP_URL || undefined;
  if (smtpUrl && !/^smtps?:\/\//.test(smtpUrl)) {
    throw new Error("SMTP_URL must start with smtp:// or smtps://");
  }
  const publicUrl = env.PUBLIC_URL || undefined;
  if (publicUrl && !isHttpUrl(publicUrl)) {
    throw new Error(`PUBLIC_URL must be an http:// or https:// address, got "${publicUrl}"`);
  }
  const startTimeout = Number(env.DATABASE_START_TIMEOUT ?? 30);
  if (!Number.isFinite(startTimeout) || startTimeout < 0) {
    throw new Error(
      `DATABASE_START_TIMEOUT must be a number of seconds, got "${env.DATABASE_START_TIMEOUT}"`,
    );
  }
  const dataDir = resolveDataDir(env);
  return {
    port,
    host: env.HOST || "0.0.0.0",
    production: env.NODE_ENV === "production",
    databaseUrl,
    databaseReplicaUrl,
    webConcurrency,
    dataDir,
    sessionSecret: env.SESSION_SECRET || generatedSecret(dataDir),
    smtpUrl,
    publicUrl,
    trustProxy: readTrustProxy(env.TRUST_PROXY),
    dbStartTimeoutMs: startTimeout * 1000,
  };
}

function isHttpUrl(value) {
  try {
    const u = new URL(value);
    return (u.protocol === "http:" || u.protocol === "https:") && u.hostname !== "";
  } catch {
    return false;
  }
}

/**
 * Express's `trust proxy`: off by default (the client IP is the socket's); behind a reverse proxy
 * set TRUST_PROXY to the number of proxies, `true`, or their addresses ("loopback, 10.0.0.0/8"),
 * so rate limits see the player's IP and https is recognised.
 */
function readTrustProxy(value) {
  if (value === undefined || value === "" || value === "false") return false;
  if (value === "true") return true;
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}

/** The embedded default keeps a generated secret in the data folder, so sessions survive restarts. */
function generatedSecret(dataDir) {
  const file = path.join(dataDir, "session-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const secret = randomBytes(32).toString("hex");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
