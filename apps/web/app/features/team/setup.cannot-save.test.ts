// Saving a team while the database's disk is full: the database really refuses the write (a
// trigger of the test's own database raises the SQLSTATE a full disk gives), and the player is
// told to try again in a minute, the draft kept (docs/decisions/0150-abuse-proof-load.md).
import { BUDGET, LOCK_MS } from "@game/core";
import { events, getTeam, listTeamRacers } from "@game/db";
import { createTestDb, type DbHandle } from "@game/db/testing";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ErrorLogEntry, setErrorSink } from "~/utils/log.server";
import { cookieFor, makeUser, request, testContext } from "../../../tests/support/context";
import { teamSetupAction } from "./setup.server";
import { SAVE_FAILED } from "./team-form";

let h: DbHandle;
const lines: ErrorLogEntry[] = [];

/** Writes to `table` fail as on a full disk until `healthy()`. */
async function refuseWrites(table: string) {
  await h.db.execute(
    sql.raw(`create or replace function gf_test_refuse() returns trigger language plpgsql as $$
      begin raise exception 'could not extend file "base/1/2": No space left on device'
        using errcode = '53100'; end $$`),
  );
  await h.db.execute(
    sql.raw(`create trigger gf_test_refuse before insert or update or delete on ${table}
      for each statement execute function gf_test_refuse()`),
  );
}
async function healthy(table: string) {
  await h.db.execute(sql.raw(`drop trigger if exists gf_test_refuse on ${table}`));
}

beforeAll(async () => {
  h = await createTestDb({ seed: true });
  setErrorSink((entry) => lines.push(entry));
});
afterAll(async () => {
  setErrorSink(null);
  await h.close();
});

describe("saving a team while the disk is full", () => {
  it("answers 503 with 'We cannot save right now, try again in a minute', keeps the draft, and changes nothing", async () => {
    const [round1] = await h.db.select().from(events).where(eq(events.id, 5));
    const now = new Date(round1!.startsAt.getTime() - LOCK_MS - 86_400_000);
    const ctx = testContext(h.db, { now: () => now });
    const user = await makeUser(h.db);
    const cookie = await cookieFor(ctx, user);
    const pool = await listTeamRacers(h.db, 5);
    const pick = (category: string, k: number) =>
      pool
        .filter((r) => r.category === category)
        .sort((a, b) => a.price - b.price)
        .slice(0, k)
        .map((r) => String(r.id));
    const racers = [...pick("Pro Women", 2), ...pick("17-18 Men", 1), ...pick("Pro Men", 3)];

    await refuseWrites("teams");
    let res: unknown;
    try {
      res = await teamSetupAction(
        request("/team-setup?game=5", {
          cookie,
          form: { intent: "save", game: "5", racer: racers },
        }),
        ctx,
      );
    } finally {
      await healthy("teams");
    }
    const { data, init } = res as { data: unknown; init: ResponseInit };
    expect(init.status).toBe(503);
    expect(data).toEqual({
      ok: false,
      message: SAVE_FAILED,
      reasons: ["We cannot save right now, try again in a minute"],
      draft: racers.map(Number),
      captain: null,
    });
    expect(await getTeam(h.db, user.id, 5)).toBeNull();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ where: "POST /team-setup" });
    expect(lines[0]!.error).toContain("out of disk space (SQLSTATE 53100)");
    // Saved as soon as the disk has room again.
    const again = await teamSetupAction(
      request("/team-setup?game=5", { cookie, form: { intent: "save", game: "5", racer: racers } }),
      ctx,
    );
    expect((again as { init: ResponseInit | null }).init?.status ?? 200).toBe(200);
    expect((await getTeam(h.db, user.id, 5))?.budget).toBeLessThanOrEqual(BUDGET);
  });
});
