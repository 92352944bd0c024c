import { LOCK_MS } from "@game/core";
import {
  acceptInvitation,
  createLeague,
  events,
  inviteToLeague,
  leagueInvitations,
  leagueMembers,
  leagues,
  listOutbox,
  listTeamRacers,
  outbox,
  saveTeam,
  type UserRow,
} from "@game/db";
import { createTestDb, type DbHandle } from "@game/db/testing";
import type { AppLoadContext } from "@remix-run/node";
import { asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { action, loader } from "~/routes/leagues.actions";
import { closeMailTransports, sendMail } from "~/utils/mailer.server";
import { cookieFor, makeUser, request, testContext } from "../../../tests/support/context";
import { type SmtpSink, startSmtpSink } from "../../../tests/support/smtp-sink";
import { LEAGUE_NOTICES } from "./notices";

// The real mailer, wrapped so one test can make it throw (the outbox write failing).
vi.mock(import("~/utils/mailer.server"), async (importOriginal) => {
  const real = await importOriginal();
  return { ...real, sendMail: vi.fn(real.sendMail) };
});

let h: DbHandle;
let sink: SmtpSink;
let now: Date;
let teamIds: number[];

beforeAll(async () => {
  [h, sink] = await Promise.all([createTestDb({ seed: true }), startSmtpSink()]);
  const [round1] = await h.db.select().from(events).where(eq(events.id, 5));
  now = new Date(round1!.startsAt.getTime() - LOCK_MS - 86_400_000);
  const pool = await listTeamRacers(h.db, 5);
  const cheapest = (c: string, k: number) =>
    pool
      .filter((r) => r.category === c)
      .sort((a, b) => a.price - b.price)
      .slice(0, k);
  teamIds = [
    ...cheapest("Pro Women", 2),
    ...cheapest("17-18 Men", 1),
    ...cheapest("Pro Men", 3),
  ].map((r) => r.id);
});
afterAll(async () => {
  closeMailTransports();
  await Promise.all([h?.close(), sink?.close()]);
});

function ctx(opts: { smtp?: boolean; publicUrl?: string } = {}): AppLoadContext {
  const base = testContext(h.db, { now: () => now });
  return {
    ...base,
    env: {
      ...base.env,
      ...(opts.smtp ? { smtpUrl: sink.url } : {}),
      ...(opts.publicUrl ? { publicUrl: opts.publicUrl } : {}),
    },
  };
}

async function withTeam(user: UserRow) {
  const r = await saveTeam(h.db, { userId: user.id, eventId: 5, racerIds: teamIds, now });
  if (!r.ok) throw new Error(`team not saved: ${r.reason}`);
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
  return { location, path: url.pathname, notice: url.searchParams.get("leagueNotice"), url };
}

async function snapshot() {
  const [l, m, i] = await Promise.all([
    h.db.select().from(leagues).orderBy(asc(leagues.id)),
    h.db
      .select()
      .from(leagueMembers)
      .orderBy(asc(leagueMembers.leagueId), asc(leagueMembers.userId)),
    h.db.select().from(leagueInvitations).orderBy(asc(leagueInvitations.id)),
  ]);
  return { l, m, i };
}

async function league(owner: UserRow, name = "Route League") {
  const r = await createLeague(h.db, owner, name);
  if (!r.ok) throw new Error(r.reason);
  return r.league;
}

describe("league actions route", () => {
  it("renews a league of an earlier competition for the one being played, telling every member", async () => {
    const owner = await makeUser(h.db);
    const member = await makeUser(h.db);
    const l = await league(owner, "Old Crew");
    await inviteToLeague(h.db, owner, l.id, member.email);
    await acceptInvitation(h.db, member, l.id);
    // It played 2024's freeride competition; the 2027 series is being played now.
    await h.db
      .update(leagues)
      .set({ competitionId: sql`(select id from competitions where slug = 'freeride-2024')` })
      .where(eq(leagues.id, l.id));
    const before = await snapshot();
    const refused = await post(ctx(), member, { intent: "renew", leagueId: String(l.id) });
    expect(refused.notice).toBe("not-found");
    expect(await snapshot()).toEqual(before);

    const done = await post(ctx(), owner, { intent: "renew", leagueId: String(l.id) });
    expect(done.notice).toBe("renewed");
    const [renewed] = await h.db.select().from(leagues).where(eq(leagues.renewedFrom, l.id));
    expect(renewed).toMatchObject({ name: "Old Crew", ownerId: owner.id });
    const members = await h.db
      .select({ userId: leagueMembers.userId })
      .from(leagueMembers)
      .where(eq(leagueMembers.leagueId, renewed!.id));
    expect(members.map((m) => m.userId).sort()).toEqual([owner.id, member.id].sort());
    const mail = (await listOutbox(h.db, { limit: 5 })).rows.find((m) => m.to === member.email);
    expect(mail?.subject).toBe("Your mini league plays the new competition on Gravity Fantasy");
    expect(mail?.text).toContain(
      'has renewed the mini league "Old Crew" for Pro Downhill Series 2027',
    );
    // The old league is still there, as it was; a second renewal is refused.
    expect((await h.db.select().from(leagues).where(eq(leagues.id, l.id)))[0]).toEqual(
      before.l.find((x) => x.id === l.id),
    );
    const again = await post(ctx(), owner, { intent: "renew", leagueId: String(l.id) });
    expect(again.notice).toBe("renew-refused");
    expect(LEAGUE_NOTICES.renewed.text).toContain("The old league keeps its final table.");
  });

  it("sends a visitor to log in, coming back to the page the form was on", async () => {
    const before = await snapshot();
    const r = await post(ctx(), null, { intent: "create", name: "Visitors", game: "5" });
    expect(r.location).toBe("/?login=1&redirectTo=%2Fgame%2F5");
    expect(await snapshot()).toEqual(before);
  });

  it("creates a league only for a player with a team, and goes back to it", async () => {
    const p = await makeUser(h.db);
    const before = await snapshot();
    const refused = await post(ctx(), p, { intent: "create", name: "No Team FC", game: "5" });
    expect(refused.notice).toBe("no-team");
    expect(await snapshot()).toEqual(before);

    await withTeam(p);
    const blank = await post(ctx(), p, { intent: "create", name: "   ", game: "5" });
    expect(blank.notice).toBe("name-required");
    const long = await post(ctx(), p, { intent: "create", name: "x".repeat(61), game: "5" });
    expect(long.notice).toBe("name-invalid");
    // A right-to-left override (or any control character) would disguise the name: refused, why.
    const disguised = await post(ctx(), p, { intent: "create", name: "Top \u202eCF ", game: "5" });
    expect(disguised.notice).toBe("name-hidden-characters");
    expect(LEAGUE_NOTICES["name-hidden-characters"].text).toMatch(/control or text-direction/);
    expect(await snapshot()).toEqual(before);

    const ok = await post(ctx(), p, { intent: "create", name: " Team Cheddar ", game: "5" });
    expect(ok.notice).toBe("created");
    expect(ok.path).toBe("/game/5");
    const [row] = await h.db.select().from(leagues).where(eq(leagues.ownerId, p.id));
    expect(row?.name).toBe("Team Cheddar");
    expect(ok.url.hash).toBe(`#league-${row!.id}`);
  });

  it("invites by e-mail: the invitation is saved and the mail arrives with a working link", async () => {
    const owner = await makeUser(h.db);
    const l = await league(owner, 'Dirt "Jump" <Crew>');
    const r = await post(ctx({ smtp: true, publicUrl: "https://gravity.example" }), owner, {
      intent: "invite",
      leagueId: String(l.id),
      email: "  Guest.One@Example.com ",
    });
    expect(r.notice).toBe("invited");
    const [inv] = await h.db
      .select()
      .from(leagueInvitations)
      .where(eq(leagueInvitations.leagueId, l.id));
    expect(inv).toMatchObject({
      email: "guest.one@example.com",
      status: "pending",
      invitedBy: owner.id,
    });

    const mail = await sink.waitFor("guest.one@example.com");
    // The league's name is the players' words: in the body, never the subject (decision 0151).
    expect(mail.subject).toBe("You are invited to a mini league on Gravity Fantasy");
    expect(mail.text).toContain(`The player "${owner.username}" invited you`);
    expect(mail.text).toContain(
      'The league\'s name, as its players chose it: "Dirt "Jump" <Crew>"',
    );
    expect(mail.text).toContain(`https://gravity.example/leagues/${l.id}/invitation`);
    expect(mail.raw).toContain("&lt;Crew&gt;");
    const { rows } = await listOutbox(h.db);
    expect(rows.find((m) => m.to === "guest.one@example.com")?.sentAt).toBeInstanceOf(Date);
  });

  it("never builds the mailed link from the request's Host: PUBLIC_URL, else localhost:PORT", async () => {
    const owner = await makeUser(h.db);
    const l = await league(owner, "Host Header Crew");
    const base = ctx({ smtp: true });
    const context = { ...base, env: { ...base.env, port: 3000 } };
    const cookie = await cookieFor(context, owner);
    // The caller chooses Host (and so the request URL): it must not reach the mail.
    const res = await action({
      request: new Request("http://evil.example/leagues/actions", {
        method: "POST",
        headers: {
          Origin: "http://evil.example",
          Cookie: cookie,
          "Content-Type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams({
          intent: "invite",
          leagueId: String(l.id),
          email: "host.guest@example.com",
          redirectTo: "/game/5",
        }),
      }),
      context,
      params: {},
    });
    expect(res.status).toBe(302);
    const mail = await sink.waitFor("host.guest@example.com");
    expect(mail.text).toContain(`http://localhost:3000/leagues/${l.id}/invitation`);
    expect(mail.text).not.toContain("evil.example");
  });

  it("says so when the guest is already invited or already a member, sending nothing", async () => {
    const owner = await makeUser(h.db);
    const member = await makeUser(h.db);
    const l = await league(owner);
    await inviteToLeague(h.db, owner, l.id, member.email);
    await acceptInvitation(h.db, member, l.id);
    await inviteToLeague(h.db, owner, l.id, "pending@example.com");
    const mails = (await listOutbox(h.db)).total;
    const before = await snapshot();
    const a = await post(ctx(), member, {
      intent: "invite",
      leagueId: String(l.id),
      email: "PENDING@example.com",
    });
    expect(a.notice).toBe("already-invited");
    const b = await post(ctx(), owner, {
      intent: "invite",
      leagueId: String(l.id),
      email: member.email,
    });
    expect(b.notice).toBe("already-member");
    expect(await snapshot()).toEqual(before);
    expect((await listOutbox(h.db)).total).toBe(mails);
  });

  it("keeps the invitation when the mail cannot be sent, and says so", async () => {
    const owner = await makeUser(h.db);
    const l = await league(owner);
    const context = ctx();
    context.env = { ...context.env, smtpUrl: "smtp://127.0.0.1:1" };
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const r = await post(context, owner, {
        intent: "invite",
        leagueId: String(l.id),
        email: "unlucky@example.com",
      });
      expect(r.notice).toBe("invite-mail-failed");
    } finally {
      logged.mockRestore();
    }
    const invited = await h.db
      .select()
      .from(leagueInvitations)
      .where(eq(leagueInvitations.leagueId, l.id));
    expect(invited.map((i) => i.email)).toEqual(["unlucky@example.com"]);
    const [mail] = await h.db.select().from(outbox).where(eq(outbox.to, "unlucky@example.com"));
    expect(mail?.error).toBeTruthy();
    expect(mail?.sentAt).toBeNull();
  });

  it("keeps the invitation and says so when sending throws (the outbox write fails)", async () => {
    const owner = await makeUser(h.db);
    const l = await league(owner);
    vi.mocked(sendMail).mockRejectedValueOnce(new Error("outbox unavailable"));
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const r = await post(ctx(), owner, {
        intent: "invite",
        leagueId: String(l.id),
        email: "outbox-down@example.com",
      });
      // Not "failed" ("nothing was changed"): the invitation is saved, only the e-mail is missing.
      expect(r.notice).toBe("invite-mail-failed");
      expect(r.url.hash).toBe(`#league-${l.id}`);
      expect(logged).toHaveBeenCalled();
    } finally {
      logged.mockRestore();
    }
    expect(vi.mocked(sendMail)).toHaveBeenCalled();
    const invited = await h.db
      .select()
      .from(leagueInvitations)
      .where(eq(leagueInvitations.leagueId, l.id));
    expect(invited.map((i) => i.email)).toEqual(["outbox-down@example.com"]);
    const mails = await h.db.select().from(outbox).where(eq(outbox.to, "outbox-down@example.com"));
    expect(mails).toEqual([]);
  });

  it("validates the guest e-mail on the server too", async () => {
    const owner = await makeUser(h.db);
    const l = await league(owner);
    const before = await snapshot();
    const empty = await post(ctx(), owner, {
      intent: "invite",
      leagueId: String(l.id),
      email: " ",
    });
    expect(empty.notice).toBe("email-required");
    const bad = await post(ctx(), owner, {
      intent: "invite",
      leagueId: String(l.id),
      email: "nope",
    });
    expect(bad.notice).toBe("email-invalid");
    expect(await snapshot()).toEqual(before);
  });

  it("refuses forged league ids and unknown intents without changing anything", async () => {
    const owner = await makeUser(h.db);
    const stranger = await makeUser(h.db);
    const l = await league(owner);
    const before = await snapshot();
    const ids = [
      "",
      "abc",
      "1e3",
      "-1",
      "0",
      "2147483648",
      "99999",
      "1; drop table leagues",
      String(l.id),
    ];
    for (const leagueId of ids) {
      for (const intent of ["invite", "accept", "dismiss", "reset-code"]) {
        const r = await post(ctx(), stranger, { intent, leagueId, email: "x@example.com" });
        expect(r.notice, `${intent} ${leagueId}`).toBe("not-found");
      }
      const leave = await post(ctx(), stranger, { intent: "leave", leagueId, confirmed: "yes" });
      expect(leave.notice).toBe("not-found");
      // A refused delete is silent: back to the page, no notice at all.
      const del = await post(ctx(), stranger, { intent: "delete", leagueId, confirmed: "yes" });
      expect(del.location).toBe("/game/5");
    }
    const odd = await post(ctx(), owner, { intent: "explode", leagueId: String(l.id) });
    expect(odd.notice).toBe("not-found");
    expect(await snapshot()).toEqual(before);
  });

  it("asks before leaving or deleting, then does it", async () => {
    const owner = await makeUser(h.db);
    const member = await makeUser(h.db);
    const l = await league(owner);
    await inviteToLeague(h.db, owner, l.id, member.email);
    await acceptInvitation(h.db, member, l.id);
    const before = await snapshot();
    const ask = await post(ctx(), owner, { intent: "delete", leagueId: String(l.id) });
    expect(ask.url.searchParams.get("leagueConfirm")).toBe("delete");
    expect(ask.url.searchParams.get("league")).toBe(String(l.id));
    expect(await snapshot()).toEqual(before);

    // The member's confirmed delete is refused silently.
    const silent = await post(ctx(), member, {
      intent: "delete",
      leagueId: String(l.id),
      confirmed: "yes",
    });
    expect(silent.location).toBe("/game/5");
    expect(await snapshot()).toEqual(before);

    const left = await post(ctx(), member, {
      intent: "leave",
      leagueId: String(l.id),
      confirmed: "yes",
    });
    expect(left.notice).toBe("left");
    const gone = await post(ctx(), owner, {
      intent: "delete",
      leagueId: String(l.id),
      confirmed: "yes",
    });
    expect(gone.notice).toBe("deleted");
    expect(await h.db.select().from(leagues).where(eq(leagues.id, l.id))).toEqual([]);
  });

  it("accepts and dismisses only for the invited player", async () => {
    const owner = await makeUser(h.db);
    const guest = await makeUser(h.db);
    const other = await makeUser(h.db);
    const l = await league(owner);
    await inviteToLeague(h.db, owner, l.id, guest.email);
    const before = await snapshot();
    expect((await post(ctx(), other, { intent: "accept", leagueId: String(l.id) })).notice).toBe(
      "not-found",
    );
    expect(await snapshot()).toEqual(before);
    const ok = await post(ctx(), guest, { intent: "accept", leagueId: String(l.id) });
    expect(ok.notice).toBe("accepted");
    expect(ok.url.hash).toBe(`#league-${l.id}`);
  });

  it("only follows same-site redirect targets", async () => {
    const owner = await makeUser(h.db);
    const offSite = [
      "//evil.example/x",
      "https://evil.example",
      "javascript:alert(1)",
      // Paths that only become another site once normalised (as the notice is added).
      "/.//evil.example",
      "/x/..//evil.example",
      "/%2e%2e//evil.example",
    ];
    for (const redirectTo of offSite) {
      const r = await post(ctx(), owner, { intent: "dismiss", leagueId: "1", redirectTo });
      expect(r.location, redirectTo).toMatch(/^\/[^/\\]/);
      expect(r.path, redirectTo).toBe("/game/5");
    }
  });

  it("logs a failing write, answers with a notice and loses nothing", async () => {
    const owner = await makeUser(h.db);
    await withTeam(owner);
    const before = await snapshot();
    const context = ctx();
    // The database fails in the middle of the write: the transaction rolls back.
    const broken = new Proxy(h.db, {
      get(target, prop, receiver) {
        if (prop === "transaction") {
          return (fn: (tx: unknown) => Promise<unknown>) =>
            target.transaction(async (tx) => {
              await fn(tx);
              throw new Error("disk full");
            });
        }
        return Reflect.get(target, prop, receiver);
      },
    });
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const r = await post({ ...context, db: broken }, owner, {
        intent: "create",
        name: "Doomed",
        game: "5",
      });
      expect(r.notice).toBe("failed");
      expect(r.path).toBe("/game/5");
      // One line naming the action and the error (its stack frames follow for a bug like this).
      expect(logged).toHaveBeenCalledWith(
        expect.stringMatching(/^league action "create" failed for user \d+: Error: disk full/),
      );
    } finally {
      logged.mockRestore();
    }
    expect(await snapshot()).toEqual(before);
  });

  it("sends a GET to the leagues", async () => {
    const res = await loader({ request: request("/leagues/actions"), context: ctx(), params: {} });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/game/5");
  });
});
