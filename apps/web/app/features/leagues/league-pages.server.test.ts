import {
  createLeague,
  getLeagueForUser,
  inviteToLeague,
  leagueMembers,
  listLeaguesForUser,
  type UserRow,
} from "@game/db";
import { createTestDb, type DbHandle } from "@game/db/testing";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loader as invitationLoader } from "~/routes/leagues.$id.invitation";
import { action as joinAction, loader as joinLoader } from "~/routes/leagues.join.$code";
import { cookieFor, makeUser, request, testContext } from "../../../tests/support/context";
import { loadLeaguesPanel } from "./leagues-panel.server";

let h: DbHandle;
beforeAll(async () => {
  h = await createTestDb({ seed: true });
});
afterAll(() => h?.close());

const ctx = () => testContext(h.db);

async function league(owner: UserRow, name = "Page League") {
  const r = await createLeague(h.db, owner, name);
  if (!r.ok) throw new Error(r.reason);
  return r.league;
}

/** Runs a loader and returns its data and status, or the redirect it threw. */
async function run(p: Promise<unknown>) {
  try {
    const out = (await p) as { data: unknown; init?: { status?: number } | null };
    return { data: out.data as Record<string, unknown>, status: out.init?.status ?? 200 };
  } catch (thrown) {
    if (thrown instanceof Response) return { redirect: thrown.headers.get("Location") };
    throw thrown;
  }
}

describe("invitation page", () => {
  it("asks a visitor to sign up or log in and come back, saying nothing about the league", async () => {
    const owner = await makeUser(h.db);
    const l = await league(owner, "Secret Society");
    const r = await run(
      invitationLoader({
        request: request(`/leagues/${l.id}/invitation`),
        context: ctx(),
        params: { id: String(l.id) },
      }),
    );
    expect(r.data).toEqual({
      state: "visitor",
      signupHref: `/signup?redirectTo=${encodeURIComponent(`/leagues/${l.id}/invitation`)}`,
      loginHref: `/?login=1&redirectTo=${encodeURIComponent(`/leagues/${l.id}/invitation`)}`,
    });
    expect(JSON.stringify(r.data)).not.toContain("Secret Society");
  });

  it("shows the invited player the league with Accept and Dismiss", async () => {
    const owner = await makeUser(h.db);
    const guest = await makeUser(h.db);
    const l = await league(owner, "Gap Jumpers");
    await inviteToLeague(h.db, owner, l.id, guest.email);
    const cookie = await cookieFor(ctx(), guest);
    const r = await run(
      invitationLoader({
        request: request(`/leagues/${l.id}/invitation`, { cookie }),
        context: ctx(),
        params: { id: String(l.id) },
      }),
    );
    expect(r.data).toMatchObject({
      state: "invited",
      home: "/game/5",
      league: { id: l.id, name: "Gap Jumpers", invitedBy: owner.username },
    });
  });

  it("answers 404 to anyone else and sends members to the league", async () => {
    const owner = await makeUser(h.db);
    const stranger = await makeUser(h.db);
    const l = await league(owner);
    await inviteToLeague(h.db, owner, l.id, "someone-else@example.com");
    for (const id of [String(l.id), "999999", "abc", "99999999999"]) {
      const r = await run(
        invitationLoader({
          request: request(`/leagues/${id}/invitation`, {
            cookie: await cookieFor(ctx(), stranger),
          }),
          context: ctx(),
          params: { id },
        }),
      );
      expect(r.status).toBe(404);
      expect(r.data).toMatchObject({ state: "unavailable", email: stranger.email });
    }
    const member = await run(
      invitationLoader({
        request: request(`/leagues/${l.id}/invitation`, { cookie: await cookieFor(ctx(), owner) }),
        context: ctx(),
        params: { id: String(l.id) },
      }),
    );
    expect(member.redirect).toBe(`/game/5#league-${l.id}`);
  });
});

describe("join link", () => {
  it("shows the league, lets a signed-in player join once, and rejects unknown codes", async () => {
    const owner = await makeUser(h.db);
    const friend = await makeUser(h.db);
    const l = await league(owner, "Link Riders");
    const path = `/leagues/join/${l.joinCode}`;
    const params = { code: l.joinCode };

    const visitor = await run(joinLoader({ request: request(path), context: ctx(), params }));
    expect(visitor.data).toMatchObject({
      state: "visitor",
      league: { id: l.id, name: "Link Riders", memberCount: 1 },
      signupHref: `/signup?redirectTo=${encodeURIComponent(path)}`,
    });

    const visitorPost = await joinAction({
      request: request(path, { form: {} }),
      context: ctx(),
      params,
    });
    expect(visitorPost.headers.get("Location")).toBe(
      `/?login=1&redirectTo=${encodeURIComponent(path)}`,
    );

    const cookie = await cookieFor(ctx(), friend);
    const before = await run(
      joinLoader({ request: request(path, { cookie }), context: ctx(), params }),
    );
    expect(before.data).toMatchObject({ state: "can-join" });
    const joined = await joinAction({
      request: request(path, { cookie, form: {} }),
      context: ctx(),
      params,
    });
    expect(joined.headers.get("Location")).toBe(`/game/5?leagueNotice=joined#league-${l.id}`);
    const again = await joinAction({
      request: request(path, { cookie, form: {} }),
      context: ctx(),
      params,
    });
    expect(again.headers.get("Location")).toBe(
      `/game/5?leagueNotice=already-joined#league-${l.id}`,
    );
    const after = await run(
      joinLoader({ request: request(path, { cookie }), context: ctx(), params }),
    );
    expect(after.data).toMatchObject({ state: "member" });
    const rows = await h.db
      .select()
      .from(leagueMembers)
      .where(and(eq(leagueMembers.leagueId, l.id), eq(leagueMembers.userId, friend.id)));
    expect(rows).toHaveLength(1);

    for (const code of ["nope", "AAAAAAAAAAAAAAAA", "../../x"]) {
      const bad = await run(
        joinLoader({ request: request(`/leagues/join/${code}`), context: ctx(), params: { code } }),
      );
      expect(bad).toEqual({ data: { state: "invalid" }, status: 404 });
    }
  });
});

describe("leagues panel data", () => {
  it("lists the player's leagues with share links, successor and roles", async () => {
    const owner = await makeUser(h.db);
    const second = await makeUser(h.db);
    const l = await league(owner, "Panel League");
    const context = { ...ctx(), env: { ...ctx().env, publicUrl: "https://gravity.example" } };
    const solo = await loadLeaguesPanel(request("/game/5"), context, owner, { hasTeam: true });
    expect(solo.leagues).toEqual([
      expect.objectContaining({
        id: l.id,
        role: "owner",
        successor: null,
        shareLink: `https://gravity.example/leagues/join/${l.joinCode}`,
      }),
    ]);
    await inviteToLeague(h.db, owner, l.id, second.email);
    const invitedView = await loadLeaguesPanel(request("/game/5"), context, second, {
      hasTeam: false,
    });
    expect(invitedView).toMatchObject({ signedIn: true, hasTeam: false });
    expect(invitedView.leagues[0]).toMatchObject({ role: "invited", shareLink: null, invited: [] });

    await h.db.insert(leagueMembers).values({ leagueId: l.id, userId: second.id });
    const duo = await loadLeaguesPanel(request("/game/5"), context, owner, { hasTeam: true });
    expect(duo.leagues[0]?.successor).toBe(second.username);
  });

  it("a visitor gets a login link and never a team", async () => {
    const r = await loadLeaguesPanel(request("/game/5"), ctx(), null, { hasTeam: true });
    expect(r).toEqual({
      signedIn: false,
      hasTeam: false,
      leagues: [],
      loadFailed: false,
      loginHref: "/?login=1&redirectTo=%2Fgame%2F5",
      unconfirmedEmail: null,
      here: "/game/5",
    });
  });

  it("reports a failed read in the panel instead of failing the page", async () => {
    const owner = await makeUser(h.db);
    const broken = new Proxy(h.db, {
      get(target, prop, receiver) {
        if (prop === "select") throw new Error("connection reset");
        return Reflect.get(target, prop, receiver);
      },
    });
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const r = await loadLeaguesPanel(request("/game/5"), { ...ctx(), db: broken }, owner, {
        hasTeam: true,
      });
      expect(r).toMatchObject({ loadFailed: true, leagues: [], signedIn: true });
      expect(logged).toHaveBeenCalled();
    } finally {
      logged.mockRestore();
    }
    // The data is still there.
    expect(await listLeaguesForUser(h.db, owner)).toEqual([]);
    expect(await getLeagueForUser(h.db, owner, 1)).toBeNull();
  });
});
