import { listAudit } from "@game/db";
import { createTestDb, type DbHandle } from "@game/db/testing";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PortraitUploadResult } from "~/features/admin/portrait-upload.server";
import { cookieFor, makeUser, testContext } from "../../tests/support/context";
import { loader as dashboardLoader } from "./admin._index";
import { action, loader } from "./admin.portraits";

let h: DbHandle;
let ctx: ReturnType<typeof testContext>;
let adminCookie: string;
let playerCookie: string;
beforeAll(async () => {
  h = await createTestDb({ seed: true });
  ctx = testContext(h.db);
  adminCookie = await cookieFor(ctx, await makeUser(h.db, { role: "admin" }));
  playerCookie = await cookieFor(ctx, await makeUser(h.db));
});
afterAll(() => h.close());

const post = (files: File[], cookie = adminCookie) => {
  const form = new FormData();
  for (const f of files) form.append("portraits", f);
  return action({
    request: new Request("http://localhost/admin/portraits", {
      method: "POST",
      headers: { Cookie: cookie, Origin: "http://localhost" },
      body: form,
    }),
    context: ctx,
    params: {},
  });
};

async function answer(value: unknown): Promise<{ status: number; body: PortraitUploadResult }> {
  const v = value as { data?: unknown; init?: { status?: number } | null };
  return { status: v.init?.status ?? 200, body: v.data as PortraitUploadResult };
}

const jpeg = () =>
  sharp({ create: { width: 160, height: 160, channels: 3, background: "#208040" } })
    .jpeg()
    .toBuffer();

describe("POST /admin/portraits", () => {
  it("stores several files, says per file what happened, and audits as the admin", async () => {
    const r = await answer(
      await post([
        new File([await jpeg()], "Loic-Bruni.jpg", { type: "image/jpeg" }),
        new File(["just text"], "Amaury-Pierron.jpg", { type: "image/jpeg" }),
        new File([await jpeg()], "Nobody-Atall.jpg", { type: "image/jpeg" }),
      ]),
    );
    expect(r.status).toBe(200);
    expect(r.body.ok).toBe(true);
    const results = r.body.results ?? [];
    expect(results.map((x) => [x.file, x.status])).toEqual([
      ["Loic-Bruni.jpg", "stored"],
      ["Amaury-Pierron.jpg", "skipped"],
      ["Nobody-Atall.jpg", "skipped"],
    ]);
    expect(results[1]!.reason).toMatch(/Not a PNG, JPEG or WebP/);
    expect(results[2]!.reason).toMatch(/No racer/);
    const { rows } = await listAudit(h.db, { action: "racer.portrait" });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.actor).toMatch(/^web:/);
  });

  it("marks on the dashboard's racer table who has a stored portrait", async () => {
    const page = await dashboardLoader({
      request: new Request("http://localhost/admin?game=5&category=pro-men", {
        headers: { Cookie: adminCookie },
      }),
      context: ctx,
      params: {},
    });
    const face = (last: string) => page.racers.find((r) => r.lastName === last);
    expect(face("Bruni")).toMatchObject({ picture: "loic-bruni.webp", hasPortrait: true });
    expect(face("Pierron")).toMatchObject({ picture: null, hasPortrait: false });
  });

  it("asks for a file when none is chosen", async () => {
    const r = await answer(await post([]));
    expect(r).toMatchObject({ status: 400, body: { ok: false } });
    expect(r.body.ok ? "" : r.body.error).toBe("Choose one or more image files first.");
  });

  it("is for admins only", async () => {
    const refused = await post([new File([await jpeg()], "Loic-Bruni.jpg")], playerCookie).catch(
      (e: unknown) => e,
    );
    expect((refused as Response).status).toBe(403);
    const page = await loader({
      request: new Request("http://localhost/admin/portraits"),
      context: ctx,
      params: {},
    }).catch((e: unknown) => e);
    expect((page as Response).status).toBe(302);
  });
});
