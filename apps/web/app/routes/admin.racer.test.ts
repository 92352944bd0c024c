import { listAudit, listRacersForAdmin } from "@game/db";
import { createTestDb, type DbHandle } from "@game/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cookieFor, makeUser, request, testContext } from "../../tests/support/context";
import * as racerPage from "./admin.racer.$id";

let h: DbHandle;
let ctx: ReturnType<typeof testContext>;
let adminCookie: string;
let playerCookie: string;
let racerId: number;

beforeAll(async () => {
  h = await createTestDb({ seed: true });
  ctx = testContext(h.db);
  adminCookie = await cookieFor(ctx, await makeUser(h.db, { role: "admin" }));
  playerCookie = await cookieFor(ctx, await makeUser(h.db));
  racerId = (await listRacersForAdmin(h.db, { gameId: 5, limit: 1 })).rows[0]!.id;
});
afterAll(() => h.close());

async function post(form: Record<string, string>, cookie = adminCookie, id = racerId) {
  const path = `/admin/racer/${id}`;
  const res = (await racerPage.action({
    request: request(path, { cookie, form }),
    context: ctx,
    params: { id: String(id) },
  })) as unknown as { data: racerPage.RacerFormResult; init: ResponseInit | null };
  return { status: res.init?.status ?? 200, body: res.data };
}

const current = async () =>
  (await listRacersForAdmin(h.db, { gameId: 5, limit: 1000 })).rows.find((r) => r.id === racerId)!;

describe("/admin/racer/:id", () => {
  it("is for admins only", async () => {
    await expect(
      racerPage.loader({
        request: request(`/admin/racer/${racerId}`, { cookie: playerCookie }),
        context: ctx,
        params: { id: String(racerId) },
      }),
    ).rejects.toSatisfy((r: Response) => r.status === 403);
  });

  it("saves only what changed, refuses bad numbers, and audits", async () => {
    const before = await current();
    const form = {
      intent: "save",
      category: before.category,
      firstName: before.firstName,
      lastName: before.lastName,
      origin: before.origin,
      picture: before.picture ?? "",
      rank2024: String(before.rank2024),
      totalPoint2024: String(before.totalPoint2024),
      price: "123,000",
    };
    const saved = await post(form);
    expect(saved.body).toEqual({ ok: true, message: `Saved: Price ${before.price} → 123000.` });
    expect((await current()).price).toBe(123000);
    expect((await post({ ...form, price: "-5" })).body).toEqual({
      ok: false,
      error: "Price must be a whole number from 0.",
    });
    expect((await post({ ...form, firstName: "" })).status).toBe(400);
    expect((await current()).price).toBe(123000);
    expect((await listAudit(h.db, { action: "racer.set" })).total).toBe(1);
  });

  it("withdraws and reinstates, saying what it means", async () => {
    const w = await post({ intent: "withdraw" });
    expect(w.body).toMatchObject({ ok: true, message: expect.stringContaining("is withdrawn") });
    expect((await current()).withdrawnAt).not.toBeNull();
    const page = (await racerPage.loader({
      request: request(`/admin/racer/${racerId}`, { cookie: adminCookie }),
      context: ctx,
      params: { id: String(racerId) },
    })) as { racer: { withdrawnAt: string | null; teamsHolding: number } };
    expect(page.racer.withdrawnAt).not.toBeNull();
    expect((await post({ intent: "reinstate" })).body).toMatchObject({ ok: true });
    expect((await current()).withdrawnAt).toBeNull();
    expect((await post({ intent: "delete" })).status).toBe(400);
    expect((await post({ intent: "withdraw" }, adminCookie, 999_999)).status).toBe(404);
  });
});
