// A save the database cannot take (out of disk space, memory, connections) is a 503 with a clear
// message and one line for the admin. The database really raises it: a trigger of the test's own
// database refuses writes with the SQLSTATE a full disk gives. (The team save:
// features/team/setup.cannot-save.test.ts.)
import { leagues } from "@game/db";
import { createTestDb, type DbHandle } from "@game/db/testing";
import { eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { request } from "../../tests/support/context";
import { CANNOT_SAVE, cannotSave, guardActions, shortageOf } from "./cannot-save.server";
import { type ErrorLogEntry, setErrorSink } from "./log.server";

let h: DbHandle;
const lines: ErrorLogEntry[] = [];

/** Writes to `table` fail as on a full disk (or with another SQLSTATE) until `healthy()`. */
async function refuseWrites(table: string, sqlstate = "53100") {
  await h.db.execute(
    sql.raw(`create or replace function gf_test_refuse() returns trigger language plpgsql as $$
      begin raise exception 'could not extend file "base/1/2": No space left on device'
        using errcode = '${sqlstate}'; end $$`),
  );
  await h.db.execute(
    sql.raw(`create trigger gf_test_refuse before insert or update or delete on ${table}
      for each statement execute function gf_test_refuse()`),
  );
}
async function healthy(table: string) {
  await h.db.execute(sql.raw(`drop trigger if exists gf_test_refuse on ${table}`));
}

/** The database's own error for a write to `table` while it refuses. */
async function refusedWrite(sqlstate: string): Promise<unknown> {
  await refuseWrites("leagues", sqlstate);
  try {
    return await h.db
      .update(leagues)
      .set({ name: "x" })
      .where(eq(leagues.id, -1))
      .then(
        () => null,
        (error: unknown) => error,
      );
  } finally {
    await healthy("leagues");
  }
}

beforeAll(async () => {
  h = await createTestDb();
  setErrorSink((entry) => lines.push(entry));
});
afterAll(async () => {
  setErrorSink(null);
  await h.close();
});
afterEach(() => {
  lines.length = 0;
});

describe("a database out of disk space, memory or connections", () => {
  it("is recognised through the query wrapper, by its SQLSTATE", async () => {
    expect(shortageOf(await refusedWrite("53100"))).toMatchObject({ code: "53100" });
    expect(shortageOf(await refusedWrite("53200"))).toMatchObject({ code: "53200" });
    expect(shortageOf(await refusedWrite("53300"))).toMatchObject({ code: "53300" });
    // Any other refusal is not a shortage.
    expect(shortageOf(await refusedWrite("23505"))).toBeNull();
    expect(shortageOf(new Error("boom"))).toBeNull();
  });

  it("logs one line saying what ran out and what to do, then at most one a minute with a count", async () => {
    const error = await refusedWrite("53100");
    const t0 = 1_000_000_000;
    expect(cannotSave(error, "POST /team-setup", t0)).toBe(true);
    expect(cannotSave(error, "POST /team-setup", t0 + 1000)).toBe(true);
    expect(cannotSave(error, "POST /leagues", t0 + 2000)).toBe(true);
    expect(lines).toEqual([
      {
        where: "POST /team-setup",
        error:
          "saves refused: the database is out of disk space (SQLSTATE 53100): free disk space on the database server or grow its volume. Players are asked to try again in a minute.",
      },
    ]);
    expect(cannotSave(error, "POST /team-setup", t0 + 61_000)).toBe(true);
    expect(lines[1]!.error).toMatch(/; 2 more refused since the last line\.$/);
    expect(cannotSave(new Error("boom"), "POST /team-setup", t0 + 62_000)).toBe(false);
    expect(lines).toHaveLength(2);
  });

  it("turns any form post's shortage into a 503 with the message; other errors pass through", async () => {
    // Out of connections (its log line is not the full disk's, which the next test looks for).
    const error = await refusedWrite("53300");
    const routes = guardActions({
      "routes/save": {
        id: "routes/save",
        path: "save",
        module: {
          default: () => null,
          action: async () => {
            throw error;
          },
        },
      },
      "routes/broken": {
        id: "routes/broken",
        path: "broken",
        module: {
          default: () => null,
          action: async () => {
            throw new Error("a bug");
          },
        },
      },
      "routes/page": { id: "routes/page", path: "page", module: { default: () => null } },
    } as never);
    const args = (path: string) =>
      ({ request: request(path, { form: { a: "1" } }), context: {}, params: {} }) as never;
    const run = (id: string, path: string) =>
      Promise.resolve().then(() => routes[id]!.module.action!(args(path)));
    const thrown = await run("routes/save", "/save").catch((e: unknown) => e);
    expect(thrown).toMatchObject({
      type: "DataWithResponseInit",
      data: { message: CANNOT_SAVE },
      init: { status: 503, headers: { "Retry-After": "60" } },
    });
    await expect(run("routes/broken", "/broken")).rejects.toThrow("a bug");
    expect(routes["routes/page"]!.module.action).toBeUndefined();
  });
});
