import { LOCK_MS } from "@game/core";
import { events, getTeam, listTeamRacers, type TeamRacerView } from "@game/db";
import { createTestDb, type DbHandle, setRuleOptions } from "@game/db/testing";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cookieFor, makeUser, request, testContext } from "../../../tests/support/context";
import { loadTeamSetup, teamSetupAction } from "./setup.server";
import { SAVE_FAILED, SAVE_OK, type TeamActionResult } from "./team-form";

/* The captain in the team builder (docs/decisions/0168): saved, and named without JavaScript. */

let h: DbHandle;
let pool: TeamRacerView[];
let early: Date;

const setCaptains = (on: boolean) => setRuleOptions(h.db, 5, { captain: on });

beforeAll(async () => {
  h = await createTestDb({ seed: true });
  pool = await listTeamRacers(h.db, 5);
  const [round1] = await h.db.select().from(events).where(eq(events.id, 5));
  early = new Date(round1!.startsAt.getTime() - LOCK_MS - 3 * 86_400_000);
  await setCaptains(true);
});
afterAll(() => h.close());

const cheapest = (category: TeamRacerView["category"], k: number) =>
  pool
    .filter((r) => r.category === category)
    .sort((a, b) => a.price - b.price || a.id - b.id)
    .slice(0, k)
    .map((r) => String(r.id));
const team = () => [
  ...cheapest("Pro Women", 2),
  ...cheapest("17-18 Men", 1),
  ...cheapest("Pro Men", 3),
];

async function signedIn() {
  const ctx = testContext(h.db, { now: () => early });
  const user = await makeUser(h.db);
  return { ctx, user, cookie: await cookieFor(ctx, user) };
}

async function post(
  ctx: ReturnType<typeof testContext>,
  cookie: string,
  form: Record<string, string | string[]>,
) {
  const res = await teamSetupAction(request("/team-setup?game=5", { cookie, form }), ctx);
  if (res instanceof Response) {
    return { status: res.status, location: res.headers.get("Location"), body: null };
  }
  const { data, init } = res as unknown as { data: TeamActionResult; init: ResponseInit | null };
  return { status: init?.status ?? 200, location: null, body: data };
}

async function load(ctx: ReturnType<typeof testContext>, cookie: string, path: string) {
  const res = await loadTeamSetup(request(path, { cookie }), ctx);
  return (res as unknown as { data: Awaited<ReturnType<typeof loadTeamSetup>>["data"] }).data;
}

describe("the captain in the team builder", () => {
  it("saves the captain posted with the team, and the builder starts from it", async () => {
    const { ctx, user, cookie } = await signedIn();
    const ids = team();
    const res = await post(ctx, cookie, {
      game: "5",
      racer: ids,
      captain: ids[4]!,
      intent: "save",
    });
    expect(res.body).toMatchObject({ ok: true, message: SAVE_OK, captain: Number(ids[4]) });
    expect((await getTeam(h.db, user.id, 5))!.captainId).toBe(Number(ids[4]));
    expect((await load(ctx, cookie, "/team-setup?game=5")).captain).toBe(Number(ids[4]));
  });

  it("a captain posted who is not in the draft is no captain", async () => {
    const { ctx, user, cookie } = await signedIn();
    const ids = team();
    const outsider = String(pool.find((r) => !ids.includes(String(r.id)))!.id);
    const res = await post(ctx, cookie, {
      game: "5",
      racer: ids,
      captain: outsider,
      intent: "save",
    });
    expect(res.body).toMatchObject({ ok: true, captain: null });
    expect((await getTeam(h.db, user.id, 5))!.captainId).toBeNull();
  });

  it("without JavaScript: the C button names the captain, pressing it again takes it off", async () => {
    const { ctx, cookie } = await signedIn();
    const ids = team();
    const named = await post(ctx, cookie, { game: "5", racer: ids, makeCaptain: ids[1]! });
    expect(named.status).toBe(303);
    const url = new URL(named.location!, "http://x");
    expect(url.searchParams.get("captain")).toBe(ids[1]);
    expect((await load(ctx, cookie, named.location!)).captain).toBe(Number(ids[1]));

    const off = await post(ctx, cookie, {
      game: "5",
      racer: ids,
      captain: ids[1]!,
      makeCaptain: ids[1]!,
    });
    expect(new URL(off.location!, "http://x").searchParams.has("captain")).toBe(false);
    // Removing the captain from the draft takes the armband with them.
    const removed = await post(ctx, cookie, {
      game: "5",
      racer: ids,
      captain: ids[1]!,
      remove: ids[1]!,
    });
    expect(new URL(removed.location!, "http://x").searchParams.has("captain")).toBe(false);
  });

  it("where the rules have no captains, the builder has none and a posted one is refused", async () => {
    await setCaptains(false);
    try {
      const { ctx, cookie } = await signedIn();
      const ids = team();
      expect((await load(ctx, cookie, "/team-setup?game=5")).captain).toBeNull();
      const res = await post(ctx, cookie, {
        game: "5",
        racer: ids,
        captain: ids[0]!,
        intent: "save",
      });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({
        message: SAVE_FAILED,
        reasons: ["This competition has no captains."],
      });
    } finally {
      await setCaptains(true);
    }
  });
});
