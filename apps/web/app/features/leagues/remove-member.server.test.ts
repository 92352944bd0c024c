import {
  createLeague,
  joinByCode,
  leagueInvitations,
  leagueMembers,
  leagueRemovals,
  leagues,
  listAudit,
  listOutbox,
  outbox,
  type UserRow,
} from "@game/db";
import { createTestDb, type DbHandle } from "@game/db/testing";
import type { AppLoadContext } from "@remix-run/node";
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { action } from "~/routes/leagues.actions";
import { action as joinAction, loader as joinLoader } from "~/routes/leagues.join.$code";
import { closeMailTransports } from "~/utils/mailer.server";
import { cookieFor, makeUser, request, testContext } from "../../../tests/support/context";
import { type SmtpSink, startSmtpSink } from "../../../tests/support/smtp-sink";

let h: DbHandle;
let sink: SmtpSink;

beforeAll(async () => {
  [h, sink] = await Promise.all([createTestDb({ seed: true }), startSmtpSink()]);
});
afterAll(async () => {
  closeMailTransports();
  await Promise.all([h?.close(), sink?.close()]);
});

function ctx(opts: { smtpUrl?: string } = {}): AppLoadContext {
  const base = testContext(h.db);
  return {
    ...base,
    env: { ...base.env, publicUrl: "https://gravity.example", smtpUrl: opts.smtpUrl ?? sink.url },
  };
}

async function post(context: AppLoadContext, user: UserRow | null, form: Record<string, string>) {
  const cookie = user ? await cookieFor(context, user) : undefined;
  const res = await action({
    request: request("/leagues/actions", { cookie, form: { redirectTo: "/game/5", ...form } }),
    context,
    params: {},
  });
  expect(res.status).toBe(302);
  const location = res.headers.get("Location")!;
  const url = new URL(location, "http://localhost");
  return { location, notice: url.searchParams.get("leagueNotice"), url };
}

async function snapshot() {
  const [l, m, i, r, a, o] = await Promise.all([
    h.db.select().from(leagues).orderBy(asc(leagues.id)),
    h.db
      .select()
      .from(leagueMembers)
      .orderBy(asc(leagueMembers.leagueId), asc(leagueMembers.userId)),
    h.db.select().from(leagueInvitations).orderBy(asc(leagueInvitations.id)),
    h.db.select().from(leagueRemovals),
    listAudit(h.db, { limit: 200 }),
    listOutbox(h.db),
  ]);
  return { l, m, i, r, audit: a.total, mails: o.total };
}

/** A league of an owner and two members who joined through the link. */
async function crew(name = "Remove Crew") {
  const owner = await makeUser(h.db);
  const friend = await makeUser(h.db);
  const drifter = await makeUser(h.db);
  const r = await createLeague(h.db, owner, name);
  if (!r.ok) throw new Error(r.reason);
  await joinByCode(h.db, friend, r.league.joinCode);
  await joinByCode(h.db, drifter, r.league.joinCode);
  return { owner, friend, drifter, league: r.league };
}

const isMember = async (leagueId: number, userId: number) =>
  (
    await h.db
      .select()
      .from(leagueMembers)
      .where(and(eq(leagueMembers.leagueId, leagueId), eq(leagueMembers.userId, userId)))
  ).length === 1;

describe("removing a league member", () => {
  it("asks first (the no-JavaScript confirmation), changing nothing", async () => {
    const { owner, drifter, league } = await crew();
    const before = await snapshot();
    const ask = await post(ctx(), owner, {
      intent: "remove",
      leagueId: String(league.id),
      memberId: String(drifter.id),
    });
    expect(ask.url.pathname).toBe("/game/5");
    expect(ask.url.searchParams.get("leagueConfirm")).toBe("remove");
    expect(ask.url.searchParams.get("league")).toBe(String(league.id));
    expect(ask.url.searchParams.get("member")).toBe(String(drifter.id));
    expect(ask.url.hash).toBe(`#league-${league.id}`);
    expect(await snapshot()).toEqual(before);
  });

  it("removes the member once confirmed, e-mails them and audit-logs it", async () => {
    const { owner, drifter, league } = await crew('Dirt "Jump" <Crew>');
    const done = await post(ctx(), owner, {
      intent: "remove",
      leagueId: String(league.id),
      memberId: String(drifter.id),
      confirmed: "yes",
    });
    expect(done.notice).toBe("member-removed");
    expect(done.url.hash).toBe(`#league-${league.id}`);
    expect(await isMember(league.id, drifter.id)).toBe(false);

    const mail = await sink.waitFor(drifter.email);
    expect(mail.subject).toBe("You were removed from a mini league on Gravity Fantasy");
    expect(mail.text).toContain('the owner of the mini league "Dirt "Jump" <Crew>"');
    expect(mail.text).toContain(`Hi ${drifter.username},`);
    expect(mail.text).toContain(`${owner.username}, the owner of the mini league`);
    expect(mail.text).toContain("only they can invite you again");
    expect(mail.text).toContain("https://gravity.example/");
    expect(mail.raw).toContain("&lt;Crew&gt;");

    const { rows } = await listAudit(h.db, { action: "league.remove-member" });
    expect(rows[0]).toMatchObject({
      actorId: owner.id,
      actor: `web:${owner.email}`,
      target: `league:${league.id}`,
      detail: expect.objectContaining({ memberId: drifter.id, member: drifter.username }),
    });
  });

  it("refuses members, strangers, visitors, the owner themselves and forged ids", async () => {
    const { owner, friend, drifter, league } = await crew();
    const stranger = await makeUser(h.db);
    const before = await snapshot();
    const form = (memberId: string, leagueId = String(league.id)) => ({
      intent: "remove",
      leagueId,
      memberId,
      confirmed: "yes",
    });
    expect((await post(ctx(), friend, form(String(drifter.id)))).notice).toBe("not-found");
    expect((await post(ctx(), stranger, form(String(drifter.id)))).notice).toBe("not-found");
    const visitor = await post(ctx(), null, form(String(drifter.id)));
    expect(visitor.location).toBe("/?login=1&redirectTo=%2Fgame%2F5");
    expect((await post(ctx(), owner, form(String(owner.id)))).notice).toBe("remove-self");
    for (const bad of ["", "abc", "0", "-1", "1.5", "2147483648", "99999", "1; drop table"]) {
      expect((await post(ctx(), owner, form(bad))).notice, bad).toBe("not-found");
      expect((await post(ctx(), owner, form(String(drifter.id), bad))).notice, bad).toBe(
        "not-found",
      );
    }
    expect(await snapshot()).toEqual(before);
  });

  it("keeps the removal and says so when the e-mail cannot be sent", async () => {
    const { owner, drifter, league } = await crew();
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const r = await post(ctx({ smtpUrl: "smtp://127.0.0.1:1" }), owner, {
        intent: "remove",
        leagueId: String(league.id),
        memberId: String(drifter.id),
        confirmed: "yes",
      });
      expect(r.notice).toBe("member-removed-mail-failed");
    } finally {
      logged.mockRestore();
    }
    expect(await isMember(league.id, drifter.id)).toBe(false);
    const [mail] = await h.db.select().from(outbox).where(eq(outbox.to, drifter.email));
    expect(mail?.error).toBeTruthy();
  });

  it("keeps the removed player out of the invite link; only the owner can invite them back", async () => {
    const { owner, friend, drifter, league } = await crew();
    await post(ctx(), owner, {
      intent: "remove",
      leagueId: String(league.id),
      memberId: String(drifter.id),
      confirmed: "yes",
    });
    const path = `/leagues/join/${league.joinCode}`;
    const params = { code: league.joinCode };
    const cookie = await cookieFor(ctx(), drifter);
    const page = (await joinLoader({ request: request(path, { cookie }), context: ctx(), params }))
      .data as { state: string };
    expect(page.state).toBe("removed");
    const tried = await joinAction({
      request: request(path, { cookie, form: {} }),
      context: ctx(),
      params,
    });
    expect(tried.headers.get("Location")).toBe(path);
    expect(await isMember(league.id, drifter.id)).toBe(false);

    const byFriend = await post(ctx(), friend, {
      intent: "invite",
      leagueId: String(league.id),
      email: drifter.email,
    });
    expect(byFriend.notice).toBe("invite-removed");
    const byOwner = await post(ctx(), owner, {
      intent: "invite",
      leagueId: String(league.id),
      email: drifter.email,
    });
    expect(byOwner.notice).toBe("invited");
    const back = await joinAction({
      request: request(path, { cookie, form: {} }),
      context: ctx(),
      params,
    });
    expect(back.headers.get("Location")).toBe(`/game/5?leagueNotice=joined#league-${league.id}`);
    expect(await isMember(league.id, drifter.id)).toBe(true);
  });
});
