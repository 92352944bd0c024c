/**
 * The independent probe's findings on leagues (decision 0151): an invited address registered by
 * someone else, invited addresses shown to every member, invitations as a spam channel, and
 * unlimited leagues.
 */
import {
  INVITATIONS_PER_DAY,
  INVITATIONS_PER_RECIPIENT_PER_DAY,
  MAX_OWNED_LEAGUES,
} from "@game/core";
import { eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db, DbHandle } from "../client.js";
import { leagueInvitations, leagueMembers, leagues } from "../schema/index.js";
import { createTestDb } from "../testing.js";
import { confirmEmail, createEmailConfirmation } from "./email-confirmation.js";
import {
  acceptInvitation,
  createLeague,
  deleteLeague,
  dismissInvitation,
  getLeagueForUser,
  inviteToLeague,
  joinByCode,
  type LeagueActor,
  listLeaguesForUser,
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
/** A player who confirmed their address long ago, or (`confirmed: false`) a fresh sign-up. */
async function player(opts: { email?: string; confirmed?: boolean } = {}): Promise<UserRow> {
  counter += 1;
  const username = `abuse${counter}`;
  return createAccount(db, {
    username,
    email: opts.email ?? `${username}@example.com`,
    passwordHash: "test:unusable",
    emailConfirmed: opts.confirmed ?? true,
  });
}

async function league(owner: LeagueActor, name = "Friday Shredders") {
  const r = await createLeague(db, owner, name);
  if (!r.ok) throw new Error(`create failed: ${r.reason}`);
  return r.league;
}

describe("an invited address registered by someone else", () => {
  it("shows the squatter no invitation and lets them accept, dismiss or join nothing", async () => {
    const owner = await player();
    const friend = await player();
    const private_ = await league(owner, "Private Crew");
    await joinByCode(db, friend, private_.joinCode);
    await inviteToLeague(db, owner, private_.id, "victim@mail.example");

    // The probe: sign up with the invited address, look, accept.
    const squatter = await player({ email: "victim@mail.example", confirmed: false });
    expect(await listLeaguesForUser(db, squatter)).toEqual([]);
    expect(await getLeagueForUser(db, squatter, private_.id)).toBeNull();
    expect(await acceptInvitation(db, squatter, private_.id)).toEqual({
      ok: false,
      reason: "unconfirmed",
    });
    expect(await dismissInvitation(db, squatter, private_.id)).toEqual({
      ok: false,
      reason: "unconfirmed",
    });
    expect(await joinByCode(db, squatter, private_.joinCode)).toEqual({
      ok: false,
      reason: "unconfirmed",
    });
    // The same answer for a league that never invited the address: nothing to learn from it.
    const other = await league(friend, "Other");
    expect(await acceptInvitation(db, squatter, other.id)).toEqual({
      ok: false,
      reason: "unconfirmed",
    });
    const members = await db
      .select()
      .from(leagueMembers)
      .where(eq(leagueMembers.userId, squatter.id));
    expect(members).toEqual([]);
    const open = await db
      .select()
      .from(leagueInvitations)
      .where(eq(leagueInvitations.leagueId, private_.id));
    expect(open.map((i) => i.email)).toEqual(["victim@mail.example"]);
  });

  it("lets the owner of the address in once they confirm it with the mailed link", async () => {
    const owner = await player();
    const l = await league(owner);
    const guest = await player({ email: "newcomer@mail.example", confirmed: false });
    await inviteToLeague(db, owner, l.id, guest.email);
    expect(await getLeagueForUser(db, guest, l.id)).toBeNull();
    const link = await createEmailConfirmation(db, guest.id);
    expect(await confirmEmail(db, link!.token)).toMatchObject({ userId: guest.id });
    expect(await getLeagueForUser(db, guest, l.id)).toMatchObject({ role: "invited" });
    expect(await acceptInvitation(db, guest, l.id)).toMatchObject({ ok: true });
  });

  it("an unconfirmed player sends no invitations", async () => {
    const fresh = await player({ confirmed: false });
    const l = await league(fresh, "Fresh League");
    expect(await inviteToLeague(db, fresh, l.id, "someone@mail.example")).toEqual({
      ok: false,
      reason: "unconfirmed",
    });
    expect(
      await db.select().from(leagueInvitations).where(eq(leagueInvitations.leagueId, l.id)),
    ).toEqual([]);
  });
});

describe("invited addresses on the league card", () => {
  it("are the owner's to read; other members see them masked", async () => {
    const owner = await player();
    const member = await player();
    const l = await league(owner);
    await joinByCode(db, member, l.joinCode);
    await inviteToLeague(db, owner, l.id, "Bob.Private@Example.com");
    await inviteToLeague(db, member, l.id, "carol@mail.example");
    expect((await getLeagueForUser(db, owner, l.id))!.invited).toEqual([
      { id: expect.any(Number), email: "bob.private@example.com", status: "pending" },
      { id: expect.any(Number), email: "carol@mail.example", status: "pending" },
    ]);
    const seen = (await getLeagueForUser(db, member, l.id))!.invited;
    expect(seen).toEqual([
      { id: expect.any(Number), email: "b***@e***.com", status: "pending" },
      { id: expect.any(Number), email: "c***@m***.example", status: "pending" },
    ]);
    expect(JSON.stringify(await listLeaguesForUser(db, member))).not.toMatch(/bob\.private|carol@/);
  });
});

describe("invitations as a spam channel", () => {
  const t0 = new Date("2027-05-01T08:00:00Z");
  const later = (hours: number) => new Date(t0.getTime() + hours * 3_600_000);

  it(`caps one player at ${INVITATIONS_PER_DAY} invitations a day, across leagues`, async () => {
    const owner = await player();
    const first = await league(owner, "First");
    const second = await league(owner, "Second");
    for (let i = 0; i < INVITATIONS_PER_DAY; i++) {
      const l = i % 2 ? first : second;
      const r = await inviteToLeague(db, owner, l.id, `guest${i}@daily.example`, { now: t0 });
      expect(r).toMatchObject({ ok: true, outcome: "invited" });
    }
    expect(
      await inviteToLeague(db, owner, first.id, "one-more@daily.example", { now: t0 }),
    ).toEqual({ ok: false, reason: "daily-limit" });
    // Re-inviting an invited address sends nothing and is still answered as before.
    expect(
      await inviteToLeague(db, owner, second.id, "guest0@daily.example", { now: later(1) }),
    ).toMatchObject({ ok: true, outcome: "already-invited" });
    expect(
      await inviteToLeague(db, owner, first.id, "one-more@daily.example", { now: later(25) }),
    ).toMatchObject({ ok: true, outcome: "invited" });
  });

  it(`lets one address receive ${INVITATIONS_PER_RECIPIENT_PER_DAY} invitations a day, from every league together`, async () => {
    // The probe: twelve leagues invited one address twelve times.
    const inviters = await Promise.all(Array.from({ length: 6 }, () => player()));
    const spamLeagues = [];
    for (const p of inviters) spamLeagues.push(await league(p, "WIN 500 EUR now"));
    const outcomes = [];
    for (const [i, l] of spamLeagues.entries()) {
      // "+tags" reach the same mailbox: they share its cap.
      const to = i % 2 === 0 ? "Target@Victim.example" : `target+${i}@victim.example`;
      const r = await inviteToLeague(db, inviters[i]!, l.id, to, { now: t0 });
      outcomes.push(r.ok ? r.outcome : r.reason);
    }
    const allowed = INVITATIONS_PER_RECIPIENT_PER_DAY;
    expect(outcomes).toEqual([
      ...Array(allowed).fill("invited"),
      ...Array(spamLeagues.length - allowed).fill("recipient-limit"),
    ]);
    const open = await db
      .select()
      .from(leagueInvitations)
      .where(like(leagueInvitations.email, "target%@victim.example"));
    expect(open).toHaveLength(allowed);
    // A refused invitation is not charged to its sender's day.
    const refused = inviters[allowed]!;
    const own = spamLeagues[allowed]!;
    for (let i = 0; i < INVITATIONS_PER_DAY; i++) {
      const r = await inviteToLeague(db, refused, own.id, `friend${i}@sender.example`, { now: t0 });
      expect(r).toMatchObject({ ok: true, outcome: "invited" });
    }
    // The next day the address can be invited again.
    expect(
      await inviteToLeague(db, refused, own.id, "target@victim.example", { now: later(24) }),
    ).toMatchObject({ ok: true, outcome: "invited" });
  });

  it(`lets one player own ${MAX_OWNED_LEAGUES} leagues at most`, async () => {
    const owner = await player();
    const made = [];
    for (let i = 0; i < MAX_OWNED_LEAGUES; i++) made.push(await league(owner, `League ${i}`));
    expect(await createLeague(db, owner, "One too many")).toEqual({
      ok: false,
      reason: "league-limit",
    });
    expect(await db.select().from(leagues).where(eq(leagues.ownerId, owner.id))).toHaveLength(
      MAX_OWNED_LEAGUES,
    );
    expect(await deleteLeague(db, owner, made[0]!.id)).toMatchObject({ ok: true });
    expect(await createLeague(db, owner, "Room again")).toMatchObject({ ok: true });
  });

  it("counts leagues created at the same moment", async () => {
    const owner = await player();
    const attempts = await Promise.all(
      Array.from({ length: MAX_OWNED_LEAGUES + 3 }, (_, i) => createLeague(db, owner, `Race ${i}`)),
    );
    expect(attempts.filter((r) => r.ok)).toHaveLength(MAX_OWNED_LEAGUES);
  });
});
