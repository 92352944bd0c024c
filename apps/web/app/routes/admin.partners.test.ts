/**
 * Managing partners from /admin/partners (rename, origins, disable/enable, delete, with a
 * confirmation before anything that stops a partner's pages), and what the partner's pages see
 * right after: CORS on the API and `frame-ancestors` on the iframe.
 */
import {
  auditLog,
  getPartner,
  listAudit,
  type PartnerListRow,
  partners as partnerRows,
} from "@game/db";
import { createTestDb, type DbHandle } from "@game/db/testing";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { cookieFor, makeUser, request, testContext } from "../../tests/support/context";
import * as partners from "./admin.partners";
import { loader as eventsApi } from "./api.v1.events";
import { loader as embedLoader } from "./embed.team-setup";

let h: DbHandle;
let ctx: ReturnType<typeof testContext>;
let adminCookie: string;
let adminEmail: string;
let playerCookie: string;

beforeAll(async () => {
  h = await createTestDb({ seed: true });
  ctx = testContext(h.db);
  const admin = await makeUser(h.db, { role: "admin" });
  adminEmail = admin.email;
  adminCookie = await cookieFor(ctx, admin);
  playerCookie = await cookieFor(ctx, await makeUser(h.db));
});
afterAll(() => h.close());
// An origin belongs to one partner: each test starts without partners (the audit log stays).
beforeEach(async () => {
  await h.db.delete(partnerRows);
});

/** What a loader or action threw or returned. */
async function outcome(fn: () => unknown): Promise<unknown> {
  try {
    return await fn();
  } catch (thrown) {
    return thrown;
  }
}

type DataLike = { data: unknown; init?: { status?: number; headers?: HeadersInit } | null };

interface Body {
  intent?: string | null;
  ok?: boolean;
  message?: string;
  error?: string;
  field?: string;
  value?: string;
  partnerId?: number | null;
  confirm?: {
    title: string;
    message: string;
    items: string[];
    button: string;
    fields: Record<string, string>;
  };
}

async function answer(value: unknown): Promise<{ status: number; body: Body }> {
  if (value instanceof Response) {
    return { status: value.status, body: await value.json().catch(() => ({})) };
  }
  const v = value as DataLike;
  return { status: v.init?.status ?? 200, body: v.data as Body };
}

async function post(form: Record<string, string>, cookie = adminCookie, partnerId?: number) {
  const path = partnerId ? `/admin/partners?partner=${partnerId}` : "/admin/partners";
  return answer(
    await partners.action({
      request: request(path, { cookie, form }),
      context: ctx,
      params: {},
    } as ActionFunctionArgs),
  );
}

/** Posts a change to one partner, as its manage panel's form does. */
const change = (p: { id: number }, form: Record<string, string>) =>
  post({ partnerId: String(p.id), ...form }, adminCookie, p.id);

let n = 0;
async function addPartner(origins = "https://a.example\nhttps://b.example") {
  n += 1;
  const r = await post({ intent: "add", name: `Site ${n}`, origins });
  expect(r.body.ok).toBe(true);
  const all = await partners.loader({
    request: request("/admin/partners", { cookie: adminCookie }),
    context: ctx,
    params: {},
  } as LoaderFunctionArgs);
  const row = all.partners.find((p) => p.name === `Site ${n}`)!;
  return (await getPartner(h.db, row.id)) as PartnerListRow;
}

describe("the partners page", () => {
  it("still adds a partner from a form without an intent (older pages)", async () => {
    const r = await post({ name: "No Intent", origins: "https://ni.example" });
    expect(r.body).toMatchObject({ intent: "add", ok: true, name: "No Intent" });
  });

  it("opens the manage panel for ?partner=ID, and ignores an unknown id", async () => {
    const p = await addPartner();
    const load = (q: string) =>
      partners.loader({
        request: request(`/admin/partners${q}`, { cookie: adminCookie }),
        context: ctx,
        params: {},
      } as LoaderFunctionArgs);
    expect((await load(`?partner=${p.id}`)).manageId).toBe(p.id);
    expect((await load("?partner=999999")).manageId).toBeNull();
    expect((await load("?partner=abc")).manageId).toBeNull();
    const row = (await load("")).partners.find((x) => x.id === p.id);
    expect(row).toMatchObject({ disabledAt: null, origins: p.origins });
  });

  it("refuses players (403) and visitors (log in) on every change, changing nothing", async () => {
    const p = await addPartner();
    const before = await h.db.select().from(auditLog);
    const forms: Record<string, string>[] = [
      { intent: "rename", name: "Evil" },
      { intent: "origins", origins: "https://evil.example", confirm: "yes" },
      { intent: "disable", confirm: "yes" },
    ];
    for (const form of forms) {
      const full = { partnerId: String(p.id), ...form };
      const player = (await outcome(() =>
        partners.action({
          request: request("/admin/partners", { cookie: playerCookie, form: full }),
          context: ctx,
          params: {},
        }),
      )) as Response;
      expect(player.status, form.intent).toBe(403);
      const visitor = (await outcome(() =>
        partners.action({
          request: request("/admin/partners", { form: full }),
          context: ctx,
          params: {},
        }),
      )) as Response;
      expect(visitor.status, form.intent).toBe(302);
    }
    expect(await getPartner(h.db, p.id)).toEqual(p);
    expect(await h.db.select().from(auditLog)).toEqual(before);
  });
});

describe("rename", () => {
  it("renames and audits with the admin's name; a bad name is shown next to the field", async () => {
    const p = await addPartner();
    const r = await change(p, { intent: "rename", name: "  Trail Weekly " });
    expect(r).toEqual({
      status: 200,
      body: { intent: "rename", partnerId: p.id, ok: true, message: "Renamed to Trail Weekly." },
    });
    const [entry] = (await listAudit(h.db, { action: "partner.rename" })).rows;
    expect(entry).toMatchObject({ actor: `web:${adminEmail}`, target: `partner:${p.id}` });

    const bad = await change(p, { intent: "rename", name: " " });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      ok: false,
      field: "name",
      error: "Give the partner a name.",
      value: " ",
    });
    expect((await getPartner(h.db, p.id))?.name).toBe("Trail Weekly");
  });

  it("answers 404 for a partner that is gone, and 400 for a bad form", async () => {
    const gone = await change({ id: 987_654 }, { intent: "rename", name: "X" });
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ ok: false, error: "That partner no longer exists." });
    expect(gone.body.field).toBeUndefined();
    const unknown = await post({ intent: "explode", partnerId: "1" });
    expect(unknown).toMatchObject({ status: 400, body: { ok: false, error: "Unknown action." } });
    const noId = await post({ intent: "disable" });
    expect(noId).toMatchObject({ status: 400, body: { ok: false, error: "Missing partner." } });
  });
});

describe("origins", () => {
  it("adds origins at once, normalised like the add form", async () => {
    const p = await addPartner("https://a.example");
    const r = await change(p, {
      intent: "origins",
      origins: "https://a.example\nHTTPS://New.example/",
    });
    expect(r.body).toMatchObject({
      ok: true,
      message: `Saved ${p.name}'s origins: added https://new.example.`,
    });
    expect((await getPartner(h.db, p.id))?.origins).toEqual([
      "https://a.example",
      "https://new.example",
    ]);
  });

  it("asks before removing an origin, and removes it once confirmed", async () => {
    const p = await addPartner("https://keep.example\nhttps://drop.example");
    const asked = await change(p, { intent: "origins", origins: "https://keep.example\n" });
    expect(asked.status).toBe(200);
    expect(asked.body).toMatchObject({
      ok: false,
      confirm: {
        title: `Remove an origin from ${p.name}?`,
        items: ["https://drop.example"],
        button: "Remove it and save",
        fields: { intent: "origins", partnerId: String(p.id), origins: "https://keep.example" },
      },
    });
    expect((await getPartner(h.db, p.id))?.origins).toEqual(p.origins);

    const done = await change(p, { ...asked.body.confirm!.fields, confirm: "yes" });
    expect(done.body).toMatchObject({
      ok: true,
      message: `Saved ${p.name}'s origins: removed https://drop.example.`,
    });
    expect((await getPartner(h.db, p.id))?.origins).toEqual(["https://keep.example"]);
  });

  it("shows bad origins next to the field, keeping what was typed", async () => {
    const p = await addPartner();
    for (const [origins, error] of [
      ["https://a.example/embed", /is not a web origin/],
      ["", /at least one origin/],
    ] as const) {
      const r = await change(p, { intent: "origins", origins, confirm: "yes" });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ ok: false, field: "origins", value: origins });
      expect(r.body.error).toMatch(error);
    }
    expect((await getPartner(h.db, p.id))?.origins).toEqual(p.origins);
  });

  it("refuses an origin another partner owns, naming the owner, on add and on edit", async () => {
    const owner = await addPartner("https://owned.example");
    const taken = `https://owned.example already belongs to ${owner.name} (partner ${owner.id}): an origin belongs to one partner.`;
    const add = await post({ intent: "add", name: "Copycat", origins: "https://owned.example" });
    expect(add.status).toBe(400);
    expect(add.body).toMatchObject({ ok: false, errors: { form: taken } });
    const other = await addPartner("https://other.example");
    const edit = await change(other, {
      intent: "origins",
      origins: "https://other.example\nhttps://owned.example",
      confirm: "yes",
    });
    expect(edit.status).toBe(400);
    expect(edit.body).toMatchObject({ ok: false, field: "origins", error: taken });
    expect((await getPartner(h.db, other.id))?.origins).toEqual(["https://other.example"]);
  });
});

describe("disable, enable, delete", () => {
  it("asks before disabling, keeps the key, and enables again without asking", async () => {
    const p = await addPartner();
    const asked = await change(p, { intent: "disable" });
    expect(asked.body.confirm).toMatchObject({
      title: `Disable ${p.name}?`,
      button: `Disable ${p.name}`,
      fields: { intent: "disable", partnerId: String(p.id) },
    });
    expect((await getPartner(h.db, p.id))?.disabledAt).toBeNull();

    const off = await change(p, { intent: "disable", confirm: "yes" });
    expect(off.body).toMatchObject({ ok: true, intent: "disable" });
    const stored = await getPartner(h.db, p.id);
    expect(stored?.disabledAt).toBeInstanceOf(Date);
    expect(stored?.publishableKey).toBe(p.publishableKey);

    const on = await change(p, { intent: "enable" });
    expect(on.body).toMatchObject({
      ok: true,
      message: `${p.name} is enabled again: its pages work with the same key.`,
    });
    expect((await getPartner(h.db, p.id))?.disabledAt).toBeNull();
  });

  it("deletes only a disabled partner, only after confirmation", async () => {
    const p = await addPartner();
    const live = await change(p, { intent: "delete", confirm: "yes" });
    expect(live).toMatchObject({
      status: 400,
      body: { ok: false, error: `Disable ${p.name} before deleting it.` },
    });
    await change(p, { intent: "disable", confirm: "yes" });
    const asked = await change(p, { intent: "delete" });
    expect(asked.body.confirm).toMatchObject({
      title: `Delete ${p.name} for good?`,
      message: expect.stringContaining(p.publishableKey),
    });
    expect(await getPartner(h.db, p.id)).toBeDefined();
    const gone = await change(p, { ...asked.body.confirm!.fields, confirm: "yes" });
    expect(gone.body).toMatchObject({ ok: true, intent: "delete", partnerId: p.id });
    expect(await getPartner(h.db, p.id)).toBeUndefined();
    expect(
      (await listAudit(h.db, { action: "partner.delete" })).rows.map((r) => r.target),
    ).toContain(`partner:${p.id}`);
  });
});

describe("what a partner's pages see after a change", () => {
  let ip = 0;
  async function cors(origin: string): Promise<string | null> {
    ip += 1;
    const res = await eventsApi({
      request: new Request("http://localhost/api/v1/events", { headers: { Origin: origin } }),
      context: { ...ctx, clientIp: `10.9.0.${ip}` },
      params: {},
    });
    return res.headers.get("Access-Control-Allow-Origin");
  }

  async function framing(key: string): Promise<{ status: number; csp: string | null }> {
    const r = await outcome(() =>
      embedLoader({
        request: new Request(`http://localhost/embed/team-setup?partner=${key}&event=5`),
        context: ctx,
        params: {},
      }),
    );
    const v = r as DataLike;
    const headers = r instanceof Response ? r.headers : new Headers(v.init?.headers ?? {});
    const status = r instanceof Response ? r.status : (v.init?.status ?? 200);
    return { status, csp: headers.get("Content-Security-Policy") };
  }

  it("stops CORS and framing for a removed origin on the next request", async () => {
    const p = await addPartner("https://stay.example\nhttps://leave.example");
    expect(await cors("https://leave.example")).toBe("https://leave.example");
    expect((await framing(p.publishableKey)).csp).toBe(
      "frame-ancestors https://stay.example https://leave.example",
    );
    await change(p, { intent: "origins", origins: "https://stay.example", confirm: "yes" });
    expect(await cors("https://leave.example")).toBeNull();
    expect(await cors("https://stay.example")).toBe("https://stay.example");
    expect(await framing(p.publishableKey)).toEqual({
      status: 200,
      csp: "frame-ancestors https://stay.example",
    });
  });

  it("stops both for a disabled partner, and brings them back when it is enabled", async () => {
    const p = await addPartner("https://paused.example");
    await change(p, { intent: "disable", confirm: "yes" });
    expect(await cors("https://paused.example")).toBeNull();
    expect(await framing(p.publishableKey)).toEqual({
      status: 404,
      csp: "frame-ancestors 'none'",
    });
    await change(p, { intent: "enable" });
    expect(await cors("https://paused.example")).toBe("https://paused.example");
    expect(await framing(p.publishableKey)).toEqual({
      status: 200,
      csp: "frame-ancestors https://paused.example",
    });
  });
});
