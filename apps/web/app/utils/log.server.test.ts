import { createTestDb, type DbHandle } from "@game/db/testing";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  describeError,
  type ErrorLogEntry,
  isDatabaseError,
  logError,
  scrub,
  setErrorSink,
} from "./log.server";

let h: DbHandle;
beforeAll(async () => {
  h = await createTestDb();
});
afterAll(() => h.close());

/** A real failing query whose parameter is an e-mail (the database quotes it in its message). */
async function failingQuery(): Promise<unknown> {
  try {
    await h.db.execute(sql`select ${"rider@example.com"}::int`);
  } catch (error) {
    return error;
  }
  throw new Error("the query should have failed");
}

describe("error log lines", () => {
  it("name a database error by its SQLSTATE only: no SQL, no parameters", async () => {
    const error = await failingQuery();
    // The raw error does carry the e-mail: that is what must not reach the log.
    expect(JSON.stringify(error, Object.getOwnPropertyNames(error)) + String(error)).toContain(
      "rider@example.com",
    );
    expect(isDatabaseError(error)).toBe(true);
    expect(describeError(error)).toBe("database error 22P02");
  });

  it("names a query the driver failed by the driver's code, never its text", () => {
    const cause = Object.assign(new Error("write CONNECTION_CLOSED rider@example.com"), {
      code: "CONNECTION_CLOSED",
    });
    const error = Object.assign(
      new Error("Failed query: select 1 where email = $1\nparams: rider@example.com"),
      { query: "select 1 where email = $1", params: ["rider@example.com"], cause },
    );
    expect(describeError(error)).toBe("database error (query failed: CONNECTION_CLOSED)");
    const plain = Object.assign(new Error("Failed query: select 1"), {
      query: "select 1",
      params: [],
    });
    expect(describeError(plain)).toBe("database error (query failed)");
  });

  it("logs one line without a stack for database and expected errors", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      logError("POST /leagues/actions", await failingQuery());
      logError("mail 3 failed", new Error("connect ECONNREFUSED"), { expected: true });
      logError(
        "POST /login",
        Object.assign(new Error("The request is too large."), { status: 413 }),
      );
      expect(logged.mock.calls).toEqual([
        ["POST /leagues/actions: database error 22P02"],
        ["mail 3 failed: Error: connect ECONNREFUSED"],
        ["POST /login: Error: The request is too large."],
      ]);
    } finally {
      logged.mockRestore();
    }
  });

  it("masks e-mail addresses and keeps only the frames of a bug's stack", () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      logError("GET /x", new TypeError("no team for zoe@example.com\nsecond line"));
      const line = String(logged.mock.calls[0]?.[0]);
      expect(line).toMatch(/^GET \/x: TypeError: no team for <email> second line\n {4}at /);
      expect(line).not.toContain("zoe@example.com");
    } finally {
      logged.mockRestore();
    }
    expect(scrub("a\n\tb   c")).toBe("a b c");
    // Something thrown that is not an Error: its kind and keys, never its values.
    const thrown = {
      type: "DataWithResponseInit",
      data: { email: "x@example.com" },
      init: { status: 400 },
    };
    expect(describeError(thrown)).toBe("DataWithResponseInit 400 {type, data, init}");
    expect(scrub("x".repeat(400))).toHaveLength(301);
  });
});

describe("the structured sink (production)", () => {
  it("gets one entry per error, with the same rules and the request id", async () => {
    const entries: ErrorLogEntry[] = [];
    const console = vi.spyOn(globalThis.console, "error").mockImplementation(() => {});
    setErrorSink((e) => entries.push(e));
    try {
      logError("POST /login rider@example.com", await failingQuery(), { requestId: "req-1" });
      logError("GET /x", new TypeError("boom"));
    } finally {
      setErrorSink(null);
      console.mockRestore();
    }
    expect(console).not.toHaveBeenCalled();
    expect(entries).toHaveLength(2);
    expect(entries[0]).toEqual({
      where: "POST /login <email>",
      error: expect.stringMatching(/^database error 22P02/),
      requestId: "req-1",
    });
    expect(JSON.stringify(entries[0])).not.toContain("example.com");
    // Our own bug: its stack frames, in the entry (one JSON line), not on lines of their own.
    expect(entries[1]!.error).toBe("TypeError: boom");
    expect(entries[1]!.stack).toMatch(/^at /);
  });
});
