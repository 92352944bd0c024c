import { asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db, DbHandle } from "../client.js";
import {
  auditLog,
  leagueInvitations,
  leagueMembers,
  leagueRemovals,
  leagues,
} from "../schema/index.js";
import { createTestDb, putLeagueMemberPoints } from "../testing.js";
import { listAudit } from "./audit.js";
import {
  acceptInvitation,
  createLeague,
  getLeagueForUser,
  inviteToLeague,
  isRemovedFromLeague,
  joinByCode,
  type LeagueActor,
  leaveLeague,
  listLeaguesForUser,
  removeLeagueMember,
} from "./leagues.js";
import { getRankingVersions } from "./ranking-versions.js";
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

/** Everything removing a member can write, in a stable order. */
async function snapshot() {
  const [l, m, i, r, a] = await Promise.all([
    db.select().from(leagues).orderBy(asc(leagues.id)),
    db.select().from(leagueMembers).orderBy(asc(leagueMembers.leagueId), asc(leagueMembers.userId)),
    db.select().from(leagueInvitations).orderBy(asc(leagueInvitations.id)),
    db
      .select()
      .from(leagueRemovals)
      .orderBy(asc(leagueRemovals.leagueId), asc(leagueRemovals.userId)),
    db.select().from(auditLog).orderBy(asc(auditLog.id)),
  ]);
  return { leagues: l, members: m, invitations: i, removals: r, audit: a };
}

async function created(owner: LeagueActor, name = "Sunday Gravity Crew") {
  const r = await createLeague(db, owner, name);
  if (!r.ok) throw new Error(`create failed: ${r.reason}`);
  return r.league;
}

async function setScore(leagueId: number, userId: number, score: number) {
  await putLeagueMemberPoints(db, leagueId, userId, score);
}

async function totalOf(leagueId: number) {
  const [row] = await db.select().from(leagues).where(eq(leagues.id, leagueId));
  return row?.totalPoints;
}

/** The league: two scoring members and one who joined by link with no team. */
async function draggedDown() {
  const owner = await player("owner");
  const friend = await player("friend");
  const drifter = await player("drifter");
  const league = await created(owner);
  await joinByCode(db, friend, league.joinCode);
  await setScore(league.id, owner.id, 300);
  await setScore(league.id, friend.id, 215);
  expect(await totalOf(league.id)).toBe(257.5);
  await joinByCode(db, drifter, league.joinCode);
  expect(await totalOf(league.id)).toBeCloseTo(171.67, 2);
  return { owner, friend, drifter, league };
}

describe("removeLeagueMember", () => {
  it("takes the member out, restores the average and records who did it", async () => {
    const { owner, drifter, league } = await draggedDown();
    const versions = await getRankingVersions(db);

    const r = await removeLeagueMember(db, {
      leagueId: league.id,
      owner,
      memberId: drifter.id,
    });
    expect(r).toEqual({
      ok: true,
      league: { id: league.id, name: league.name },
      member: { id: drifter.id, username: drifter.username, email: drifter.email },
      owner: { username: owner.username },
    });
    expect(await totalOf(league.id)).toBe(257.5);
    const view = await getLeagueForUser(db, owner, league.id);
    expect(view?.members.map((m) => m.userId)).not.toContain(drifter.id);
    // The removed player no longer sees the league anywhere.
    expect(await getLeagueForUser(db, drifter, league.id)).toBeNull();
    expect((await listLeaguesForUser(db, drifter)).map((l) => l.id)).not.toContain(league.id);

    // Cached league rankings and API answers see a new version.
    const after = await getRankingVersions(db);
    expect(after.leagues).toBe(versions.leagues + 1);
    expect(after.players).toBe(versions.players);

    const { rows } = await listAudit(db, { action: "league.remove-member" });
    expect(rows[0]).toMatchObject({
      actor: `web:${owner.email}`,
      actorId: owner.id,
      action: "league.remove-member",
      target: `league:${league.id}`,
      detail: {
        league: league.name,
        memberId: drifter.id,
        member: drifter.username,
        score: 0,
        totalPointsAfter: 257.5,
      },
    });
  });

  it("refuses anyone but the owner, the owner themselves and players not in the league", async () => {
    const { owner, friend, drifter, league } = await draggedDown();
    const stranger = await player("stranger");
    const invited = await player("invited");
    await inviteToLeague(db, owner, league.id, invited.email);
    const before = await snapshot();
    const remove = (actor: LeagueActor | null, memberId: number, leagueId = league.id) =>
      removeLeagueMember(db, { leagueId, owner: actor, memberId });

    expect(await remove(null, drifter.id)).toEqual({ ok: false, reason: "signed-out" });
    // A member may see the league but not remove from it; a stranger learns nothing.
    expect(await remove(friend, drifter.id)).toEqual({ ok: false, reason: "forbidden" });
    expect(await remove(friend, owner.id)).toEqual({ ok: false, reason: "forbidden" });
    expect(await remove(invited, drifter.id)).toEqual({ ok: false, reason: "forbidden" });
    expect(await remove(stranger, drifter.id)).toEqual({ ok: false, reason: "not-found" });
    expect(await remove(owner, owner.id)).toMatchObject({ ok: false, reason: "invalid" });
    // Invited is not a member yet; a stranger never was.
    expect(await remove(owner, invited.id)).toEqual({ ok: false, reason: "not-found" });
    expect(await remove(owner, stranger.id)).toEqual({ ok: false, reason: "not-found" });
    for (const forged of [0, -1, 1.5, Number.NaN, 2 ** 31, 987_654]) {
      expect(await remove(owner, forged)).toMatchObject({ ok: false });
      expect(await remove(owner, drifter.id, forged)).toMatchObject({ ok: false });
    }
    expect(await snapshot()).toEqual(before);
  });

  it("writes nothing when the audit record cannot be written (one transaction)", async () => {
    const { owner, drifter, league } = await draggedDown();
    const before = await snapshot();
    await db.execute(sql`alter table audit_log rename to audit_log_away`);
    try {
      await expect(
        removeLeagueMember(db, { leagueId: league.id, owner, memberId: drifter.id }),
      ).rejects.toThrow();
    } finally {
      await db.execute(sql`alter table audit_log_away rename to audit_log`);
    }
    expect(await snapshot()).toEqual(before);
  });

  it("keeps a removed player out of the join link until the owner invites them back", async () => {
    const { owner, friend, drifter, league } = await draggedDown();
    await removeLeagueMember(db, { leagueId: league.id, owner, memberId: drifter.id });

    expect(await isRemovedFromLeague(db, drifter, league.id)).toBe(true);
    expect(await isRemovedFromLeague(db, friend, league.id)).toBe(false);
    const before = await snapshot();
    expect(await joinByCode(db, drifter, league.joinCode)).toEqual({
      ok: false,
      reason: "removed",
    });
    // Another member cannot undo the owner's decision with an invitation of their own.
    expect(await inviteToLeague(db, friend, league.id, drifter.email.toUpperCase())).toEqual({
      ok: false,
      reason: "removed",
    });
    expect(await snapshot()).toEqual(before);

    // The owner's invitation lets them back in: by the link or by accepting.
    expect(await inviteToLeague(db, owner, league.id, drifter.email)).toMatchObject({
      ok: true,
      outcome: "invited",
    });
    expect(await isRemovedFromLeague(db, drifter, league.id)).toBe(false);
    expect(await joinByCode(db, drifter, league.joinCode)).toMatchObject({
      ok: true,
      outcome: "joined",
    });
    const marks = await db
      .select()
      .from(leagueRemovals)
      .where(eq(leagueRemovals.leagueId, league.id));
    expect(marks).toEqual([]);

    // Removed a second time, and back once more through an accepted invitation.
    expect(
      (await removeLeagueMember(db, { leagueId: league.id, owner, memberId: drifter.id })).ok,
    ).toBe(true);
    expect(await isRemovedFromLeague(db, drifter, league.id)).toBe(true);
    await inviteToLeague(db, owner, league.id, drifter.email);
    expect((await acceptInvitation(db, drifter, league.id)).ok).toBe(true);
    expect(await isRemovedFromLeague(db, drifter, league.id)).toBe(false);
  });

  it("clears the removed player's open invitations to the league", async () => {
    const owner = await player("owner");
    const member = await player("member");
    const league = await created(owner);
    await joinByCode(db, member, league.joinCode);
    // An invitation row left for the member's address (written before they joined some other way).
    await db
      .insert(leagueInvitations)
      .values({ leagueId: league.id, email: member.email, invitedBy: owner.id });
    expect(
      (await removeLeagueMember(db, { leagueId: league.id, owner, memberId: member.id })).ok,
    ).toBe(true);
    const left = await db
      .select()
      .from(leagueInvitations)
      .where(eq(leagueInvitations.leagueId, league.id));
    expect(left).toEqual([]);
    expect(await joinByCode(db, member, league.joinCode)).toEqual({
      ok: false,
      reason: "removed",
    });
  });

  it("lets a new owner decide: the removal stays, and only they may invite the player back", async () => {
    const { owner, friend, drifter, league } = await draggedDown();
    await removeLeagueMember(db, { leagueId: league.id, owner, memberId: drifter.id });
    expect(await leaveLeague(db, owner, league.id)).toMatchObject({ outcome: "ownership-passed" });
    expect(await joinByCode(db, drifter, league.joinCode)).toMatchObject({ reason: "removed" });
    expect(
      (await removeLeagueMember(db, { leagueId: league.id, owner, memberId: friend.id })).ok,
    ).toBe(false);
    expect(await inviteToLeague(db, friend, league.id, drifter.email)).toMatchObject({
      ok: true,
      outcome: "invited",
    });
  });
});
