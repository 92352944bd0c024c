/**
 * The partner iframe and its sign-in popup, at route level with a real database: who may frame
 * the iframe, the handoff token (single use, bound to the partner), and saving through the same
 * service and rules as `/team-setup`.
 */
import { BUDGET, LOCK_MS } from "@game/core";
import {
  embedTokens,
  events,
  getPartnerStats,
  getTeam,
  listTeamRacers,
  partners,
  type TeamRacerView,
  utcDay,
} from "@game/db";
import { createTestDb, type DbHandle } from "@game/db/testing";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cookieFor, makeUser, request, testContext } from "../../../tests/support/context";
import { embedAuthAction, loadEmbedAuth } from "./auth.server";
import { frameAncestors, parentOrigin } from "./frame.server";
import { embedTeamSetupAction, loadEmbedTeamSetup } from "./team-setup.server";
import type { EmbedActionResult } from "./team-setup-form";

let h: DbHandle;
let pool: TeamRacerView[];
let start: Date;
const origin = "https://bikes.example";
const key = "pk_embed_route_test";

/** Before the lock of round 1 (event 5). */
const early = () => new Date(start.getTime() - LOCK_MS - 86_400_000);

beforeAll(async () => {
  h = await createTestDb({ seed: true });
  await h.db.insert(partners).values([
    { name: "Bike Site", publishableKey: key, origins: [origin, "https://www.bikes.example"] },
    { name: "Other Site", publishableKey: "pk_other_site", origins: ["https://other.example"] },
  ]);
  pool = await listTeamRacers(h.db, 5);
  const [e] = await h.db.select().from(events).where(eq(events.id, 5));
  start = e!.startsAt;
});
afterAll(() => h.close());

/** A response thrown or returned by a loader/action (Remix `data()` or `redirect()`). */
async function settle(run: () => Promise<unknown>) {
  try {
    return { value: await run(), thrown: false };
  } catch (error) {
    return { value: error, thrown: true };
  }
}

type DataLike = { data: unknown; init?: { status?: number; headers?: HeadersInit } | null };
const statusOf = (v: unknown) =>
  v instanceof Response ? v.status : ((v as DataLike).init?.status ?? 200);
const headersOf = (v: unknown) =>
  v instanceof Response ? v.headers : new Headers((v as DataLike).init?.headers ?? {});
const dataOf = <T>(v: unknown) => (v as DataLike).data as T;

function validTeam(): number[] {
  const cheapest = (category: string, n: number) =>
    pool
      .filter((r) => r.category === category)
      .sort((a, b) => a.price - b.price || a.id - b.id)
      .slice(0, n)
      .map((r) => r.id);
  return [...cheapest("Pro Women", 2), ...cheapest("17-18 Men", 1), ...cheapest("Pro Men", 3)];
}

function post(path: string, fields: Record<string, string | string[]>) {
  return request(path, { form: fields });
}

/** A player signed in through the popup, holding an iframe session. */
async function signedInPlayer(now = early()) {
  const ctx = testContext(h.db, { now: () => now });
  const user = await makeUser(h.db);
  const cookie = await cookieFor(ctx, user);
  const minted = await embedAuthAction(
    request(`/embed/auth?partner=${key}&origin=${encodeURIComponent(origin)}`, {
      method: "POST",
      cookie,
    }),
    ctx,
  );
  const token = dataOf<{ token: string }>(minted).token;
  const exchanged = await embedTeamSetupAction(
    post(`/embed/team-setup?event=5&partner=${key}`, { intent: "exchange", token }),
    ctx,
  );
  const result = dataOf<EmbedActionResult>(exchanged);
  if (!result.ok || result.intent !== "exchange") throw new Error("exchange failed");
  return { ctx, user, cookie, token, session: result.player.session, result };
}

describe("framing", () => {
  it("lets exactly the partner's origins frame the iframe", () => {
    expect(frameAncestors({ origins: [origin, "http://localhost:4000"] })).toBe(
      `frame-ancestors ${origin} http://localhost:4000`,
    );
    expect(frameAncestors({ origins: [] })).toBe("frame-ancestors 'none'");
  });

  it("talks only to a listed parent origin", () => {
    const p = { origins: [origin, "https://www.bikes.example"] };
    expect(parentOrigin(p, { param: "https://www.bikes.example" })).toBe(
      "https://www.bikes.example",
    );
    expect(parentOrigin(p, { referer: `${origin}/reviews/team-page?x=1` })).toBe(origin);
    expect(
      parentOrigin(p, { param: "https://evil.example", referer: "https://evil.example/" }),
    ).toBeNull();
    expect(parentOrigin({ origins: [origin] }, { param: "https://evil.example" })).toBe(origin);
  });
});

describe("GET /embed/team-setup", () => {
  it("serves the builder framable by the partner's origins only", async () => {
    const ctx = testContext(h.db, { now: early });
    const res = await loadEmbedTeamSetup(
      request(`/embed/team-setup?event=5&partner=${key}&origin=${encodeURIComponent(origin)}`),
      ctx,
    );
    expect(headersOf(res).get("Content-Security-Policy")).toBe(
      `frame-ancestors ${origin} https://www.bikes.example`,
    );
    const body = dataOf<Awaited<ReturnType<typeof loadEmbedTeamSetup>>["data"]>(res);
    expect(body.parentOrigin).toBe(origin);
    expect(body.event.id).toBe(5);
    expect(body.lockedReason).toBeNull();
    expect(body.racers.length).toBe(pool.length);
    expect(JSON.stringify(body)).not.toMatch(/@/);
  });

  it("defaults to the open event and says when teams are locked", async () => {
    const ctx = testContext(h.db, { now: () => new Date(start.getTime() - LOCK_MS) });
    const res = await loadEmbedTeamSetup(request(`/embed/team-setup?partner=${key}`), ctx);
    const body = dataOf<Awaited<ReturnType<typeof loadEmbedTeamSetup>>["data"]>(res);
    expect(body.event.id).toBe(5);
    expect(body.lockedReason).toMatch(/locked/i);
  });

  it("refuses unknown partners and events, unframable", async () => {
    const ctx = testContext(h.db);
    for (const path of [
      "/embed/team-setup?event=5&partner=pk_nope",
      "/embed/team-setup?event=5",
      `/embed/team-setup?event=999&partner=${key}`,
      `/embed/team-setup?event=abc&partner=${key}`,
    ]) {
      const { value, thrown } = await settle(() => loadEmbedTeamSetup(request(path), ctx));
      expect(thrown, path).toBe(true);
      expect(statusOf(value), path).toBe(404);
      expect(headersOf(value).get("Content-Security-Policy"), path).toBe("frame-ancestors 'none'");
    }
  });
});

describe("the sign-in popup /embed/auth", () => {
  it("sends visitors to the normal login form and back", async () => {
    const ctx = testContext(h.db);
    const path = `/embed/auth?partner=${key}&origin=${encodeURIComponent(origin)}`;
    const { value, thrown } = await settle(() => loadEmbedAuth(request(path), ctx));
    expect(thrown).toBe(true);
    expect(statusOf(value)).toBe(302);
    expect(headersOf(value).get("Location")).toBe(`/login?redirectTo=${encodeURIComponent(path)}`);
  });

  it("refuses an origin the partner did not list, and unknown partners", async () => {
    const ctx = testContext(h.db);
    const cookie = await cookieFor(ctx, await makeUser(h.db));
    for (const [path, status] of [
      [`/embed/auth?partner=${key}&origin=${encodeURIComponent("https://evil.example")}`, 403],
      [`/embed/auth?partner=${key}`, 403],
      [`/embed/auth?partner=pk_nope&origin=${encodeURIComponent(origin)}`, 404],
    ] as const) {
      const loaded = await settle(() => loadEmbedAuth(request(path, { cookie }), ctx));
      expect(statusOf(loaded.value), path).toBe(status);
      const posted = await settle(() =>
        embedAuthAction(request(path, { method: "POST", cookie }), ctx),
      );
      expect(statusOf(posted.value), path).toBe(status);
    }
    expect(await h.db.select().from(embedTokens)).toHaveLength(0);
  });

  it("shows who is signed in, and mints a token only on POST", async () => {
    const ctx = testContext(h.db);
    const user = await makeUser(h.db);
    const cookie = await cookieFor(ctx, user);
    const path = `/embed/auth?partner=${key}&origin=${encodeURIComponent(origin)}`;
    const loaded = await loadEmbedAuth(request(path, { cookie }), ctx);
    expect(dataOf(loaded)).toEqual({ partnerName: "Bike Site", origin, username: user.username });
    const before = await h.db.select().from(embedTokens);
    const minted = await embedAuthAction(request(path, { method: "POST", cookie }), ctx);
    expect(dataOf<{ token: string }>(minted).token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(await h.db.select().from(embedTokens)).toHaveLength(before.length + 1);
    expect(headersOf(minted).get("Cache-Control")).toBe("no-store");
  });
});

describe("POST /embed/team-setup", () => {
  it("exchanges the popup's token once, for the player's session and saved team", async () => {
    const { ctx, token, result, user } = await signedInPlayer();
    if (result.intent !== "exchange" || !result.ok) throw new Error("unreachable");
    expect(result.player.username).toBe(user.username);
    expect(result.player.team).toEqual([]);
    const again = await embedTeamSetupAction(
      post(`/embed/team-setup?event=5&partner=${key}`, { intent: "exchange", token }),
      ctx,
    );
    expect(statusOf(again)).toBe(401);
    expect(dataOf<EmbedActionResult>(again)).toMatchObject({ ok: false, signedOut: true });
  });

  it("saves a valid team with the same service as /team-setup, refuses invalid ones", async () => {
    const { ctx, session, user } = await signedInPlayer();
    const path = `/embed/team-setup?event=5&partner=${key}`;
    const picks = validTeam();
    const saved = await embedTeamSetupAction(
      post(path, { intent: "save", session, racer: picks.map(String) }),
      ctx,
    );
    expect(statusOf(saved)).toBe(200);
    expect(dataOf(saved)).toEqual({
      intent: "save",
      ok: true,
      message: "Team saved successfully!",
      team: picks,
      // The prices paid and today's, and the team's budget: the builder counts the bank from
      // them as the save does (decision 0141).
      held: Object.fromEntries(
        (await getTeam(h.db, user.id, 5))!.racers.map((r) => [
          r.id,
          { paid: r.price, now: r.priceNow },
        ]),
      ),
      budget: BUDGET,
      captain: null,
    });
    expect((await getTeam(h.db, user.id, 5))?.racers.map((r) => r.id)).toEqual(picks);

    // Five riders: refused with the rules' reason, the saved team unchanged.
    const refused = await embedTeamSetupAction(
      post(path, { intent: "save", session, racer: picks.slice(0, 5).map(String) }),
      ctx,
    );
    expect(statusOf(refused)).toBe(422);
    const body = dataOf<EmbedActionResult>(refused);
    expect(body).toMatchObject({ ok: false, message: "Failed to save team." });
    if (!body.ok) expect(body.reasons.join(" ")).toMatch(/exactly 6 riders/);
    expect((await getTeam(h.db, user.id, 5))?.racers.map((r) => r.id)).toEqual(picks);

    // A new exchange sees the saved team.
    const next = await signedInPlayerFor(user.id, ctx);
    expect(next.team).toEqual(picks);
  });

  it("counts the partner's sign-ins and saved teams for the day, not failed attempts", async () => {
    const [partner] = await h.db.select().from(partners).where(eq(partners.publishableKey, key));
    const day = utcDay(early());
    const counts = async () => {
      const [report] = await getPartnerStats(h.db, {
        partnerId: partner!.id,
        days: 1,
        now: early(),
      });
      return { signIns: report!.days[0]!.signIns, teamSaves: report!.days[0]!.teamSaves, day };
    };
    const before = await counts();
    const { ctx, session, token } = await signedInPlayer();
    const path = `/embed/team-setup?event=5&partner=${key}`;
    await embedTeamSetupAction(post(path, { intent: "exchange", token }), ctx); // burnt: refused
    await embedTeamSetupAction(post(path, { intent: "save", session, racer: ["1"] }), ctx);
    await embedTeamSetupAction(
      post(path, { intent: "save", session, racer: validTeam().map(String) }),
      ctx,
    );
    expect(await counts()).toEqual({
      signIns: before.signIns + 1,
      teamSaves: before.teamSaves + 1,
      day,
    });
  });

  it("refuses a save after the lock", async () => {
    // Signed in a minute before the lock, saving at the lock moment.
    const { session, user } = await signedInPlayer(new Date(start.getTime() - LOCK_MS - 60_000));
    const late = testContext(h.db, { now: () => new Date(start.getTime() - LOCK_MS) });
    const res = await embedTeamSetupAction(
      post(`/embed/team-setup?event=5&partner=${key}`, {
        intent: "save",
        session,
        racer: validTeam().map(String),
      }),
      late,
    );
    expect(statusOf(res)).toBe(409);
    expect(await getTeam(h.db, user.id, 5)).toBeNull();
  });

  it("refuses sessions of another partner, forged ones and signed-out ones", async () => {
    const { ctx, session, user } = await signedInPlayer();
    const racer = validTeam().map(String);
    const cases: [string, Record<string, string | string[]>, number][] = [
      ["/embed/team-setup?event=5&partner=pk_other_site", { intent: "save", session, racer }, 401],
      [
        `/embed/team-setup?event=5&partner=${key}`,
        { intent: "save", session: "x".repeat(43), racer },
        401,
      ],
      [`/embed/team-setup?event=5&partner=${key}`, { intent: "save", racer }, 400],
      [`/embed/team-setup?event=5&partner=${key}`, { intent: "bogus", session }, 400],
    ];
    for (const [path, form, status] of cases) {
      const res = await embedTeamSetupAction(post(path, form), ctx);
      expect(statusOf(res), JSON.stringify(form)).toBe(status);
    }
    const out = await embedTeamSetupAction(
      post(`/embed/team-setup?event=5&partner=${key}`, { intent: "signout", session }),
      ctx,
    );
    expect(dataOf(out)).toEqual({ intent: "signout", ok: true });
    const after = await embedTeamSetupAction(
      post(`/embed/team-setup?event=5&partner=${key}`, { intent: "save", session, racer }),
      ctx,
    );
    expect(statusOf(after)).toBe(401);
    expect(await getTeam(h.db, user.id, 5)).toBeNull();
  });
});

/** Another popup round for an existing player: what the iframe sees after signing in. */
async function signedInPlayerFor(userId: number, ctx: ReturnType<typeof testContext>) {
  const { getUserById } = await import("@game/db");
  const user = (await getUserById(h.db, userId))!;
  const cookie = await cookieFor(ctx, user);
  const minted = await embedAuthAction(
    request(`/embed/auth?partner=${key}&origin=${encodeURIComponent(origin)}`, {
      method: "POST",
      cookie,
    }),
    ctx,
  );
  const exchanged = await embedTeamSetupAction(
    post(`/embed/team-setup?event=5&partner=${key}`, {
      intent: "exchange",
      token: dataOf<{ token: string }>(minted).token,
    }),
    ctx,
  );
  const result = dataOf<EmbedActionResult>(exchanged);
  if (!result.ok || result.intent !== "exchange") throw new Error("exchange failed");
  return result.player;
}
