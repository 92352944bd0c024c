/**
 * The independent probe's findings on leagues, through the routes (decision 0151): registering
 * an invited address, invited addresses on the league card, invitation mail as a spam and
 * phishing channel, and leagues of one in the public ranking.
 */
import {
  INVITATIONS_PER_DAY,
  INVITATIONS_PER_RECIPIENT_PER_DAY,
  LOCK_MS,
  looksLinkable,
  MAX_OWNED_LEAGUES,
} from "@game/core";
import {
  createLeague,
  events,
  leagueMembers,
  leagues,
  listTeamRacers,
  outbox,
  saveTeam,
  type UserRow,
} from "@game/db";
import { createTestDb, type DbHandle } from "@game/db/testing";
import type { AppLoadContext } from "@remix-run/node";
import { desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authAction } from "~/features/auth/login.server";
import { loadLeaguesRanking } from "~/features/rankings/rankings.server";
import { loader as apiLeaguesLoader } from "~/routes/api.v1.rankings.leagues";
import * as confirmRoute from "~/routes/confirm-email";
import { loader as invitationLoader } from "~/routes/leagues.$id.invitation";
import { action as leagueAction } from "~/routes/leagues.actions";
import * as joinRoute from "~/routes/leagues.join.$code";
import { closeMailTransports } from "~/utils/mailer.server";
import { cookieFor, makeUser, request, testContext } from "../../../tests/support/context";
import { type SmtpSink, startSmtpSink } from "../../../tests/support/smtp-sink";
import { loadLeaguesPanel } from "./leagues-panel.server";

let h: DbHandle;
let sink: SmtpSink;
let now: Date;
let teamIds: number[];
let ip = 0;

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

function ctx(opts: { smtp?: boolean } = {}): AppLoadContext {
  ip += 1;
  const base = testContext(h.db, { now: () => now });
  return {
    ...base,
    clientIp: `203.0.113.${ip}`,
    env: {
      ...base.env,
      publicUrl: "https://gravity.example",
      ...(opts.smtp ? { smtpUrl: sink.url } : {}),
    },
  };
}

/** What a loader or action answered: a Response, or `data(...)` with its status. */
async function answer(result: unknown) {
  if (result instanceof Response) {
    return { status: result.status, headers: result.headers, data: null as unknown };
  }
  const r = result as { data?: unknown; init?: { status?: number } } | null;
  if (r && typeof r === "object" && "init" in r) {
    return { status: r.init?.status ?? 200, headers: new Headers(), data: r.data };
  }
  return { status: 200, headers: new Headers(), data: r as unknown };
}

async function leagueForm(
  context: AppLoadContext,
  user: UserRow | null,
  form: Record<string, string>,
) {
  const cookie = user ? await cookieFor(context, user) : undefined;
  const res = await leagueAction({
    request: request("/leagues/actions", { cookie, form: { redirectTo: "/game/5", ...form } }),
    context,
    params: {},
  });
  expect(res.status).toBe(302);
  return new URL(res.headers.get("Location")!, "http://localhost").searchParams.get("leagueNotice");
}

async function withTeam(user: UserRow) {
  const r = await saveTeam(h.db, { userId: user.id, eventId: 5, racerIds: teamIds, now });
  if (!r.ok) throw new Error(`team not saved: ${r.reason}`);
}

async function league(owner: UserRow, name = "Private Crew") {
  const r = await createLeague(h.db, owner, name);
  if (!r.ok) throw new Error(r.reason);
  return r.league;
}

/** The newest mail to `to` in the outbox (where mail waits without SMTP). */
async function lastMailTo(to: string) {
  const [row] = await h.db
    .select()
    .from(outbox)
    .where(eq(outbox.to, to))
    .orderBy(desc(outbox.id))
    .limit(1);
  return row;
}

describe("an invited address registered by someone else (item 4)", () => {
  it("shows the squatter nothing and lets them accept or join nothing; the address's owner confirms and joins", async () => {
    const owner = await makeUser(h.db);
    const crew = await league(owner, "Private Crew");
    expect(
      await leagueForm(ctx(), owner, {
        intent: "invite",
        leagueId: String(crew.id),
        email: "victim@mail.example",
      }),
    ).toBe("invited");

    // The probe: sign up with the invited address (302), open the invitation, accept it.
    const context = ctx();
    const signUp = await answer(
      await authAction(
        "signup",
        request("/signup", {
          form: {
            username: "squatter",
            email: "victim@mail.example",
            password: "fast-and-loose-42",
            redirectTo: `/leagues/${crew.id}/invitation`,
          },
        }),
        context,
      ),
    );
    expect(signUp.status).toBe(302);
    const cookie = signUp.headers.get("Set-Cookie")!.split(";")[0]!;
    const asSquatter = (path: string, form?: Record<string, string>) =>
      request(path, { cookie, form });

    const page = await answer(
      await invitationLoader({
        request: asSquatter(`/leagues/${crew.id}/invitation`),
        context,
        params: { id: String(crew.id) },
      }),
    );
    expect(page.data).toMatchObject({ state: "unconfirmed", email: "victim@mail.example" });
    expect(JSON.stringify(page.data)).not.toContain("Private Crew");

    const accepted = await leagueAction({
      request: asSquatter("/leagues/actions", {
        intent: "accept",
        leagueId: String(crew.id),
        redirectTo: "/game/5",
      }),
      context,
      params: {},
    });
    expect(
      new URL(accepted.headers.get("Location")!, "http://x").searchParams.get("leagueNotice"),
    ).toBe("confirm-first");
    const joinPage = await answer(
      await joinRoute.loader({
        request: asSquatter(`/leagues/join/${crew.joinCode}`),
        context,
        params: { code: crew.joinCode },
      }),
    );
    expect(joinPage.data).toMatchObject({ state: "unconfirmed" });
    await joinRoute.action({
      request: asSquatter(`/leagues/join/${crew.joinCode}`, {}),
      context,
      params: { code: crew.joinCode },
    });
    const members = await h.db
      .select({ userId: leagueMembers.userId })
      .from(leagueMembers)
      .where(eq(leagueMembers.leagueId, crew.id));
    expect(members.map((m) => m.userId)).toEqual([owner.id]);

    // The confirmation link went to the address (the outbox, without SMTP): only its owner can
    // open it. Opening it confirms nothing; the button does.
    const mail = await lastMailTo("victim@mail.example");
    expect(mail?.subject).toBe("Confirm your e-mail address for Gravity Fantasy");
    const link = new URL(/https:\/\/gravity\.example\/confirm-email\?\S+/.exec(mail!.text)![0]);
    expect(link.searchParams.get("next")).toBe(`/leagues/${crew.id}/invitation`);
    const shown = await answer(
      await confirmRoute.loader({
        request: new Request(`http://localhost${link.pathname}${link.search}`),
        context,
        params: {},
      }),
    );
    expect(shown.data).toMatchObject({ state: "ready", email: "victim@mail.example" });
    const stillOut = await leagueAction({
      request: asSquatter("/leagues/actions", { intent: "accept", leagueId: String(crew.id) }),
      context,
      params: {},
    });
    expect(stillOut.headers.get("Location")).toContain("confirm-first");

    const confirmed = await answer(
      await confirmRoute.action({
        request: request("/confirm-email", {
          form: { intent: "confirm", token: link.searchParams.get("token")!, next: "/x" },
        }),
        context,
        params: {},
      }),
    );
    expect(confirmed.data).toMatchObject({ ok: true, next: "/x" });
    const nowAccepted = await leagueAction({
      request: asSquatter("/leagues/actions", { intent: "accept", leagueId: String(crew.id) }),
      context,
      params: {},
    });
    expect(nowAccepted.headers.get("Location")).toContain("leagueNotice=accepted");
  });

  it("sends an unconfirmed player's invitations nowhere", async () => {
    const fresh = await makeUser(h.db, { emailConfirmed: false });
    const l = await league(fresh, "Fresh Crew");
    const notice = await leagueForm(ctx(), fresh, {
      intent: "invite",
      leagueId: String(l.id),
      email: "anyone@mail.example",
    });
    expect(notice).toBe("confirm-first");
    expect(await lastMailTo("anyone@mail.example")).toBeUndefined();
  });

  it("shows invited addresses in full to the owner only, masked to other members", async () => {
    const owner = await makeUser(h.db);
    const member = await makeUser(h.db);
    const l = await league(owner, "Card Crew");
    await h.db.insert(leagueMembers).values({ leagueId: l.id, userId: member.id });
    await leagueForm(ctx(), owner, {
      intent: "invite",
      leagueId: String(l.id),
      email: "secret.guest@mail.example",
    });
    const panel = async (user: UserRow) =>
      loadLeaguesPanel(request("/game/5"), ctx(), user, { hasTeam: true });
    const mine = (await panel(owner)).leagues.find((c) => c.id === l.id)!;
    expect(mine.invited).toEqual([
      { id: expect.any(Number), email: "secret.guest@mail.example", status: "pending" },
    ]);
    const theirs = await panel(member);
    expect(theirs.leagues.find((c) => c.id === l.id)!.invited).toEqual([
      { id: expect.any(Number), email: "s***@m***.example", status: "pending" },
    ]);
    expect(JSON.stringify(theirs)).not.toContain("secret.guest");
  });
});

describe("the game as a spam and phishing channel (item 5)", () => {
  it("never puts the league's name in the subject, and defuses links in the body", async () => {
    const owner = await makeUser(h.db, { username: "alice_spam" });
    const l = await league(owner, "Placeholder");
    // Names from before the name rules (decision 0152) are kept: the mail must cope with them.
    const spam = 'WIN 500 EUR now: claim at evil.example/prize or https://evil.example/"x"';
    await h.db.update(leagues).set({ name: spam }).where(eq(leagues.id, l.id));
    const notice = await leagueForm(ctx({ smtp: true }), owner, {
      intent: "invite",
      leagueId: String(l.id),
      email: "mark@victim.example",
    });
    expect(notice).toBe("invited");
    const mail = await sink.waitFor("mark@victim.example");
    expect(mail.subject).toBe("You are invited to a mini league on Gravity Fantasy");
    expect(mail.text).toContain("claim at evil[.]example/prize or https[:]//evil[.]example/");
    expect(mail.text).not.toContain("evil.example");
    expect(mail.raw).not.toMatch(/evil(\.|=2E)example/i);
    // Nothing left that reads as a link but the game's own.
    const withoutOurs = mail.text
      .replaceAll("https://gravity.example", "")
      .replaceAll("mark@victim.example", "");
    expect(looksLinkable(withoutOurs)).toBe(false);
  });

  it(`caps invitations at ${INVITATIONS_PER_DAY} a day per player and ${INVITATIONS_PER_RECIPIENT_PER_DAY} a day per address`, async () => {
    const owner = await makeUser(h.db);
    const [a, b] = [await league(owner, "Daily A"), await league(owner, "Daily B")];
    for (let i = 0; i < INVITATIONS_PER_DAY; i++) {
      const notice = await leagueForm(ctx(), owner, {
        intent: "invite",
        leagueId: String(i % 2 ? a.id : b.id),
        email: `daily${i}@mail.example`,
      });
      expect(notice).toBe("invited");
    }
    expect(
      await leagueForm(ctx(), owner, {
        intent: "invite",
        leagueId: String(a.id),
        email: "over@mail.example",
      }),
    ).toBe("invite-daily");

    // Twelve leagues inviting one address: it gets the day's few, the rest are refused.
    const notices = [];
    for (let i = 0; i < 6; i++) {
      const spammer = await makeUser(h.db);
      const l = await league(spammer, `Spam ${i}`);
      notices.push(
        await leagueForm(ctx(), spammer, {
          intent: "invite",
          leagueId: String(l.id),
          email: "target@victim.example",
        }),
      );
    }
    expect(notices).toEqual([
      ...Array(INVITATIONS_PER_RECIPIENT_PER_DAY).fill("invited"),
      ...Array(6 - INVITATIONS_PER_RECIPIENT_PER_DAY).fill("invite-recipient"),
    ]);
    const mails = await h.db.select().from(outbox).where(eq(outbox.to, "target@victim.example"));
    expect(mails).toHaveLength(INVITATIONS_PER_RECIPIENT_PER_DAY);
  });

  it(`lets a player own ${MAX_OWNED_LEAGUES} leagues`, async () => {
    const owner = await makeUser(h.db);
    await withTeam(owner);
    for (let i = 0; i < MAX_OWNED_LEAGUES; i++) {
      expect(
        await leagueForm(ctx(), owner, { intent: "create", name: `Mine ${i}`, game: "5" }),
      ).toBe("created");
    }
    expect(await leagueForm(ctx(), owner, { intent: "create", name: "One more", game: "5" })).toBe(
      "league-limit",
    );
  });

  it("keeps leagues of one out of the public league ranking (the API partners' widgets read)", async () => {
    const a = await makeUser(h.db);
    const b = await makeUser(h.db);
    const pair = await league(a, "Real Pair");
    await h.db.insert(leagueMembers).values({ leagueId: pair.id, userId: b.id });
    const solo = await league(b, "Solo Billboard");
    const res = await apiLeaguesLoader({
      request: new Request("http://localhost/api/v1/rankings/leagues?pageSize=100"),
      context: ctx(),
      params: {},
    });
    const body = (await res.json()) as { data: { id: number; name: string }[] };
    const ids = body.data.map((l) => l.id);
    expect(ids).toContain(pair.id);
    expect(ids).not.toContain(solo.id);
    expect(body.data.every((l) => !l.name.startsWith("Spam "))).toBe(true);
    // The ranking page tells the league's owner why it is not there.
    const page = await loadLeaguesRanking(
      request("/leagues-ranking", { cookie: await cookieFor(ctx(), b) }),
      ctx(),
    );
    expect(page.rows.map((r) => r.id)).not.toContain(solo.id);
    expect(page.myLeagues).toContainEqual(
      expect.objectContaining({ id: solo.id, needsMembers: true }),
    );
    expect(page.myLeagues).toContainEqual(
      expect.objectContaining({ id: pair.id, needsMembers: false }),
    );
  });
});
