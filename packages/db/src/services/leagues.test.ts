import { LEAGUE_NAME_MAX, leagueScore } from "@game/core";
import { and, asc, eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db, DbHandle } from "../client.js";
import { leagueInvitations, leagueMembers, leagues, rateLimits } from "../schema/index.js";
import { createTestDb, putLeagueMemberPoints } from "../testing.js";
import {
  acceptInvitation,
  createLeague,
  deleteLeague,
  dismissInvitation,
  getLeagueByJoinCode,
  getLeagueForUser,
  inviteToLeague,
  joinByCode,
  type LeagueActor,
  leaveLeague,
  listLeaguesForUser,
  MAX_PENDING_INVITATIONS,
  recomputeLeagueTotal,
  resetJoinCode,
} from "./leagues.js";
import { createAccount, type UserRow } from "./users.js";

let h: DbHandle;
let db: Db;
beforeAll(async () => {
  h = await createTestDb();
  db = h.db;
});
afterAll(() => h?.close());

let counter = 0;
async function player(name = "rider"): Promise<UserRow> {
  counter += 1;
  const username = `${name}${counter}`;
  return createAccount(db, {
    username,
    email: `${username}@example.com`,
    passwordHash: "test:unusable",
    emailConfirmed: true,
  });
}

/** Everything the league services can write, in a stable order. */
async function snapshot() {
  const [l, m, i] = await Promise.all([
    db.select().from(leagues).orderBy(asc(leagues.id)),
    db.select().from(leagueMembers).orderBy(asc(leagueMembers.leagueId), asc(leagueMembers.userId)),
    db.select().from(leagueInvitations).orderBy(asc(leagueInvitations.id)),
  ]);
  return { leagues: l, members: m, invitations: i };
}

async function created(owner: LeagueActor, name = "Friday Shredders") {
  const r = await createLeague(db, owner, name);
  if (!r.ok) throw new Error(`create failed: ${r.reason}`);
  return r.league;
}

async function membersOf(leagueId: number) {
  return db
    .select()
    .from(leagueMembers)
    .where(eq(leagueMembers.leagueId, leagueId))
    .orderBy(asc(leagueMembers.joinedAt), asc(leagueMembers.userId));
}

async function setScore(leagueId: number, userId: number, score: number) {
  await putLeagueMemberPoints(db, leagueId, userId, score);
}

async function leagueRow(id: number) {
  const [row] = await db.select().from(leagues).where(eq(leagues.id, id));
  return row;
}

describe("createLeague", () => {
  it("makes the owner the only member (accepted, score 0), no invitations, 0 points", async () => {
    const owner = await player();
    const r = await createLeague(db, owner, "  Sunday Gravity Crew  ");
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.league.name).toBe("Sunday Gravity Crew");
    const row = await leagueRow(r.league.id);
    expect(row).toMatchObject({ ownerId: owner.id, totalPoints: 0, name: "Sunday Gravity Crew" });
    expect(row!.joinCode).toMatch(/^[A-Za-z0-9_-]{16}$/);
    const members = await membersOf(r.league.id);
    expect(members).toEqual([expect.objectContaining({ userId: owner.id, status: "accepted" })]);
    const view = await getLeagueForUser(db, owner, r.league.id);
    expect(view).toMatchObject({ role: "owner", invited: [], totalPoints: 0 });
  });

  it("refuses a visitor, a blank name and an over-long name, writing nothing", async () => {
    const owner = await player();
    const before = await snapshot();
    expect(await createLeague(db, null, "Visitors")).toEqual({ ok: false, reason: "signed-out" });
    expect(await createLeague(db, owner, "   ")).toEqual({
      ok: false,
      reason: "invalid",
      message: "Give your league a name.",
    });
    expect(await createLeague(db, owner, undefined)).toMatchObject({ reason: "invalid" });
    const long = await createLeague(db, owner, "x".repeat(LEAGUE_NAME_MAX + 1));
    expect(long).toMatchObject({ ok: false, reason: "invalid" });
    expect(await snapshot()).toEqual(before);
  });

  it("draws a different join code for every league", async () => {
    const codes = new Set<string>();
    // A player owns ten leagues at most: two owners.
    const owners = [await player(), await player()];
    for (let i = 0; i < 20; i++) {
      codes.add((await created(owners[i % 2]!, `League ${i}`)).joinCode);
    }
    expect(codes.size).toBe(20);
  });
});

describe("invitations", () => {
  it("invites by normalised e-mail; the invited player accepts case-insensitively", async () => {
    const owner = await player();
    const guest = await player("guest");
    const league = await created(owner);
    const r = await inviteToLeague(db, owner, league.id, `  ${guest.email.toUpperCase()} `);
    expect(r).toMatchObject({ ok: true, outcome: "invited", email: guest.email });
    const invitedView = await getLeagueForUser(db, guest, league.id);
    expect(invitedView).toMatchObject({ role: "invited", invitedBy: owner.username });
    expect(await getLeagueForUser(db, owner, league.id)).toMatchObject({
      invited: [{ email: guest.email, status: "pending" }],
    });

    // The player's e-mail differs only in case from the invited one: still theirs.
    const accepted = await acceptInvitation(
      db,
      { id: guest.id, email: guest.email.toUpperCase() },
      league.id,
    );
    expect(accepted).toEqual({ ok: true, league: { id: league.id, name: league.name } });
    const view = await getLeagueForUser(db, guest, league.id);
    expect(view?.role).toBe("member");
    expect(view?.invited).toEqual([]);
    expect(view?.members.map((m) => [m.username, m.score, m.status])).toEqual(
      expect.arrayContaining([
        [owner.username, 0, "accepted"],
        [guest.username, 0, "accepted"],
      ]),
    );
  });

  it("lets any member invite, and says so when the guest is already in or already invited", async () => {
    const owner = await player();
    const member = await player();
    const league = await created(owner);
    await inviteToLeague(db, owner, league.id, member.email);
    await acceptInvitation(db, member, league.id);

    const fresh = await inviteToLeague(db, member, league.id, "newcomer@example.com");
    expect(fresh).toMatchObject({ ok: true, outcome: "invited", inviter: member.username });

    const before = await snapshot();
    expect(await inviteToLeague(db, owner, league.id, "NEWCOMER@example.com")).toMatchObject({
      ok: true,
      outcome: "already-invited",
    });
    expect(await inviteToLeague(db, member, league.id, owner.email)).toMatchObject({
      ok: true,
      outcome: "already-member",
    });
    expect(await inviteToLeague(db, owner, league.id, owner.email)).toMatchObject({
      outcome: "already-member",
    });
    expect(await snapshot()).toEqual(before);
  });

  it("validates the guest e-mail with the shared schema", async () => {
    const owner = await player();
    const league = await created(owner);
    const before = await snapshot();
    expect(await inviteToLeague(db, owner, league.id, "  ")).toEqual({
      ok: false,
      reason: "invalid",
      message: "Enter your guest's e-mail address.",
    });
    expect(await inviteToLeague(db, owner, league.id, "not-an-email")).toEqual({
      ok: false,
      reason: "invalid",
      message: "Enter a valid e-mail address.",
    });
    expect(await inviteToLeague(db, owner, league.id, 42)).toMatchObject({ reason: "invalid" });
    expect(await snapshot()).toEqual(before);
  });

  it(`caps a league at ${MAX_PENDING_INVITATIONS} open invitations`, async () => {
    const owner = await player();
    const league = await created(owner);
    await db.insert(leagueInvitations).values(
      Array.from({ length: MAX_PENDING_INVITATIONS }, (_, i) => ({
        leagueId: league.id,
        email: `guest${i}@example.com`,
        invitedBy: owner.id,
      })),
    );
    const before = await snapshot();
    expect(await inviteToLeague(db, owner, league.id, "one-more@example.com")).toEqual({
      ok: false,
      reason: "limit",
    });
    // Re-inviting someone already invited is still just "already invited".
    expect(await inviteToLeague(db, owner, league.id, "guest3@example.com")).toMatchObject({
      outcome: "already-invited",
    });
    expect(await snapshot()).toEqual(before);
  });

  it("dismiss removes only the invitation; the league and other invitations stay", async () => {
    const owner = await player();
    const guest = await player();
    const league = await created(owner);
    await inviteToLeague(db, owner, league.id, guest.email);
    await inviteToLeague(db, owner, league.id, "someone@example.com");
    expect(await dismissInvitation(db, guest, league.id)).toEqual({ ok: true });
    expect(await getLeagueForUser(db, guest, league.id)).toBeNull();
    expect((await getLeagueForUser(db, owner, league.id))?.invited).toEqual([
      { id: expect.any(Number), email: "someone@example.com", status: "pending" },
    ]);
    expect(await membersOf(league.id)).toHaveLength(1);
  });

  it("an invited player sees the league but not the other guests' e-mails or the join code", async () => {
    const owner = await player();
    const guest = await player();
    const league = await created(owner);
    await inviteToLeague(db, owner, league.id, guest.email);
    await inviteToLeague(db, owner, league.id, "private@example.com");
    const view = await getLeagueForUser(db, guest, league.id);
    expect(view).toMatchObject({ role: "invited", invited: [], joinCode: null });
    expect(view?.members.map((m) => m.username)).toEqual([owner.username]);
    const listed = await listLeaguesForUser(db, guest);
    expect(listed.map((l) => l.id)).toContain(league.id);
  });
});

describe("authorisation matrix", () => {
  type Role = "visitor" | "non-member" | "invited" | "member" | "owner";
  type Action = "view" | "invite" | "accept" | "dismiss" | "leave" | "delete";
  const roles: Role[] = ["visitor", "non-member", "invited", "member", "owner"];
  const actions: Action[] = ["view", "invite", "accept", "dismiss", "leave", "delete"];
  const allowed: Record<Action, Role[]> = {
    view: ["invited", "member", "owner"],
    invite: ["member", "owner"],
    accept: ["invited"],
    dismiss: ["invited"],
    leave: ["member", "owner"],
    delete: ["owner"],
  };

  let cast: Record<Exclude<Role, "visitor">, UserRow>;
  beforeAll(async () => {
    cast = {
      owner: await player("owner"),
      member: await player("member"),
      invited: await player("invited"),
      "non-member": await player("stranger"),
    };
  });

  /** A league with an owner, a second member and a pending invitation. */
  async function arena() {
    // Every cell starts afresh: the owner's earlier arenas and the day's invitation counts go
    // (the caps on leagues and invitations have tests of their own).
    await db.delete(leagues).where(eq(leagues.ownerId, cast.owner.id));
    await db.delete(rateLimits);
    const league = await created(cast.owner, "Matrix League");
    await inviteToLeague(db, cast.owner, league.id, cast.member.email);
    await acceptInvitation(db, cast.member, league.id);
    await inviteToLeague(db, cast.owner, league.id, cast.invited.email);
    return league.id;
  }

  function actorFor(role: Role): LeagueActor | null {
    return role === "visitor" ? null : cast[role];
  }

  /** Runs one action; true when the service let it through. */
  async function attempt(action: Action, actor: LeagueActor | null, leagueId: number) {
    switch (action) {
      case "view": {
        const one = await getLeagueForUser(db, actor, leagueId);
        const all = await listLeaguesForUser(db, actor);
        expect(all.some((l) => l.id === leagueId)).toBe(one !== null);
        return one !== null;
      }
      case "invite":
        return (await inviteToLeague(db, actor, leagueId, "matrix-guest@example.com")).ok;
      case "accept":
        return (await acceptInvitation(db, actor, leagueId)).ok;
      case "dismiss":
        return (await dismissInvitation(db, actor, leagueId)).ok;
      case "leave":
        return (await leaveLeague(db, actor, leagueId)).ok;
      case "delete":
        return (await deleteLeague(db, actor, leagueId)).ok;
    }
  }

  for (const action of actions) {
    for (const role of roles) {
      const expected = allowed[action].includes(role);
      it(`${role} ${expected ? "may" : "may not"} ${action}`, async () => {
        const leagueId = await arena();
        const before = await snapshot();
        const ok = await attempt(action, actorFor(role), leagueId);
        expect(ok).toBe(expected);
        const after = await snapshot();
        if (!expected || action === "view") {
          expect(after).toEqual(before);
        } else {
          expect(after).not.toEqual(before);
        }
      });
    }
  }

  const forged = [0, -1, 1.5, Number.NaN, 2 ** 31, Number.MAX_SAFE_INTEGER, 987_654];
  for (const action of actions) {
    it(`${action} with forged league ids changes nothing for anybody`, async () => {
      await arena();
      const before = await snapshot();
      for (const role of roles) {
        for (const id of forged) {
          expect(await attempt(action, actorFor(role), id)).toBe(false);
        }
      }
      expect(await snapshot()).toEqual(before);
    });
  }

  it("a non-owner's delete is refused without a trace, whoever asks", async () => {
    const leagueId = await arena();
    const before = await snapshot();
    expect(await deleteLeague(db, cast.member, leagueId)).toEqual({
      ok: false,
      reason: "forbidden",
    });
    expect(await deleteLeague(db, cast["non-member"], leagueId)).toEqual({
      ok: false,
      reason: "not-found",
    });
    expect(await snapshot()).toEqual(before);
  });

  it("an invitation accepted by the wrong player stays put", async () => {
    const leagueId = await arena();
    const before = await snapshot();
    // Same id, different e-mail: the e-mail decides, not who claims it.
    const impostor = { id: cast["non-member"].id, email: cast["non-member"].email };
    expect((await acceptInvitation(db, impostor, leagueId)).ok).toBe(false);
    expect((await dismissInvitation(db, impostor, leagueId)).ok).toBe(false);
    expect(await snapshot()).toEqual(before);
  });
});

describe("league score", () => {
  it("is the average of accepted members' scores and follows every membership change", async () => {
    const owner = await player();
    const a = await player();
    const b = await player();
    const league = await created(owner);
    await inviteToLeague(db, owner, league.id, a.email);
    await acceptInvitation(db, a, league.id);
    await setScore(league.id, owner.id, 30);
    await setScore(league.id, a.id, 51);
    expect(await recomputeLeagueTotal(db, league.id)).toBe(40.5);

    // A pending invitation does not count.
    await inviteToLeague(db, owner, league.id, b.email);
    expect((await leagueRow(league.id))?.totalPoints).toBe(40.5);

    // Joining with 0 pulls the average down: (30 + 51 + 0) / 3.
    await acceptInvitation(db, b, league.id);
    expect((await leagueRow(league.id))?.totalPoints).toBe(27);

    await leaveLeague(db, owner, league.id);
    expect((await leagueRow(league.id))?.totalPoints).toBe(25.5);
  });

  it("matches leagueScore over any scores and any sequence of leaves (property)", async () => {
    const owner = await player();
    const pool = [owner, await player(), await player(), await player(), await player()];
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 600 }), { minLength: 5, maxLength: 5 }),
        fc.array(fc.integer({ min: 0, max: 4 }), { maxLength: 4 }),
        async (scores, leavers) => {
          // Each run's league is new; the earlier ones go (a player owns ten at most).
          await db.delete(leagues).where(eq(leagues.ownerId, owner.id));
          const league = await created(owner, "Property League");
          for (const p of pool.slice(1)) {
            await joinByCode(db, p, league.joinCode);
          }
          for (const [i, p] of pool.entries()) await setScore(league.id, p.id, scores[i]!);
          await recomputeLeagueTotal(db, league.id);
          for (const i of leavers) await leaveLeague(db, pool[i]!, league.id);
          const left = new Set(leavers);
          const remaining = scores
            .filter((_, i) => !left.has(i))
            .map((score) => ({ score, status: "accepted" }));
          const row = await leagueRow(league.id);
          if (remaining.length === 0) {
            expect(row).toBeUndefined();
          } else {
            expect(row?.totalPoints).toBe(leagueScore(remaining));
            expect(await membersOf(league.id)).toHaveLength(remaining.length);
          }
          if (row) await deleteLeague(db, { id: row.ownerId, email: "" }, league.id);
        },
      ),
      { numRuns: 25 },
    );
  });
});

describe("leaving", () => {
  it("hands an owner's league to the longest-standing member", async () => {
    const owner = await player();
    const early = await player();
    const late = await player();
    const league = await created(owner);
    await joinByCode(db, late, league.joinCode);
    await joinByCode(db, early, league.joinCode);
    // Pin the join order explicitly: "early" joined before "late".
    await db
      .update(leagueMembers)
      .set({ joinedAt: new Date("2026-01-01T00:00:00Z") })
      .where(and(eq(leagueMembers.leagueId, league.id), eq(leagueMembers.userId, early.id)));
    await db
      .update(leagueMembers)
      .set({ joinedAt: new Date("2026-02-01T00:00:00Z") })
      .where(and(eq(leagueMembers.leagueId, league.id), eq(leagueMembers.userId, late.id)));

    const r = await leaveLeague(db, owner, league.id);
    expect(r).toEqual({
      ok: true,
      outcome: "ownership-passed",
      newOwner: { id: early.id, username: early.username },
    });
    expect((await leagueRow(league.id))?.ownerId).toBe(early.id);
    expect(await getLeagueForUser(db, owner, league.id)).toBeNull();
    expect((await deleteLeague(db, early, league.id)).ok).toBe(true);
  });

  it("deletes the league (and its invitations) when the last member leaves", async () => {
    const owner = await player();
    const league = await created(owner);
    await inviteToLeague(db, owner, league.id, "pending@example.com");
    expect(await leaveLeague(db, owner, league.id)).toEqual({
      ok: true,
      outcome: "league-deleted",
    });
    expect(await leagueRow(league.id)).toBeUndefined();
    const left = await db
      .select()
      .from(leagueInvitations)
      .where(eq(leagueInvitations.leagueId, league.id));
    expect(left).toEqual([]);
  });

  it("a plain member leaves; the owner stays", async () => {
    const owner = await player();
    const m = await player();
    const league = await created(owner);
    await joinByCode(db, m, league.joinCode);
    expect(await leaveLeague(db, m, league.id)).toEqual({ ok: true, outcome: "left" });
    expect((await leagueRow(league.id))?.ownerId).toBe(owner.id);
    expect(await leaveLeague(db, m, league.id)).toEqual({ ok: false, reason: "not-found" });
  });
});

describe("join codes", () => {
  it("joins through the link, settles an open invitation, and is idempotent", async () => {
    const owner = await player();
    const guest = await player();
    const league = await created(owner, "Link League");
    await inviteToLeague(db, owner, league.id, guest.email);
    expect(await getLeagueByJoinCode(db, league.joinCode)).toEqual({
      id: league.id,
      name: "Link League",
      memberCount: 1,
    });
    expect(await joinByCode(db, guest, league.joinCode)).toEqual({
      ok: true,
      outcome: "joined",
      league: { id: league.id, name: "Link League" },
    });
    expect((await getLeagueForUser(db, owner, league.id))?.invited).toEqual([]);
    expect(await joinByCode(db, guest, league.joinCode)).toMatchObject({
      ok: true,
      outcome: "already-member",
    });
    expect(await joinByCode(db, null, league.joinCode)).toEqual({
      ok: false,
      reason: "signed-out",
    });
  });

  it("only the owner resets the code; the old link stops working", async () => {
    const owner = await player();
    const member = await player();
    const stranger = await player();
    const league = await created(owner);
    await joinByCode(db, member, league.joinCode);

    const before = await snapshot();
    expect(await resetJoinCode(db, member, league.id)).toEqual({ ok: false, reason: "forbidden" });
    expect(await resetJoinCode(db, stranger, league.id)).toEqual({
      ok: false,
      reason: "not-found",
    });
    expect(await resetJoinCode(db, null, league.id)).toEqual({ ok: false, reason: "signed-out" });
    expect(await snapshot()).toEqual(before);

    const r = await resetJoinCode(db, owner, league.id);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.joinCode).not.toBe(league.joinCode);
    expect(await getLeagueByJoinCode(db, league.joinCode)).toBeNull();
    expect(await joinByCode(db, stranger, league.joinCode)).toEqual({
      ok: false,
      reason: "not-found",
    });
    expect((await joinByCode(db, stranger, r.joinCode)).ok).toBe(true);
  });

  it("rejects malformed codes without touching the database", async () => {
    const p = await player();
    for (const code of ["", "short", "a".repeat(65), "has space in it", "../../etc/passwd"]) {
      expect(await getLeagueByJoinCode(db, code)).toBeNull();
      expect(await joinByCode(db, p, code)).toEqual({ ok: false, reason: "not-found" });
    }
  });
});
