import net, { type AddressInfo } from "node:net";
import { createDb } from "@game/db";
import { describe, expect, it } from "vitest";
import { describeError, isTransient, openWithRetry, StartError } from "./start-db.js";

/** A port nothing listens on: taken, then freed. */
async function closedPort() {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("openWithRetry", () => {
  it("retries an unreachable PostgreSQL with a line per attempt, then fails with one line", async () => {
    const url = `postgres://app:secret@127.0.0.1:${await closedPort()}/game`;
    const lines: string[] = [];
    const waits: number[] = [];
    let attempts = 0;
    const error = await openWithRetry(
      () => {
        attempts++;
        return createDb({ url });
      },
      {
        url,
        timeoutMs: 1500,
        log: (line) => lines.push(line),
        sleep: (ms) => {
          waits.push(ms);
          return new Promise((resolve) => setTimeout(resolve, ms));
        },
      },
    ).catch((e) => e);
    expect(error).toBeInstanceOf(StartError);
    expect(error.message).toMatch(
      /^Database not reachable at postgres:\/\/app:\*\*\*@127\.0\.0\.1:\d+\/game after \d+ attempts in \d+ s \(.*ECONNREFUSED.*\)\. Check DATABASE_URL and that PostgreSQL is running\.$/,
    );
    expect(error.message).not.toContain("secret");
    expect(error.message).not.toContain("\n");
    expect(attempts).toBeGreaterThanOrEqual(2);
    expect(lines[0]).toMatch(
      /^Database not reachable at .*ECONNREFUSED.*; retrying in 1 s \(attempt 1\)\.$/,
    );
    expect(waits.every((ms) => ms <= 1500)).toBe(true);
  });

  it("waits 1, 2, 4, 8, 8 s between attempts and stops at the deadline", async () => {
    const waits: number[] = [];
    let clock = 0;
    const realNow = Date.now;
    Date.now = () => clock;
    try {
      const refused = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
      await expect(
        openWithRetry(() => Promise.reject(refused), {
          timeoutMs: 30_000,
          log: () => {},
          sleep: async (ms) => {
            waits.push(ms);
            clock += ms;
          },
        }),
      ).rejects.toThrow(/after 7 attempts in 30 s/);
    } finally {
      Date.now = realNow;
    }
    expect(waits).toEqual([1000, 2000, 4000, 8000, 8000, 7000]);
  });

  it("succeeds as soon as the database answers", async () => {
    let attempts = 0;
    const refused = Object.assign(new Error("refused"), { code: "ECONNREFUSED" });
    const value = await openWithRetry(
      async () => {
        attempts++;
        if (attempts < 3) throw refused;
        return "open";
      },
      { timeoutMs: 60_000, log: () => {}, sleep: async () => {} },
    );
    expect(value).toBe("open");
    expect(attempts).toBe(3);
  });

  it("does not retry what waiting cannot fix (a wrong password, a missing database)", async () => {
    let attempts = 0;
    const denied = Object.assign(new Error('password authentication failed for user "app"'), {
      code: "28P01",
    });
    const error = await openWithRetry(
      () => {
        attempts++;
        return Promise.reject(denied);
      },
      { url: "postgres://app:pw@db/game", timeoutMs: 60_000, log: () => {}, sleep: async () => {} },
    ).catch((e) => e);
    expect(attempts).toBe(1);
    expect(error.message).toBe(
      'Could not open the database (postgres://app:***@db/game): 28P01: password authentication failed for user "app"',
    );
  });
});

describe("error helpers", () => {
  it("finds codes through wrappers and keeps only the first line", () => {
    const inner = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), {
      code: "ECONNREFUSED",
    });
    expect(isTransient(new Error("Failed query: select 1\nparams: x", { cause: inner }))).toBe(
      true,
    );
    expect(isTransient(Object.assign(new AggregateError([inner], "")))).toBe(true);
    expect(isTransient(new Error("syntax error"))).toBe(false);
    expect(describeError(new Error("first line\nparams: secret@example.com"))).toBe("first line");
  });
});
