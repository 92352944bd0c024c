/**
 * Concurrent league writes. On PostgreSQL (DATABASE_URL) they really interleave on a pool of
 * connections; on PGlite they are serialised by the engine, and the same invariants must hold.
 */
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Db, type DbHandle, rowsOf } from "../client.js";
import { leagueInvitations, leagueMembers, leagues } from "../schema/index.js";
import { createTestDb } from "../testing.js";
import {
  acceptInvitation,
  createLeague,
  deleteLeague,
  inviteToLeague,
  joinByCode,
  leaveLeague,
} from "./leagues.js";
import { createAccount, type UserRow } from "./users.js";

const ROUNDS = 30;

let h: DbHandle;
let db: Db;
let owner: UserRow;
let guest: UserRow;
beforeAll(async () => {
  h = await createTestDb({ max: 8 });
  db = h.db;
  owner = await createAccount(db, {
    username: "raceowner",
    email: "raceowner@example.com",
    passwordHash: "test:unusable",
    emailConfirmed: true,
  });
  guest = await createAccount(db, {
    username: "raceguest",
    email: "raceguest@example.com",
    passwordHash: "test:unusable",
    emailConfirmed: true,
  });
});
afterAll(() => h?.close());

async function newLeague() {
  const r = await createLeague(db, owner, "Race League");
  if (!r.ok) throw new Error(r.reason);
  return r.league;
}

/** Every league has at least one member, and its owner is one of them. */
async function expectConsistent() {
  const broken = rowsOf<{ id: number }>(
    await db.execute(sql`
      select l.id from ${leagues} l
      where not exists (
        select 1 from ${leagueMembers} m where m.league_id = l.id and m.user_id = l.owner_id
      )`),
  );
  expect(broken).toEqual([]);
}

async function rowsFor(leagueId: number) {
  const [l, m, i] = await Promise.all([
    db.select().from(leagues).where(eq(leagues.id, leagueId)),
    db.select().from(leagueMembers).where(eq(leagueMembers.leagueId, leagueId)),
    db.select().from(leagueInvitations).where(eq(leagueInvitations.leagueId, leagueId)),
  ]);
  return { league: l[0], members: m, invitations: i };
}

/** Runs both at once; neither may throw (an error would reach the player as a 500). */
async function together<A, B>(a: () => Promise<A>, b: () => Promise<B>): Promise<[A, B]> {
  const [ra, rb] = await Promise.allSettled([a(), b()]);
  if (ra.status === "rejected") throw ra.reason;
  if (rb.status === "rejected") throw rb.reason;
  return [ra.value, rb.value];
}

describe(`league races (${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  it("accept racing with delete never leaves a member in a deleted league", async () => {
    const outcomes = new Set<string>();
    for (let i = 0; i < ROUNDS; i++) {
      const league = await newLeague();
      await inviteToLeague(db, owner, league.id, guest.email);
      const [accepted, deleted] = await together(
        () => acceptInvitation(db, guest, league.id),
        () => deleteLeague(db, owner, league.id),
      );
      expect(deleted.ok).toBe(true);
      expect(accepted.ok || accepted.reason === "not-found").toBe(true);
      outcomes.add(accepted.ok ? "accepted-first" : "deleted-first");
      expect(await rowsFor(league.id)).toEqual({
        league: undefined,
        members: [],
        invitations: [],
      });
    }
    await expectConsistent();
    // Record which orders were seen; both are correct, neither may error.
    expect(outcomes.size).toBeGreaterThan(0);
  });

  it("joining by link racing with delete never leaves a member in a deleted league", async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const league = await newLeague();
      const [joined, deleted] = await together(
        () => joinByCode(db, guest, league.joinCode),
        () => deleteLeague(db, owner, league.id),
      );
      expect(deleted.ok).toBe(true);
      expect(joined.ok || joined.reason === "not-found").toBe(true);
      expect((await rowsFor(league.id)).members).toEqual([]);
    }
    await expectConsistent();
  });

  it("accept racing with the owner leaving: the league survives with its new owner or is gone", async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const league = await newLeague();
      await inviteToLeague(db, owner, league.id, guest.email);
      const [accepted, left] = await together(
        () => acceptInvitation(db, guest, league.id),
        () => leaveLeague(db, owner, league.id),
      );
      expect(left.ok).toBe(true);
      const after = await rowsFor(league.id);
      if (accepted.ok && left.ok && left.outcome === "ownership-passed") {
        expect(after.league?.ownerId).toBe(guest.id);
        expect(after.members.map((m) => m.userId)).toEqual([guest.id]);
        await deleteLeague(db, guest, league.id);
      } else {
        expect(accepted).toEqual({ ok: false, reason: "not-found" });
        expect(after).toEqual({ league: undefined, members: [], invitations: [] });
      }
    }
    await expectConsistent();
  });

  it("both members leaving at once delete the league exactly once", async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const league = await newLeague();
      await joinByCode(db, guest, league.joinCode);
      const [a, b] = await together(
        () => leaveLeague(db, owner, league.id),
        () => leaveLeague(db, guest, league.id),
      );
      const outcomes = [a, b].map((r) => (r.ok ? r.outcome : r.reason)).sort();
      expect(
        [
          ["league-deleted", "ownership-passed"],
          ["league-deleted", "left"],
        ].map(String),
      ).toContain(String(outcomes));
      expect(await rowsFor(league.id)).toEqual({
        league: undefined,
        members: [],
        invitations: [],
      });
    }
    await expectConsistent();
  });

  it("the same guest invited by several members at once gets one invitation", async () => {
    const league = await newLeague();
    const results = await Promise.all(
      Array.from({ length: 8 }, () => inviteToLeague(db, owner, league.id, "crowd@example.com")),
    );
    const outcomes = results.map((r) => (r.ok ? r.outcome : r.reason)).sort();
    expect(outcomes).toEqual([...Array(7).fill("already-invited"), "invited"]);
    expect((await rowsFor(league.id)).invitations).toHaveLength(1);
  });
});
