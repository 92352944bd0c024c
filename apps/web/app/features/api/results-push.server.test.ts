/**
 * `POST /api/v1/admin/events/:id/results` (docs/decisions/0171): only an admin API token gets
 * in; CSV or JSON, provisional unless `?final=1`, idempotent by content.
 */
import { LOCK_MS } from "@game/core";
import {
  auditLog,
  createAdminToken,
  events,
  type LiveRoundState,
  liveRoundStates,
  raceResults,
  racers,
  revokeAdminToken,
} from "@game/db";
import { createTestDb, type DbHandle } from "@game/db/testing";
import type { ActionFunctionArgs } from "@remix-run/node";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cookieFor, makeUser, testContext } from "~/../tests/support/context";
import { pushResults } from "./results-push.server";

let h: DbHandle;
let token: string;
let men: { id: number; firstName: string; lastName: string }[];
let raceDay: Date;
const audit = { actor: "cli", actorId: null };

beforeAll(async () => {
  h = await createTestDb({ seed: true });
  ({ token } = await createAdminToken(h.db, { name: "timing", audit }));
  men = await h.db
    .select({ id: racers.id, firstName: racers.firstName, lastName: racers.lastName })
    .from(racers)
    .where(eq(racers.gameId, 5))
    .orderBy(racers.id)
    .then((rows) => rows.slice(0, 3));
  const [round] = await h.db.select().from(events).where(eq(events.id, 5));
  raceDay = new Date(round!.startsAt.getTime() + 3600_000);
});
afterAll(() => h.close());

async function push(
  path: string,
  init: { body?: string; type?: string; auth?: string | null; cookie?: string; now?: Date } = {},
) {
  const headers = new Headers({ "Content-Type": init.type ?? "text/csv" });
  if (init.auth !== null) headers.set("Authorization", init.auth ?? `Bearer ${token}`);
  if (init.cookie) headers.set("Cookie", init.cookie);
  const request = new Request(`http://localhost${path}`, {
    method: "POST",
    headers,
    body: init.body ?? "",
  });
  const id = /events\/([^/]+)\//.exec(path)?.[1];
  const context = testContext(h.db, { now: () => init.now ?? raceDay });
  const res = await pushResults({ request, params: { id }, context } as ActionFunctionArgs);
  return { res, json: await res.json() };
}

const csv = (rows: [string, number][]) =>
  ["Position,Racer ID", ...rows.map(([p, id]) => `${p},${id}`)].join("\n");
const state = async (): Promise<LiveRoundState> => (await liveRoundStates(h.db, [5]))[0]!;

describe("who may push", () => {
  it("refuses no token, a wrong or revoked one, and a signed-in admin's or player's session", async () => {
    const body = csv([["1", men[0]!.id]]);
    const admin = await makeUser(h.db, { role: "admin" });
    const player = await makeUser(h.db);
    const ctx = testContext(h.db);
    for (const init of [
      { auth: null },
      { auth: "Bearer gfa_not-a-token" },
      { auth: `Basic ${Buffer.from(`timing:${token}`).toString("base64")}` },
      { auth: null, cookie: await cookieFor(ctx, admin) },
      { auth: null, cookie: await cookieFor(ctx, player) },
    ]) {
      const { res, json } = await push("/api/v1/admin/events/5/results", { ...init, body });
      expect(res.status, JSON.stringify(init)).toBe(401);
      expect(res.headers.get("WWW-Authenticate")).toBe('Bearer realm="admin"');
      expect(json.error.code).toBe("unauthorized");
    }
    const { token: spare } = await createAdminToken(h.db, { name: "spare", audit });
    await revokeAdminToken(h.db, { name: "spare", audit });
    const revoked = await push("/api/v1/admin/events/5/results", {
      auth: `Bearer ${spare}`,
      body,
    });
    expect(revoked.res.status).toBe(401);
    expect(revoked.json.error.message).toBe("This token is unknown or has been revoked.");
    // Nothing of it reached the round.
    expect(await h.db.select().from(raceResults)).toEqual([]);
  });
});

describe("a timing system's pushes", () => {
  it("before the lock: refused, nothing frozen", async () => {
    const [round] = await h.db.select().from(events).where(eq(events.id, 5));
    const early = new Date(round!.startsAt.getTime() - LOCK_MS - 60_000);
    const { res, json } = await push("/api/v1/admin/events/5/results", {
      body: csv([["1", men[0]!.id]]),
      now: early,
    });
    expect(res.status).toBe(409);
    expect(json.error.code).toBe("not_locked");
    expect((await state()).version).toBe("0");
  });

  it("provisional CSV, the same again (unchanged), JSON, bad rows, then final; late provisional refused", async () => {
    const first = await push("/api/v1/admin/events/5/results?category=pro-men", {
      body: csv([["1", men[0]!.id]]),
    });
    expect(first.res.status).toBe(200);
    expect(first.json).toEqual({
      eventId: 5,
      provisional: true,
      unchanged: false,
      categories: ["Pro Men"],
      results: 1,
      teamsScored: 0,
    });
    const after1 = await state();
    expect(after1).toMatchObject({ provisional: true, final: false });

    const again = await push("/api/v1/admin/events/5/results?category=pro-men", {
      body: csv([["1", men[0]!.id]]),
    });
    expect(again.json).toMatchObject({ unchanged: true, teamsScored: null });
    expect((await state()).version).toBe(after1.version);

    const json = await push("/api/v1/admin/events/5/results", {
      type: "application/json",
      body: JSON.stringify({
        results: [
          { position: 2, racerId: men[0]!.id, category: "Pro Men" },
          {
            position: 1,
            firstName: men[1]!.firstName,
            lastName: men[1]!.lastName,
            category: "Pro Men",
          },
        ],
      }),
    });
    expect(json.res.status).toBe(200);
    expect(json.json).toMatchObject({ provisional: true, unchanged: false, results: 2 });
    const stored = await h.db.select().from(raceResults).where(eq(raceResults.eventId, 5));
    expect(stored.map((r) => [r.racerId, r.position]).sort()).toEqual(
      [
        [men[0]!.id, 2],
        [men[1]!.id, 1],
      ].sort(),
    );

    const bad = await push("/api/v1/admin/events/5/results", {
      type: "application/json",
      body: JSON.stringify([{ position: 1, racerId: 999_999, category: "Pro Men" }]),
    });
    expect(bad.res.status).toBe(422);
    expect(bad.json.error.issues[0].line).toBe(2);
    const notJson = await push("/api/v1/admin/events/5/results", {
      type: "application/json",
      body: "{",
    });
    expect(notJson.res.status).toBe(400);

    const final = await push("/api/v1/admin/events/5/results?final=1&category=pro-men", {
      body: csv([
        ["1", men[1]!.id],
        ["2", men[0]!.id],
        ["DNS", men[2]!.id],
      ]),
    });
    expect(final.json).toMatchObject({ provisional: false, unchanged: false, results: 3 });
    expect(await state()).toMatchObject({ provisional: false, final: true });

    const late = await push("/api/v1/admin/events/5/results", { body: csv([["1", men[0]!.id]]) });
    expect(late.res.status).toBe(409);
    expect(late.json.error.code).toBe("final");

    const actors = await h.db
      .select({ actor: auditLog.actor, action: auditLog.action })
      .from(auditLog);
    expect(actors).toContainEqual({ actor: "token:timing", action: "results.import" });
  });

  it("names a bad id, query or event", async () => {
    expect((await push("/api/v1/admin/events/x/results")).res.status).toBe(400);
    expect((await push("/api/v1/admin/events/5/results?final=yes")).res.status).toBe(400);
    expect((await push("/api/v1/admin/events/5/results?category=elite")).res.status).toBe(400);
    expect((await push("/api/v1/admin/events/404/results")).res.status).toBe(404);
  });
});
