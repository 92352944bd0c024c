import { CSV_MAX_BYTES } from "@game/core";
import {
  auditLog,
  createSession,
  getEvent,
  getSession,
  getUserById,
  listPartners,
  listRacersForAdmin,
  recordMail,
} from "@game/db";
import { createTestDb, type DbHandle } from "@game/db/testing";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cookieFor, makeUser, request, testContext } from "../../tests/support/context";
import { loader as homeLoader } from "./_index";
import * as layout from "./admin";
import * as dashboard from "./admin._index";
import * as audit from "./admin.audit";
import * as competitions from "./admin.competitions";
import * as events from "./admin.events";
import * as outbox from "./admin.outbox";
import * as partners from "./admin.partners";
import * as racersApi from "./admin.racers";
import * as users from "./admin.users";

let h: DbHandle;
let ctx: ReturnType<typeof testContext>;
let admin: Awaited<ReturnType<typeof makeUser>>;
let adminCookie: string;
let player: Awaited<ReturnType<typeof makeUser>>;
let playerCookie: string;

beforeAll(async () => {
  h = await createTestDb({ seed: true });
  ctx = testContext(h.db);
  admin = await makeUser(h.db, { role: "admin" });
  adminCookie = await cookieFor(ctx, admin);
  player = await makeUser(h.db);
  playerCookie = await cookieFor(ctx, player);
});
afterAll(() => h.close());

type Loader = (args: LoaderFunctionArgs) => unknown;
type Action = (args: ActionFunctionArgs) => unknown;

const LOADERS: [string, Loader][] = [
  ["/admin", layout.loader],
  ["/admin?index", dashboard.loader],
  ["/admin/racers", racersApi.loader],
  ["/admin/competitions", competitions.loader],
  ["/admin/events", events.loader],
  ["/admin/users", users.loader],
  ["/admin/partners", partners.loader],
  ["/admin/outbox", outbox.loader],
  ["/admin/audit", audit.loader],
];

/** Each action with a post that would change something if it were let through. */
function actions(): [string, Action, () => Request][] {
  const form = (path: string, body: Record<string, string>, cookie?: string) => () =>
    request(path, { cookie, form: body });
  return [
    ["/admin?index", dashboard.action, () => jsonUpload("/admin?index", RACERS, undefined)],
    ["/admin/racers", racersApi.action, () => jsonUpload("/admin/racers", RACERS, undefined)],
    [
      "/admin/competitions",
      competitions.action,
      form("/admin/competitions", {
        intent: "create",
        name: "Sneaky Cup",
        discipline: "downhill",
        teamSize: "6",
        budget: "1000000",
        minWomen: "2",
        minJuniors: "1",
        lockHours: "12",
      }),
    ],
    [
      "/admin/events",
      events.action,
      form("/admin/events", { eventId: "6", status: "open", startsAt: "2027-05-16T16:00" }),
    ],
    [
      "/admin/users",
      users.action,
      form("/admin/users", { intent: "grant-admin", userId: String(player.id) }),
    ],
    [
      "/admin/partners",
      partners.action,
      form("/admin/partners", { name: "Evil", origins: "https://evil.example" }),
    ],
  ];
}

const RACERS = [
  { Category: "Pro Men", "First Name": "Route", "Last Name": "Tester", "Game ID": "7" },
];

function jsonUpload(path: string, records: unknown, cookie: string | undefined, extra = {}) {
  const headers = new Headers({ "Content-Type": "application/json", Origin: "http://localhost" });
  if (cookie) headers.set("Cookie", cookie);
  return new Request(`http://localhost${path}`, {
    method: "POST",
    headers,
    body: JSON.stringify({ fileName: "racers.csv", records, ...extra }),
  });
}

function withCookie(req: Request, cookie: string | undefined): Request {
  const headers = new Headers(req.headers);
  if (cookie) headers.set("Cookie", cookie);
  return new Request(req, { headers });
}

/** What a loader or action threw or returned, as a Response when it is one. */
async function outcome(fn: () => unknown): Promise<unknown> {
  try {
    return await fn();
  } catch (thrown) {
    return thrown;
  }
}

/** The body and status of an action's `data()` answer or a plain Response. */
interface Body {
  ok?: boolean;
  error?: string;
  errors?: Record<string, string>;
  message?: string;
  summary?: { created: number; updated: number; unchanged: number };
}

async function answer(value: unknown): Promise<{ status: number; body: Body }> {
  if (value instanceof Response) return { status: value.status, body: await value.json() };
  const v = value as { data?: unknown; init?: { status?: number } | null };
  return { status: v.init?.status ?? 200, body: v.data as Body };
}

describe("admin access", () => {
  it("sends visitors to log in and refuses players (403) on every admin page", async () => {
    for (const [path, loader] of LOADERS) {
      const visitor = (await outcome(() =>
        loader({ request: request(path), context: ctx, params: {} }),
      )) as Response;
      expect(visitor.status, path).toBe(302);
      expect(visitor.headers.get("Location"), path).toMatch(/^\/\?login=1&redirectTo=%2Fadmin/);
      const player = (await outcome(() =>
        loader({ request: request(path, { cookie: playerCookie }), context: ctx, params: {} }),
      )) as Response;
      expect(player, path).toBeInstanceOf(Response);
      expect(player.status, path).toBe(403);
    }
  });

  it("refuses players (403) on every admin action, and nothing changes", async () => {
    const before = await h.db.select().from(auditLog);
    for (const [path, action, make] of actions()) {
      const player = (await outcome(() =>
        action({ request: withCookie(make(), playerCookie), context: ctx, params: {} }),
      )) as Response;
      expect(player, path).toBeInstanceOf(Response);
      expect(player.status, path).toBe(403);
      const visitor = (await outcome(() =>
        action({ request: make(), context: ctx, params: {} }),
      )) as Response;
      expect(visitor.status, path).toBe(302);
    }
    expect((await getEvent(h.db, 6))?.status).toBe("closed");
    expect((await getUserById(h.db, player.id))?.role).toBe("player");
    expect(await listPartners(h.db)).toEqual([]);
    expect((await listRacersForAdmin(h.db, { gameId: 7 })).total).toBe(0);
    expect(await h.db.select().from(auditLog)).toEqual(before);
  });

  it("opens every admin page to an admin", async () => {
    for (const [path, loader] of LOADERS) {
      const r = await outcome(() =>
        loader({ request: request(path, { cookie: adminCookie }), context: ctx, params: {} }),
      );
      if (path === "/admin/racers") {
        expect((r as Response).headers.get("Location")).toBe("/admin");
      } else {
        expect(r, path).not.toBeInstanceOf(Response);
      }
    }
  });
});

describe("racer upload", () => {
  const upload = (records: unknown, extra = {}) =>
    racersApi.action({
      request: jsonUpload("/admin/racers", records, adminCookie, extra),
      context: ctx,
      params: {},
    });

  it("imports the rows the browser parsed, once, and records the admin", async () => {
    const records = [
      { Category: "Pro Women", "First Name": "Json", "Last Name": "Upload", "Game ID": "8" },
      { Category: "Pro Women", "First Name": "", "Last Name": "Nameless", "Game ID": "8" },
      { Category: "Pro Men", "First Name": '=HYPERLINK("x")', "Last Name": "Cell", "Game ID": "8" },
    ];
    const first = await answer(await upload(records));
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      ok: true,
      fileName: "racers.csv",
      summary: {
        rows: 3,
        created: 2,
        updated: 0,
        skipped: [{ line: 3, reason: "missing First Name" }],
      },
    });
    const again = await answer(await upload(records));
    expect(again.body.summary).toMatchObject({ created: 0, updated: 0, unchanged: 2 });
    const listed = await listRacersForAdmin(h.db, { gameId: 8 });
    expect(listed.rows.map((r) => r.firstName).sort()).toEqual(['=HYPERLINK("x")', "Json"]);
    const [entry] = await h.db.select().from(auditLog).where(eq(auditLog.action, "racers.import"));
    expect(entry).toMatchObject({ actor: `web:${admin.email}`, actorId: admin.id });
  });

  it("refuses what it cannot import, with a reason, writing nothing", async () => {
    const cases: [unknown, object, number, RegExp][] = [
      [[], {}, 400, /^No data to upload\. Please select a valid CSV file\. The file is empty\.$/],
      [
        [{ Category: "Pro Men", "First Name": "A", "Last Name": "B", "Game ID": "99" }],
        {},
        400,
        /None of the rows/,
      ],
      [[{ Category: "Pro Men" }], {}, 400, /no First Name, Last Name column/],
      ["not rows", {}, 400, /No racer rows were sent/],
      [RACERS, { bytes: CSV_MAX_BYTES + 1 }, 413, /limited to 5\.0 MB/],
    ];
    for (const [records, extra, status, error] of cases) {
      const r = await answer(await upload(records, extra));
      expect(r.status).toBe(status);
      expect(r.body.ok).toBe(false);
      expect(r.body.error).toMatch(error);
    }
    const broken = new Request("http://localhost/admin/racers", {
      method: "POST",
      headers: { "Content-Type": "application/json", Cookie: adminCookie },
      body: "{not json",
    });
    const r = await answer(await racersApi.action({ request: broken, context: ctx, params: {} }));
    expect(r).toEqual({ status: 400, body: { ok: false, error: "The upload could not be read." } });
    expect((await listRacersForAdmin(h.db, { gameId: 99 })).total).toBe(0);
  });

  it("takes the CSV file itself in a plain multipart form (no JavaScript)", async () => {
    const post = (file: File | null) => {
      const form = new FormData();
      if (file) form.set("file", file);
      return dashboard.action({
        request: new Request("http://localhost/admin?index", {
          method: "POST",
          headers: { Cookie: adminCookie },
          body: form,
        }),
        context: ctx,
        params: {},
      });
    };
    const csv =
      "\uFEFFCategory,First Name,Last Name,Game ID,Price\r\nPro Men,Form,Upload,9,$90000\r\n";
    const ok = await answer(await post(new File([csv], "form.csv", { type: "text/csv" })));
    expect(ok.body).toMatchObject({ ok: true, fileName: "form.csv", summary: { created: 1 } });
    expect((await listRacersForAdmin(h.db, { gameId: 9 })).rows[0]?.price).toBe(90000);
    const none = await answer(await post(null));
    expect(none.body.error).toBe("No data to upload. Please select a valid CSV file.");
    const bad = await answer(await post(new File(["Surname\nX\n"], "bad.csv")));
    expect(bad.body.error).toMatch(/^Line 1: the header has no Category, First Name, Last Name/);
    // Excel's plain CSV (Windows-1252) is decoded, not mangled.
    const cp1252 = new Uint8Array([
      ...new TextEncoder().encode("Category,First Name,Last Name,Game ID\r\nPro Men,Lo"),
      0xef,
      ...new TextEncoder().encode("c,Windows,9\r\n"),
    ]);
    const latin = await answer(await post(new File([cp1252], "excel.csv")));
    expect(latin.body).toMatchObject({ ok: true, summary: { encoding: "Windows-1252" } });
    const names = (await listRacersForAdmin(h.db, { gameId: 9 })).rows.map((r) => r.firstName);
    expect(names).toContain("Loïc");
  });

  it("reads the text the browser sends with the same rules; a dry run lists changes, writes nothing", async () => {
    const text =
      "Category,First Name,Last Name,Game ID,Price,\n\nPro Men,Text,Upload,8,80000,\nPro Men,Comma,Name, Jr,8,1\n";
    const before = (await listRacersForAdmin(h.db, { gameId: 8 })).total;
    const dry = await answer(await upload(undefined, { text, dryRun: true }));
    expect(dry.status).toBe(200);
    expect(dry.body.summary).toMatchObject({
      dryRun: true,
      created: 1,
      skipped: [{ line: 4, reason: expect.stringContaining("more cell than the header has") }],
      changes: [{ line: 3, action: "create", name: "Text Upload" }],
    });
    expect((await listRacersForAdmin(h.db, { gameId: 8 })).total).toBe(before);
    const real = await answer(await upload(undefined, { text }));
    expect(real.body.summary).toMatchObject({ dryRun: false, created: 1 });
    expect((await listRacersForAdmin(h.db, { gameId: 8 })).total).toBe(before + 1);
  });
});

describe("events", () => {
  const save = (form: Record<string, string>) =>
    events.action({
      request: request("/admin/events", { cookie: adminCookie, form }),
      context: ctx,
      params: {},
    });

  it("opens an event and moves its start, given in the admin's zone; the home page shows it", async () => {
    // Round 2 gets round 1's racers (a round without racers cannot be opened).
    await h.db.execute(sql`
      insert into racers (game_id, person_id, category, first_name, last_name, name_key, price)
      select 6, person_id, category, first_name, last_name, name_key, price from racers
      where game_id = 5`);
    const r = await answer(
      await save({
        eventId: "6",
        status: "open",
        startsAt: "2027-05-16T09:30",
        timeZone: "America/Los_Angeles",
      }),
    );
    expect(r.status).toBe(200);
    expect(r.body.message).toBe(
      "Saved Pro Downhill Series Round 2: Snowshoe: open, starts Sunday 16 May 2027, 09:30 PDT (America/Los_Angeles).",
    );
    const event = await getEvent(h.db, 6);
    expect(event?.status).toBe("open");
    expect(event?.startsAt.toISOString()).toBe("2027-05-16T16:30:00.000Z");
    const home = (await homeLoader({ request: request("/"), context: ctx, params: {} })) as {
      events: { id: number; status: string }[];
    };
    expect(home.events.find((e) => e.id === 6)?.status).toBe("open");
    const logged = await h.db.select().from(auditLog).where(eq(auditLog.target, "event:6"));
    expect(logged.map((e) => e.action).sort()).toEqual(["event.schedule", "event.status"]);
  });

  it("changes nothing when any part of the row is wrong", async () => {
    const before = await getEvent(h.db, 7);
    const cases: [Record<string, string>, number, string, string][] = [
      [{ eventId: "7", status: "paused", startsAt: "2027-06-20T17:00" }, 400, "status", "Choose"],
      [
        { eventId: "7", status: "open", startsAt: "2027-02-30T10:00" },
        400,
        "startsAt",
        "does not exist",
      ],
      [{ eventId: "7", status: "open", startsAt: "2227-06-20T10:00" }, 400, "startsAt", "2099"],
      [{ eventId: "77", status: "open", startsAt: "2027-06-20T10:00" }, 404, "form", "No event"],
      [
        { eventId: "7", status: "open", startsAt: "2027-06-20T10:00", timeZone: "Mars/Base" },
        400,
        "timeZone",
        "Unknown",
      ],
    ];
    for (const [form, status, field, text] of cases) {
      const r = await answer(await save(form));
      expect(r.status, JSON.stringify(form)).toBe(status);
      expect(r.body.errors?.[field], JSON.stringify(form)).toContain(text);
    }
    expect(await getEvent(h.db, 7)).toEqual(before);
  });
});

describe("users", () => {
  const change = (intent: string, userId: number) =>
    users.action({
      request: request("/admin/users", {
        cookie: adminCookie,
        form: { intent, userId: String(userId) },
      }),
      context: ctx,
      params: {},
    });

  it("blocks (ending their sessions), accepts, and grants admin", async () => {
    const rider = await makeUser(h.db, { username: "blockme" });
    const { token } = await createSession(h.db, rider.id);
    const blocked = await answer(await change("block", rider.id));
    expect(blocked.body).toEqual({
      ok: true,
      userId: rider.id,
      message: "blockme is blocked and signed out everywhere.",
    });
    expect(await getSession(h.db, token)).toBeNull();
    expect((await answer(await change("accept", rider.id))).body.ok).toBe(true);
    expect((await answer(await change("grant-admin", rider.id))).body.message).toBe(
      "blockme is now an admin.",
    );
    expect(await getUserById(h.db, rider.id)).toMatchObject({ accepted: true, role: "admin" });
    expect((await answer(await change("revoke-admin", rider.id))).body.message).toBe(
      "blockme is no longer an admin.",
    );
    expect((await getUserById(h.db, rider.id))?.role).toBe("player");
    // The signed-in admin cannot remove their own rights (another admin can).
    expect((await answer(await change("revoke-admin", admin.id))).body.error).toBe(
      "You cannot remove your own admin rights: ask another admin.",
    );
  });

  it("lists and searches users", async () => {
    const found = (await users.loader({
      request: request("/admin/users?q=blockme", { cookie: adminCookie }),
      context: ctx,
      params: {},
    })) as { users: { username: string }[]; total: number };
    expect(found.users.map((u) => u.username)).toEqual(["blockme"]);
  });

  it("refuses blocking yourself, unknown users and unknown actions", async () => {
    expect((await answer(await change("block", admin.id))).body.error).toBe(
      "You cannot block yourself.",
    );
    expect((await answer(await change("block", 999_999))).status).toBe(404);
    expect((await answer(await change("delete", admin.id))).status).toBe(400);
    expect((await getUserById(h.db, admin.id))?.accepted).toBe(true);
  });
});

describe("partners", () => {
  const add = (form: Record<string, string>) =>
    partners.action({
      request: request("/admin/partners", { cookie: adminCookie, form }),
      context: ctx,
      params: {},
    });

  it("adds a partner and shows its new key", async () => {
    const r = await answer(
      await add({
        name: "Trail News",
        origins: "https://trail.example\nhttps://www.trail.example/",
      }),
    );
    expect(r.body).toMatchObject({
      ok: true,
      name: "Trail News",
      publishableKey: expect.stringMatching(/^pk_/),
    });
    const [p] = await listPartners(h.db);
    expect(p?.origins).toEqual(["https://trail.example", "https://www.trail.example"]);
  });

  it("explains bad input next to the fields and keeps what was typed", async () => {
    const r = await answer(await add({ name: "", origins: "trail.example/embed" }));
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual({ name: "Give the partner a name." });
    const origins = await answer(await add({ name: "X", origins: "https://x.example/embed" }));
    expect(origins.body).toMatchObject({
      ok: false,
      errors: { origins: expect.stringContaining("is not a web origin") },
      values: { name: "X", origins: "https://x.example/embed" },
    });
  });
});

describe("outbox and audit log", () => {
  it("lists mail newest first with its status, and the audit log with a filter", async () => {
    await recordMail(h.db, { to: "rider@example.com", subject: "Invitation", text: "<b>hi</b>" });
    const mail = (await outbox.loader({
      request: request("/admin/outbox", { cookie: adminCookie }),
      context: ctx,
      params: {},
    })) as { smtp: boolean; mails: { subject: string; status: string; text: string }[] };
    expect(mail.smtp).toBe(false);
    expect(mail.mails[0]).toMatchObject({
      subject: "Invitation",
      status: "stored",
      text: "<b>hi</b>",
    });

    const log = (await audit.loader({
      request: request("/admin/audit?action=partner.add", { cookie: adminCookie }),
      context: ctx,
      params: {},
    })) as { action: string; entries: { action: string; actor: string }[] };
    expect(log.action).toBe("partner.add");
    expect(log.entries.length).toBeGreaterThan(0);
    expect(log.entries.every((e) => e.action === "partner.add")).toBe(true);
    expect(log.entries[0]!.actor).toBe(`web:${admin.email}`);
  });
});
