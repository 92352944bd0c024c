/**
 * Mini leagues. Every function takes the acting player (null for a visitor), checks permission
 * itself and returns a typed result: expected refusals are values, never thrown errors. Writes run
 * in one transaction that first locks the league row, so accept, join, leave, remove and delete of
 * the same league are serialised (no membership can be added to a league being deleted).
 */
import { randomBytes } from "node:crypto";
import {
  INVITATIONS_PER_DAY,
  INVITATIONS_PER_RECIPIENT_PER_DAY,
  inviteEmailSchema,
  leagueNameSchema,
  leagueScore,
  MAX_OWNED_LEAGUES,
  mailboxKey,
  maskEmail,
  normalizeEmail,
} from "@game/core";
import { and, asc, count, desc, eq, inArray, isNotNull, or, sql } from "drizzle-orm";
import { type DbOrTx, rowsOf, type Tx } from "../client.js";
import {
  competitions,
  leagueInvitations,
  leagueMembers,
  leagueRemovals,
  leagues,
  seasonStandings,
  users,
} from "../schema/index.js";
import { recordAudit, webActor } from "./audit.js";
import { CURRENT_COMPETITION_SQL } from "./competitions.js";
import { giveBack, hit } from "./rate-limits.js";

/** Who acts: the signed-in player's id and e-mail (invitations are matched by e-mail). */
export interface LeagueActor {
  id: number;
  email: string;
}

/** A league can hold at most this many open invitations: keeps invite mail from becoming spam. */
export const MAX_PENDING_INVITATIONS = 50;

const DAY_MS = 24 * 60 * 60 * 1000;

/** Invitations one player may send a day, across their leagues (core's rule, decision 0151). */
export const INVITER_DAILY_CAP = { limit: INVITATIONS_PER_DAY, windowMs: DAY_MS } as const;

/** Invitations one address may receive a day, from every league together. */
export const RECIPIENT_DAILY_CAP = {
  limit: INVITATIONS_PER_RECIPIENT_PER_DAY,
  windowMs: DAY_MS,
} as const;

/**
 * Why an action was refused. `not-found` covers both a league that does not exist and one the
 * actor may not see, so forged ids reveal nothing.
 */
export type LeagueRefusal =
  | { ok: false; reason: "signed-out" }
  | { ok: false; reason: "invalid"; message: string }
  | { ok: false; reason: "not-found" }
  | { ok: false; reason: "forbidden" }
  | { ok: false; reason: "limit" }
  /** The owner removed this player: only the owner's invitation lets them back in. */
  | { ok: false; reason: "removed" }
  /** The actor's e-mail address is not confirmed yet (decision 0151). */
  | { ok: false; reason: "unconfirmed" }
  /** The actor sent their invitations for the day (INVITATIONS_PER_DAY). */
  | { ok: false; reason: "daily-limit" }
  /** The address has had its invitations for the day (INVITATIONS_PER_RECIPIENT_PER_DAY). */
  | { ok: false; reason: "recipient-limit" }
  /** The actor owns MAX_OWNED_LEAGUES leagues already. */
  | { ok: false; reason: "league-limit" }
  /** Renewing: the league already plays the competition being played now, or was renewed. */
  | { ok: false; reason: "renewed"; message: string };

export type LeagueResult<T extends object = object> = ({ ok: true } & T) | LeagueRefusal;

export interface LeagueMemberView {
  userId: number;
  username: string;
  score: number;
  status: "accepted";
  isOwner: boolean;
  joinedAt: Date;
}

export interface LeagueInvitationView {
  /** The invitation's id: masked addresses can look alike, this tells them apart. */
  id: number;
  email: string;
  status: "pending";
}

export interface LeagueView {
  id: number;
  name: string;
  ownerId: number;
  totalPoints: number;
  ranking: number | null;
  /** How the actor relates to the league. */
  role: "owner" | "member" | "invited";
  members: LeagueMemberView[];
  /**
   * Open invitations; only members see them, and only the owner sees the addresses in full
   * (other members see them masked, `b***@e***.com`: a guest's address is not the league's).
   */
  invited: LeagueInvitationView[];
  /** The shareable join code; only members see it. */
  joinCode: string | null;
  /** For an invited player: who invited them. */
  invitedBy: string | null;
  /** The competition the league plays (docs/decisions/0158). */
  competition: { slug: string; name: string };
  /**
   * For the owner of a league of an earlier competition, not yet renewed: the competition being
   * played now, which `renewLeague` would renew it into; else null.
   */
  renewInto: { slug: string; name: string } | null;
}

const MAX_INT = 2_147_483_647;

function validId(id: unknown): id is number {
  return typeof id === "number" && Number.isSafeInteger(id) && id > 0 && id <= MAX_INT;
}

const JOIN_CODE = /^[A-Za-z0-9_-]{8,64}$/;

/** 96 random bits, URL-safe: unguessable, short enough to share. */
export function newJoinCode(): string {
  return randomBytes(12).toString("base64url");
}

function invalid(error: { issues: readonly { message: string }[] }): LeagueRefusal {
  return { ok: false, reason: "invalid", message: error.issues[0]?.message ?? "Invalid input." };
}

const SIGNED_OUT = { ok: false, reason: "signed-out" } as const;
const NOT_FOUND = { ok: false, reason: "not-found" } as const;
const FORBIDDEN = { ok: false, reason: "forbidden" } as const;
const REMOVED = { ok: false, reason: "removed" } as const;
const UNCONFIRMED = { ok: false, reason: "unconfirmed" } as const;

/**
 * Whether the player has confirmed their e-mail address: invitations are matched by address, so
 * until then they are not theirs to see or accept, and no league takes them in by link.
 */
async function confirmed(tx: DbOrTx, userId: number): Promise<boolean> {
  const [row] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), isNotNull(users.emailConfirmedAt)));
  return row !== undefined;
}

/** The league row, locked until the transaction ends; undefined when it does not exist. */
async function lockLeague(tx: Tx, leagueId: number) {
  const [row] = await tx.select().from(leagues).where(eq(leagues.id, leagueId)).for("update");
  return row;
}

type LockedLeague = NonNullable<Awaited<ReturnType<typeof lockLeague>>>;

/**
 * The shared guard of the league actions: a signed-in actor, a valid id, then `fn` in one
 * transaction with the league row locked (unknown leagues are not found).
 */
function withLockedLeague<T extends LeagueResult>(
  db: DbOrTx,
  actor: LeagueActor | null,
  leagueId: number,
  fn: (tx: Tx, league: LockedLeague, actor: LeagueActor) => Promise<T>,
): Promise<T | typeof SIGNED_OUT | typeof NOT_FOUND> {
  if (!actor) return Promise.resolve(SIGNED_OUT);
  if (!validId(leagueId)) return Promise.resolve(NOT_FOUND);
  return db.transaction(async (tx) => {
    const league = await lockLeague(tx, leagueId);
    if (!league) return NOT_FOUND;
    return fn(tx, league, actor);
  });
}

/** A non-owner's answer: forbidden when they can see the league, else not found (no leak). */
async function refuseNonOwner(tx: Tx, leagueId: number, actor: LeagueActor) {
  return (await canSee(tx, leagueId, actor)) ? FORBIDDEN : NOT_FOUND;
}

async function isMember(tx: DbOrTx, leagueId: number, userId: number): Promise<boolean> {
  const [row] = await tx
    .select({ userId: leagueMembers.userId })
    .from(leagueMembers)
    .where(and(eq(leagueMembers.leagueId, leagueId), eq(leagueMembers.userId, userId)));
  return row !== undefined;
}

/** The open invitation of an e-mail address (normalised) to a league, if any. */
async function invitationOf(tx: DbOrTx, leagueId: number, email: string) {
  const [row] = await tx
    .select({ id: leagueInvitations.id })
    .from(leagueInvitations)
    .where(and(eq(leagueInvitations.leagueId, leagueId), eq(leagueInvitations.email, email)));
  return row;
}

/** The actor's own open invitation to a league, if any (invitations are matched by e-mail). */
function ownInvitation(tx: DbOrTx, leagueId: number, actor: LeagueActor) {
  return invitationOf(tx, leagueId, normalizeEmail(actor.email));
}

/** Member or invited (the owner is always a member; an invitation needs a confirmed address). */
async function canSee(tx: DbOrTx, leagueId: number, actor: LeagueActor): Promise<boolean> {
  if (await isMember(tx, leagueId, actor.id)) return true;
  if ((await ownInvitation(tx, leagueId, actor)) === undefined) return false;
  return confirmed(tx, actor.id);
}

/** Whether the league's owner removed this player (and they have not rejoined since). */
async function wasRemoved(tx: DbOrTx, leagueId: number, userId: number): Promise<boolean> {
  const [row] = await tx
    .select({ userId: leagueRemovals.userId })
    .from(leagueRemovals)
    .where(and(eq(leagueRemovals.leagueId, leagueId), eq(leagueRemovals.userId, userId)));
  return row !== undefined;
}

/**
 * A member's score: their points in the league's competition, as its standings hold them (0
 * before they are ranked there). Nothing per member is stored (docs/decisions/0159).
 */
const memberScore = sql<number>`coalesce((
  select ${seasonStandings.points} from ${seasonStandings}
  where ${seasonStandings.competitionId} = ${leagues.competitionId}
    and ${seasonStandings.userId} = ${leagueMembers.userId}), 0)::int`;

/** Recomputes the league's totalPoints from its accepted members (spec: their average). */
export async function recomputeLeagueTotal(tx: DbOrTx, leagueId: number): Promise<number> {
  const rows = await tx
    .select({ score: memberScore, status: leagueMembers.status })
    .from(leagueMembers)
    .innerJoin(leagues, eq(leagues.id, leagueMembers.leagueId))
    .where(eq(leagueMembers.leagueId, leagueId));
  const total = leagueScore(rows);
  await tx.update(leagues).set({ totalPoints: total }).where(eq(leagues.id, leagueId));
  return total;
}

/**
 * Inserts a league with a fresh join code, retrying the (astronomically rare) code clash. It
 * plays the competition being played now unless another is given (docs/decisions/0158).
 */
async function insertLeague(
  tx: Tx,
  name: string,
  ownerId: number,
  extra: { competitionId?: number; renewedFrom?: number } = {},
) {
  for (let attempt = 0; ; attempt++) {
    const [row] = await tx
      .insert(leagues)
      .values({
        name,
        ownerId,
        joinCode: newJoinCode(),
        totalPoints: 0,
        competitionId: extra.competitionId ?? sql`${CURRENT_COMPETITION_SQL}`,
        renewedFrom: extra.renewedFrom,
      })
      .onConflictDoNothing({ target: leagues.joinCode })
      .returning();
    if (row) return row;
    if (attempt >= 4) throw new Error("could not draw a unique join code");
  }
}

/**
 * Creates a league: the owner is its only member (accepted, score 0), no invitations, 0 points.
 * A player owns at most MAX_OWNED_LEAGUES (`league-limit`).
 */
export async function createLeague(
  db: DbOrTx,
  actor: LeagueActor | null,
  name: unknown,
): Promise<LeagueResult<{ league: { id: number; name: string; joinCode: string } }>> {
  if (!actor) return SIGNED_OUT;
  const parsed = leagueNameSchema.safeParse(name);
  if (!parsed.success) return invalid(parsed.error);
  return db.transaction(async (tx) => {
    // The player's row, locked: two creations at once cannot both pass the count.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, actor.id)).for("update");
    // Counted per competition: renewing last year's leagues leaves room for this year's.
    const [{ owned } = { owned: 0 }] = await tx
      .select({ owned: count() })
      .from(leagues)
      .where(
        and(
          eq(leagues.ownerId, actor.id),
          sql`${leagues.competitionId} = ${CURRENT_COMPETITION_SQL}`,
        ),
      );
    if (owned >= MAX_OWNED_LEAGUES) return { ok: false as const, reason: "league-limit" as const };
    const [current] = rowsOf<{ id: number | null }>(
      await tx.execute(sql`select ${CURRENT_COMPETITION_SQL} as id`),
    );
    if (current?.id == null) {
      return {
        ok: false as const,
        reason: "invalid" as const,
        message: "There is no competition to play yet.",
      };
    }
    const league = await insertLeague(tx, parsed.data, actor.id);
    await tx
      .insert(leagueMembers)
      .values({ leagueId: league.id, userId: actor.id, status: "accepted" });
    return { ok: true, league: { id: league.id, name: league.name, joinCode: league.joinCode } };
  });
}

/**
 * Ids of the leagues the actor may see: member, owner, or invited by e-mail once the address is
 * confirmed (before that, whoever registered the address sees none of its invitations).
 */
async function visibleLeagueIds(db: DbOrTx, actor: LeagueActor): Promise<number[]> {
  const email = normalizeEmail(actor.email);
  const isConfirmed = db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, actor.id), isNotNull(users.emailConfirmedAt)));
  const rows = await db
    .select({ id: leagues.id })
    .from(leagues)
    .where(
      or(
        eq(leagues.ownerId, actor.id),
        inArray(
          leagues.id,
          db
            .select({ id: leagueMembers.leagueId })
            .from(leagueMembers)
            .where(eq(leagueMembers.userId, actor.id)),
        ),
        inArray(
          leagues.id,
          db
            .select({ id: leagueInvitations.leagueId })
            .from(leagueInvitations)
            .where(and(eq(leagueInvitations.email, email), sql`exists (${isConfirmed})`)),
        ),
      ),
    );
  return rows.map((r) => r.id);
}

/** Builds the views of the given leagues as `actor` may see them. */
async function viewsOf(db: DbOrTx, actor: LeagueActor, ids: number[]): Promise<LeagueView[]> {
  if (ids.length === 0) return [];
  const email = normalizeEmail(actor.email);
  const inviter = sql<
    string | null
  >`(select ${users.username} from ${users} where ${users.id} = ${leagueInvitations.invitedBy})`;
  const [leagueRows, memberRows, invitationRows, [current], renewedRows] = await Promise.all([
    db
      .select({
        league: leagues,
        competition: { id: competitions.id, slug: competitions.slug, name: competitions.name },
      })
      .from(leagues)
      .innerJoin(competitions, eq(competitions.id, leagues.competitionId))
      .where(inArray(leagues.id, ids))
      .orderBy(asc(leagues.name), asc(leagues.id)),
    db
      .select({
        leagueId: leagueMembers.leagueId,
        userId: leagueMembers.userId,
        username: users.username,
        score: memberScore,
        status: leagueMembers.status,
        joinedAt: leagueMembers.joinedAt,
      })
      .from(leagueMembers)
      .innerJoin(users, eq(users.id, leagueMembers.userId))
      .innerJoin(leagues, eq(leagues.id, leagueMembers.leagueId))
      .where(inArray(leagueMembers.leagueId, ids))
      .orderBy(desc(memberScore), asc(users.usernameKey)),
    db
      .select({
        id: leagueInvitations.id,
        leagueId: leagueInvitations.leagueId,
        email: leagueInvitations.email,
        status: leagueInvitations.status,
        invitedBy: inviter,
      })
      .from(leagueInvitations)
      .where(inArray(leagueInvitations.leagueId, ids))
      .orderBy(asc(leagueInvitations.createdAt), asc(leagueInvitations.id)),
    db
      .select({ id: competitions.id, slug: competitions.slug, name: competitions.name })
      .from(competitions)
      .where(sql`${competitions.id} = ${CURRENT_COMPETITION_SQL}`),
    db.select({ from: leagues.renewedFrom }).from(leagues).where(inArray(leagues.renewedFrom, ids)),
  ]);
  const renewed = new Set(renewedRows.map((r) => r.from));
  return leagueRows.map(({ league: l, competition }) => {
    const members = memberRows
      .filter((m) => m.leagueId === l.id)
      .map((m) => ({
        userId: m.userId,
        username: m.username,
        score: m.score,
        status: m.status,
        isOwner: m.userId === l.ownerId,
        joinedAt: m.joinedAt,
      }));
    const invitations = invitationRows.filter((i) => i.leagueId === l.id);
    const member = members.some((m) => m.userId === actor.id);
    const role = l.ownerId === actor.id ? "owner" : member ? "member" : "invited";
    const own = invitations.find((i) => i.email === email);
    return {
      id: l.id,
      name: l.name,
      ownerId: l.ownerId,
      totalPoints: l.totalPoints,
      ranking: l.ranking,
      role,
      members,
      invited:
        role === "invited"
          ? []
          : invitations.map((i) => ({
              id: i.id,
              email: role === "owner" ? i.email : maskEmail(i.email),
              status: i.status,
            })),
      joinCode: role === "invited" ? null : l.joinCode,
      invitedBy: role === "invited" ? (own?.invitedBy ?? null) : null,
      competition: { slug: competition.slug, name: competition.name },
      renewInto:
        role === "owner" && current && current.id !== competition.id && !renewed.has(l.id)
          ? { slug: current.slug, name: current.name }
          : null,
    } satisfies LeagueView;
  });
}

/** The leagues a player sees (member, owner or invited), by name. A visitor sees none. */
export async function listLeaguesForUser(
  db: DbOrTx,
  actor: LeagueActor | null,
): Promise<LeagueView[]> {
  if (!actor) return [];
  return viewsOf(db, actor, await visibleLeagueIds(db, actor));
}

/** One league as the actor sees it, or null when it does not exist or is not visible to them. */
export async function getLeagueForUser(
  db: DbOrTx,
  actor: LeagueActor | null,
  leagueId: number,
): Promise<LeagueView | null> {
  if (!actor || !validId(leagueId)) return null;
  const visible = await visibleLeagueIds(db, actor);
  if (!visible.includes(leagueId)) return null;
  const [view] = await viewsOf(db, actor, [leagueId]);
  return view ?? null;
}

export type InviteOutcome = "invited" | "already-member" | "already-invited";

/**
 * Invites an e-mail address. Any member whose own address is confirmed may invite. Inviting a
 * member or an already invited address changes nothing and says so. Each invitation counts
 * against the inviter's day (INVITATIONS_PER_DAY) and the guest's (INVITATIONS_PER_RECIPIENT_PER_
 * DAY), in the same transaction, so only invitations really made are counted. The caller sends
 * the e-mail after this commits.
 */
export async function inviteToLeague(
  db: DbOrTx,
  actor: LeagueActor | null,
  leagueId: number,
  email: unknown,
  opts: { now?: Date } = {},
): Promise<
  LeagueResult<{
    outcome: InviteOutcome;
    email: string;
    league: { id: number; name: string };
    inviter: string;
  }>
> {
  if (!actor) return SIGNED_OUT;
  if (!validId(leagueId)) return NOT_FOUND;
  const parsed = inviteEmailSchema.safeParse(email);
  if (!parsed.success) return invalid(parsed.error);
  const guest = parsed.data;
  return db.transaction(async (tx) => {
    const league = await lockLeague(tx, leagueId);
    if (!league || !(await isMember(tx, leagueId, actor.id))) return NOT_FOUND;
    const [inviter] = await tx
      .select({ username: users.username })
      .from(users)
      .where(eq(users.id, actor.id));
    const base = {
      ok: true as const,
      email: guest,
      league: { id: league.id, name: league.name },
      inviter: inviter?.username ?? "",
    };
    const [already] = await tx
      .select({ userId: leagueMembers.userId })
      .from(leagueMembers)
      .innerJoin(users, eq(users.id, leagueMembers.userId))
      .where(and(eq(leagueMembers.leagueId, leagueId), eq(users.email, guest)));
    if (already) return { ...base, outcome: "already-member" as const };
    // Whom the owner removed, only the owner may invite back (decision 0142).
    if (league.ownerId !== actor.id) {
      const [removed] = await tx
        .select({ userId: leagueRemovals.userId })
        .from(leagueRemovals)
        .innerJoin(users, eq(users.id, leagueRemovals.userId))
        .where(and(eq(leagueRemovals.leagueId, leagueId), eq(users.email, guest)));
      if (removed) return REMOVED;
    }
    if (await invitationOf(tx, leagueId, guest))
      return { ...base, outcome: "already-invited" as const };
    const [{ pending } = { pending: 0 }] = await tx
      .select({ pending: count() })
      .from(leagueInvitations)
      .where(eq(leagueInvitations.leagueId, leagueId));
    if (pending >= MAX_PENDING_INVITATIONS) return { ok: false as const, reason: "limit" as const };
    if (!(await confirmed(tx, actor.id))) return UNCONFIRMED;
    const capped = await takeInvitation(tx, actor.id, guest, opts.now ?? new Date());
    if (capped) return capped;
    await tx
      .insert(leagueInvitations)
      .values({ leagueId, email: guest, status: "pending", invitedBy: actor.id });
    return { ...base, outcome: "invited" as const };
  });
}

/**
 * Counts one invitation against the inviter's and the guest's day; the refusal when either is
 * spent (and then neither is charged: the counters' rows stay locked until the transaction ends,
 * so giving back is exact).
 */
async function takeInvitation(tx: Tx, inviterId: number, guest: string, now: Date) {
  const inviterKey = `league-invite-day:user:${inviterId}`;
  const mine = await hit(tx, inviterKey, { ...INVITER_DAILY_CAP, now });
  if (!mine.allowed) return { ok: false as const, reason: "daily-limit" as const };
  // Per mailbox: "+tags" of one address share its cap.
  const mailbox = mailboxKey(guest);
  const theirs = await hit(tx, `league-invite-day:to:${mailbox}`, { ...RECIPIENT_DAILY_CAP, now });
  if (theirs.allowed) return null;
  await giveBack(tx, inviterKey);
  return { ok: false as const, reason: "recipient-limit" as const };
}

/**
 * Adds an accepted member with score 0 (no-op when already in) and recomputes the average. A
 * removed player let back in (by an invitation) is no longer marked as removed.
 */
async function addMember(tx: Tx, leagueId: number, userId: number): Promise<boolean> {
  const added = await tx
    .insert(leagueMembers)
    .values({ leagueId, userId, status: "accepted" })
    .onConflictDoNothing()
    .returning({ userId: leagueMembers.userId });
  await tx
    .delete(leagueRemovals)
    .where(and(eq(leagueRemovals.leagueId, leagueId), eq(leagueRemovals.userId, userId)));
  await recomputeLeagueTotal(tx, leagueId);
  return added.length > 0;
}

/**
 * Accepts an invitation: only the invited e-mail (case-insensitive) may, once the player has
 * confirmed it (`unconfirmed` before, whether or not an invitation exists). The invitation is
 * removed and the player joins as an accepted member with score 0.
 */
export async function acceptInvitation(
  db: DbOrTx,
  actor: LeagueActor | null,
  leagueId: number,
): Promise<LeagueResult<{ league: { id: number; name: string } }>> {
  return withLockedLeague(db, actor, leagueId, async (tx, league, actor) => {
    if (!(await confirmed(tx, actor.id))) return UNCONFIRMED;
    const invitation = await ownInvitation(tx, leagueId, actor);
    if (!invitation) return NOT_FOUND;
    await tx.delete(leagueInvitations).where(eq(leagueInvitations.id, invitation.id));
    await addMember(tx, leagueId, actor.id);
    return { ok: true, league: { id: league.id, name: league.name } };
  });
}

/**
 * Declines an invitation: only the invited e-mail may, confirmed (whoever registered someone
 * else's address cannot throw their invitations away); the invitation is removed.
 */
export async function dismissInvitation(
  db: DbOrTx,
  actor: LeagueActor | null,
  leagueId: number,
): Promise<LeagueResult> {
  return withLockedLeague(db, actor, leagueId, async (tx, _league, actor) => {
    if (!(await confirmed(tx, actor.id))) return UNCONFIRMED;
    const invitation = await ownInvitation(tx, leagueId, actor);
    if (!invitation) return NOT_FOUND;
    await tx.delete(leagueInvitations).where(eq(leagueInvitations.id, invitation.id));
    return { ok: true };
  });
}

export type LeaveOutcome = "left" | "ownership-passed" | "league-deleted";

/**
 * A member leaves. An owner who leaves hands the league to the longest-standing other member; a
 * league that would be left without members is deleted (with its invitations).
 */
export async function leaveLeague(
  db: DbOrTx,
  actor: LeagueActor | null,
  leagueId: number,
): Promise<LeagueResult<{ outcome: LeaveOutcome; newOwner?: { id: number; username: string } }>> {
  return withLockedLeague(db, actor, leagueId, async (tx, league, actor) => {
    const removed = await tx
      .delete(leagueMembers)
      .where(and(eq(leagueMembers.leagueId, leagueId), eq(leagueMembers.userId, actor.id)))
      .returning({ userId: leagueMembers.userId });
    if (removed.length === 0) return NOT_FOUND;
    const [successor] = await tx
      .select({ id: leagueMembers.userId, username: users.username })
      .from(leagueMembers)
      .innerJoin(users, eq(users.id, leagueMembers.userId))
      .where(eq(leagueMembers.leagueId, leagueId))
      .orderBy(asc(leagueMembers.joinedAt), asc(leagueMembers.userId))
      .limit(1);
    if (!successor) {
      await tx.delete(leagues).where(eq(leagues.id, leagueId));
      return { ok: true, outcome: "league-deleted" as const };
    }
    await recomputeLeagueTotal(tx, leagueId);
    if (league.ownerId !== actor.id) return { ok: true, outcome: "left" as const };
    await tx.update(leagues).set({ ownerId: successor.id }).where(eq(leagues.id, leagueId));
    return { ok: true, outcome: "ownership-passed" as const, newOwner: successor };
  });
}

/**
 * Deletes a league with its members and invitations. Only the owner may: anyone else is refused
 * with `forbidden` and nothing changes (the web layer stays silent about it, as the spec says).
 */
export async function deleteLeague(
  db: DbOrTx,
  actor: LeagueActor | null,
  leagueId: number,
): Promise<LeagueResult<{ league: { id: number; name: string } }>> {
  return withLockedLeague(db, actor, leagueId, async (tx, league, actor) => {
    if (league.ownerId !== actor.id) return refuseNonOwner(tx, leagueId, actor);
    await tx.delete(leagues).where(eq(leagues.id, leagueId));
    return { ok: true, league: { id: league.id, name: league.name } };
  });
}

/** What the join link shows before joining: the league's name and size, or null. */
export async function getLeagueByJoinCode(
  db: DbOrTx,
  code: string,
): Promise<{ id: number; name: string; memberCount: number } | null> {
  if (!JOIN_CODE.test(code)) return null;
  const [row] = await db
    .select({
      id: leagues.id,
      name: leagues.name,
      memberCount: sql<number>`(select count(*)::int from ${leagueMembers} where ${leagueMembers.leagueId} = ${leagues.id})`,
    })
    .from(leagues)
    .where(eq(leagues.joinCode, code));
  return row ? { ...row, memberCount: Number(row.memberCount) } : null;
}

/**
 * Joins through a shareable link: the player becomes an accepted member with score 0. An open
 * invitation for their e-mail is settled at the same time. A player the owner removed is refused
 * (`removed`) unless they hold such an invitation. An unconfirmed e-mail address is refused
 * (`unconfirmed`): a link passed around must not fill leagues with throwaway accounts.
 */
export async function joinByCode(
  db: DbOrTx,
  actor: LeagueActor | null,
  code: string,
): Promise<
  LeagueResult<{ outcome: "joined" | "already-member"; league: { id: number; name: string } }>
> {
  if (!actor) return SIGNED_OUT;
  if (typeof code !== "string" || !JOIN_CODE.test(code)) return NOT_FOUND;
  return db.transaction(async (tx) => {
    const [league] = await tx
      .select()
      .from(leagues)
      .where(eq(leagues.joinCode, code))
      .for("update");
    if (!league) return NOT_FOUND;
    const done = { ok: true as const, league: { id: league.id, name: league.name } };
    if (await isMember(tx, league.id, actor.id))
      return { ...done, outcome: "already-member" as const };
    if (!(await confirmed(tx, actor.id))) return UNCONFIRMED;
    const invitation = await ownInvitation(tx, league.id, actor);
    if (invitation) {
      await tx.delete(leagueInvitations).where(eq(leagueInvitations.id, invitation.id));
    } else if (await wasRemoved(tx, league.id, actor.id)) {
      return REMOVED;
    }
    const added = await addMember(tx, league.id, actor.id);
    return { ...done, outcome: added ? ("joined" as const) : ("already-member" as const) };
  });
}

/**
 * Whether the join link would refuse the actor because the owner removed them (and no invitation
 * lets them back in): the join page says so instead of offering a button that cannot work.
 */
export async function isRemovedFromLeague(
  db: DbOrTx,
  actor: LeagueActor | null,
  leagueId: number,
): Promise<boolean> {
  if (!actor || !validId(leagueId)) return false;
  if (!(await wasRemoved(db, leagueId, actor.id))) return false;
  return (await ownInvitation(db, leagueId, actor)) === undefined;
}

export interface RemoveMemberInput {
  leagueId: number;
  /** The acting player; only the league's owner may remove, and never themselves. */
  owner: LeagueActor | null;
  /** The user id of the member to remove. */
  memberId: number;
}

/**
 * The owner removes another member: the membership goes, with any open invitation of theirs to
 * this league, the league's average is recomputed (which moves the leagues' ranking version), the
 * player is marked as removed so the join link no longer lets them in (decision 0142), and the
 * audit log records it, all in one transaction. A non-owner is refused like on delete; removing
 * oneself is `invalid` (the owner leaves instead); a player not in the league is not found. The
 * caller e-mails the removed player after this commits.
 */
export async function removeLeagueMember(
  db: DbOrTx,
  { leagueId, owner, memberId }: RemoveMemberInput,
): Promise<
  LeagueResult<{
    league: { id: number; name: string };
    member: { id: number; username: string; email: string };
    owner: { username: string };
  }>
> {
  return withLockedLeague(db, owner, leagueId, async (tx, league, actor) => {
    if (league.ownerId !== actor.id) return refuseNonOwner(tx, leagueId, actor);
    if (memberId === actor.id) {
      return {
        ok: false as const,
        reason: "invalid" as const,
        message: "You own this league: leave it instead of removing yourself.",
      };
    }
    if (!validId(memberId)) return NOT_FOUND;
    const [score] = await tx
      .select({ points: memberScore })
      .from(leagueMembers)
      .innerJoin(leagues, eq(leagues.id, leagueMembers.leagueId))
      .where(and(eq(leagueMembers.leagueId, leagueId), eq(leagueMembers.userId, memberId)));
    const removed = await tx
      .delete(leagueMembers)
      .where(and(eq(leagueMembers.leagueId, leagueId), eq(leagueMembers.userId, memberId)))
      .returning({ userId: leagueMembers.userId });
    if (removed.length === 0) return NOT_FOUND;
    const people = await tx
      .select({ id: users.id, username: users.username, email: users.email })
      .from(users)
      .where(inArray(users.id, [memberId, actor.id]));
    const member = people.find((p) => p.id === memberId)!;
    const ownerName = people.find((p) => p.id === actor.id)?.username ?? "";
    await tx
      .delete(leagueInvitations)
      .where(
        and(
          eq(leagueInvitations.leagueId, leagueId),
          eq(leagueInvitations.email, normalizeEmail(member.email)),
        ),
      );
    await tx
      .insert(leagueRemovals)
      .values({ leagueId, userId: memberId, removedBy: actor.id })
      .onConflictDoUpdate({
        target: [leagueRemovals.leagueId, leagueRemovals.userId],
        set: { removedBy: actor.id, removedAt: sql`now()` },
      });
    const totalPoints = await recomputeLeagueTotal(tx, leagueId);
    await recordAudit(tx, webActor(actor), "league.remove-member", `league:${leagueId}`, {
      league: league.name,
      memberId,
      member: member.username,
      score: score?.points ?? 0,
      totalPointsBefore: league.totalPoints,
      totalPointsAfter: totalPoints,
    });
    return {
      ok: true as const,
      league: { id: league.id, name: league.name },
      member,
      owner: { username: ownerName },
    };
  });
}

/** Draws a new join code (owner only): the old link stops working at once. */
export async function resetJoinCode(
  db: DbOrTx,
  actor: LeagueActor | null,
  leagueId: number,
): Promise<LeagueResult<{ joinCode: string }>> {
  return withLockedLeague(db, actor, leagueId, async (tx, league, actor) => {
    if (league.ownerId !== actor.id) return refuseNonOwner(tx, leagueId, actor);
    for (let attempt = 0; ; attempt++) {
      const joinCode = newJoinCode();
      const [clash] = await tx
        .select({ id: leagues.id })
        .from(leagues)
        .where(eq(leagues.joinCode, joinCode));
      if (!clash) {
        await tx.update(leagues).set({ joinCode }).where(eq(leagues.id, leagueId));
        return { ok: true, joinCode };
      }
      if (attempt >= 4) throw new Error("could not draw a unique join code");
    }
  });
}

/**
 * Renews a league into the competition being played now (docs/decisions/0158): a new league of
 * the same name and owner with every member of the old one, who are told by the caller (the
 * returned members) once this commits. The old league keeps its final table. Only the owner, once
 * per league, and only into another competition.
 */
export async function renewLeague(
  db: DbOrTx,
  actor: LeagueActor | null,
  leagueId: number,
): Promise<
  LeagueResult<{
    league: { id: number; name: string; joinCode: string };
    competition: { slug: string; name: string };
    members: { id: number; username: string; email: string }[];
    owner: { username: string };
  }>
> {
  return withLockedLeague(db, actor, leagueId, async (tx, league, actor) => {
    if (league.ownerId !== actor.id) return refuseNonOwner(tx, leagueId, actor);
    const [target] = rowsOf<{ id: number; slug: string; name: string }>(
      await tx.execute(
        sql`select id, slug, name from competitions where id = ${CURRENT_COMPETITION_SQL}`,
      ),
    );
    if (!target || target.id === league.competitionId) {
      return {
        ok: false as const,
        reason: "renewed" as const,
        message: `${league.name} already plays ${target?.name ?? "the competition being played"}.`,
      };
    }
    const [renewal] = await tx
      .select({ id: leagues.id, name: leagues.name })
      .from(leagues)
      .where(eq(leagues.renewedFrom, leagueId));
    if (renewal) {
      return {
        ok: false as const,
        reason: "renewed" as const,
        message: `${league.name} has been renewed already.`,
      };
    }
    const renewed = await insertLeague(tx, league.name, actor.id, {
      competitionId: target.id,
      renewedFrom: leagueId,
    });
    const members = await tx
      .select({ id: users.id, username: users.username, email: users.email })
      .from(leagueMembers)
      .innerJoin(users, eq(users.id, leagueMembers.userId))
      .where(and(eq(leagueMembers.leagueId, leagueId), eq(leagueMembers.status, "accepted")));
    await tx
      .insert(leagueMembers)
      .values(
        members.map((m) => ({ leagueId: renewed.id, userId: m.id, status: "accepted" as const })),
      );
    const owner = members.find((m) => m.id === actor.id);
    return {
      ok: true as const,
      league: { id: renewed.id, name: renewed.name, joinCode: renewed.joinCode },
      competition: { slug: target.slug, name: target.name },
      members: members.filter((m) => m.id !== actor.id),
      owner: { username: owner?.username ?? "" },
    };
  });
}
