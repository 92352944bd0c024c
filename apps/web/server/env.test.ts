import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type Env, readEnv as readProcessEnv } from "./env.js";

/**
 * `readEnv` on just these variables. Node's environment type always has NODE_ENV (Remix declares
 * it): "test" here, as vitest sets it, which reads as not production, as no NODE_ENV does.
 */
const readEnv = (vars: Record<string, string>): Env =>
  readProcessEnv({ NODE_ENV: "test", ...vars });

const dir = mkdtempSync(path.join(tmpdir(), "gf-env-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("readEnv", () => {
  it("defaults to port 3000 and the embedded database", () => {
    const env = readEnv({ DATA_DIR: dir });
    expect(env.port).toBe(3000);
    expect(env.databaseUrl).toBeUndefined();
    expect(env.dataDir).toBe(path.resolve(dir));
  });

  it("generates a session secret once and keeps it in the data folder", () => {
    const a = readEnv({ DATA_DIR: dir }).sessionSecret;
    const b = readEnv({ DATA_DIR: dir }).sessionSecret;
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(b).toBe(a);
    expect(readFileSync(path.join(dir, "session-secret"), "utf8")).toBe(a);
  });

  it("prefers SESSION_SECRET from the environment", () => {
    expect(readEnv({ DATA_DIR: dir, SESSION_SECRET: "s3cret" }).sessionSecret).toBe("s3cret");
  });

  it("reads TRUST_PROXY as off or the number of proxies in front of the app", () => {
    expect(readEnv({ DATA_DIR: dir }).trustProxy).toBe(false);
    expect(readEnv({ DATA_DIR: dir, TRUST_PROXY: "" }).trustProxy).toBe(false);
    expect(readEnv({ DATA_DIR: dir, TRUST_PROXY: "false" }).trustProxy).toBe(false);
    expect(readEnv({ DATA_DIR: dir, TRUST_PROXY: "0" }).trustProxy).toBe(false);
    expect(readEnv({ DATA_DIR: dir, TRUST_PROXY: "1" }).trustProxy).toBe(1);
    expect(readEnv({ DATA_DIR: dir, TRUST_PROXY: "2" }).trustProxy).toBe(2);
  });

  it("refuses TRUST_PROXY=true, which lets a client write its own address, saying what to set", () => {
    for (const value of ["true", "TRUE", " True "]) {
      expect(() => readEnv({ DATA_DIR: dir, TRUST_PROXY: value })).toThrow(
        /^TRUST_PROXY=true would believe any X-Forwarded-For a client writes.*: set TRUST_PROXY to the number of proxies in front of the app \(TRUST_PROXY=1 behind one nginx or load balancer\)$/,
      );
    }
    // Anything else that is not a number of hops is refused the same way.
    for (const value of ["yes", "loopback, 10.0.0.0/8", "-1", "1.5", "99"]) {
      expect(() => readEnv({ DATA_DIR: dir, TRUST_PROXY: value })).toThrow(
        `TRUST_PROXY must be the number of proxies in front of the app (TRUST_PROXY=1 behind one nginx or load balancer), got "${value}"`,
      );
    }
  });

  it("reads WEB_CONCURRENCY as a number of processes (default 1)", () => {
    expect(readEnv({ DATA_DIR: dir }).webConcurrency).toBe(1);
    expect(readEnv({ DATA_DIR: dir, WEB_CONCURRENCY: "4" }).webConcurrency).toBe(4);
    for (const bad of ["0", "-1", "two", "1.5", "1000"]) {
      expect(() => readEnv({ DATA_DIR: dir, WEB_CONCURRENCY: bad })).toThrow(/WEB_CONCURRENCY/);
    }
  });

  it("takes a PostgreSQL DATABASE_REPLICA_URL, only beside DATABASE_URL", () => {
    const primary = "postgres://app@db:5432/game";
    const replica = "postgresql://app@replica:5432/game";
    expect(
      readEnv({ DATA_DIR: dir, DATABASE_URL: primary, DATABASE_REPLICA_URL: replica })
        .databaseReplicaUrl,
    ).toBe(replica);
    expect(readEnv({ DATA_DIR: dir, DATABASE_URL: primary }).databaseReplicaUrl).toBeUndefined();
    expect(() =>
      readEnv({ DATA_DIR: dir, DATABASE_URL: primary, DATABASE_REPLICA_URL: "mysql://x/y" }),
    ).toThrow(/DATABASE_REPLICA_URL must start with postgres/);
    expect(() => readEnv({ DATA_DIR: dir, DATABASE_REPLICA_URL: replica })).toThrow(
      /DATABASE_REPLICA_URL needs DATABASE_URL/,
    );
  });

  it("checks PUBLIC_URL and the database start timeout", () => {
    expect(readEnv({ DATA_DIR: dir }).publicUrl).toBeUndefined();
    expect(readEnv({ DATA_DIR: dir, PUBLIC_URL: "https://gravity.example" }).publicUrl).toBe(
      "https://gravity.example",
    );
    expect(() => readEnv({ DATA_DIR: dir, PUBLIC_URL: "gravity.example" })).toThrow(
      /PUBLIC_URL must be an http:\/\/ or https:\/\/ address/,
    );
    expect(() => readEnv({ DATA_DIR: dir, PUBLIC_URL: "javascript:alert(1)" })).toThrow(
      /PUBLIC_URL/,
    );
    expect(readEnv({ DATA_DIR: dir }).dbStartTimeoutMs).toBe(30_000);
    expect(readEnv({ DATA_DIR: dir, DATABASE_START_TIMEOUT: "2" }).dbStartTimeoutMs).toBe(2000);
    expect(() => readEnv({ DATA_DIR: dir, DATABASE_START_TIMEOUT: "soon" })).toThrow(
      /DATABASE_START_TIMEOUT must be a number of seconds/,
    );
  });

  it("keeps the generated secret and its folder private", () => {
    const fresh = path.join(dir, "private");
    readEnv({ DATA_DIR: fresh });
    expect(statSync(fresh).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(fresh, "session-secret")).mode & 0o777).toBe(0o600);
  });

  it("names the variable and the value it got, word for word", () => {
    const message = (vars: Record<string, string>) => {
      try {
        readEnv({ DATA_DIR: dir, ...vars });
      } catch (error) {
        return error instanceof Error ? error.message : String(error);
      }
      return null;
    };
    expect(message({ PORT: "70000" })).toBe('PORT must be a port number, got "70000"');
    expect(message({ WEB_CONCURRENCY: "two" })).toBe(
      'WEB_CONCURRENCY must be a number of processes from 1 to 256, got "two"',
    );
    expect(message({ DATABASE_START_TIMEOUT: "-1" })).toBe(
      'DATABASE_START_TIMEOUT must be a number of seconds, got "-1"',
    );
    expect(message({ PUBLIC_URL: "ftp://x.example" })).toBe(
      'PUBLIC_URL must be an http:// or https:// address, got "ftp://x.example"',
    );
    expect(message({ SMTP_URL: "http://x" })).toBe("SMTP_URL must start with smtp:// or smtps://");
    // Empty means unset, as before: the defaults apply.
    expect(message({ DATABASE_URL: "", SMTP_URL: "", PUBLIC_URL: "", WEB_CONCURRENCY: "" })).toBe(
      null,
    );
  });

  it("refuses bad values with a clear message", () => {
    expect(() => readEnv({ DATA_DIR: dir, PORT: "http" })).toThrow(/PORT must be a port/);
    expect(() => readEnv({ DATA_DIR: dir, DATABASE_URL: "mysql://x" })).toThrow(/postgres:\/\//);
    expect(() => readEnv({ DATA_DIR: dir, SMTP_URL: "http://x" })).toThrow(/smtp:\/\//);
  });
});
