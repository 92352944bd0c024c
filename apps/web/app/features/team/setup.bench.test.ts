import { LOCK_MS } from "@game/core";
import { events, getTeam, listTeamRacers, type TeamRacerView } from "@game/db";
import { createTestDb, type DbHandle, setRuleOptions } from "@game/db/testing";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cookieFor, makeUser, request, testContext } from "../../../tests/support/context";
import { loadTeamSetup, teamSetupAction } from "./setup.server";
import { SAVE_OK, type TeamActionResult } from "./team-form";

/* The bench rider in the team builder (docs/decisions/0169): saved, and swapped without JavaScript. */

let h: DbHandle;
let pool: TeamRacerView[];
let early: Date;

beforeAll(async () => {
  h = await createTestDb({ seed: true });
  pool = await listTeamRacers(h.db, 5);
  const [round1] = await h.db.select().from(events).where(eq(events.id, 5));
  early = new Date(round1!.startsAt.getTime() - LOCK_MS - 3 * 86_400_000);
  await setRuleOptions(h.db, 5, { bench: true });
});
afterAll(() => h.close());

const cheapest = (category: TeamRacerView["category"], k: number, skip = 0) =>
  pool
    .filter((r) => r.category === category)
    .sort((a, b) => a.price - b.price || a.id - b.id)
    .slice(skip, skip + k)
    .map((r) => String(r.id));
const seven = () => [
  ...cheapest("Pro Women", 2),
  ...cheapest("17-18 Men", 1),
  ...cheapest("Pro Men", 3),
  ...cheapest("Pro Men", 1, 3),
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

describe("the bench rider in the team builder", () => {
  it("saves a seventh rider on the bench", async () => {
    const { ctx, user, cookie } = await signedIn();
    const ids = seven();
    const res = await post(ctx, cookie, { game: "5", racer: ids, intent: "save" });
    expect(res.body).toMatchObject({ ok: true, message: SAVE_OK, draft: ids.map(Number) });
    expect((await getTeam(h.db, user.id, 5))!.benchId).toBe(Number(ids[6]));
  });

  it("adds a seventh rider without JavaScript, and keeps the draft of seven in the address", async () => {
    const { ctx, cookie } = await signedIn();
    const ids = seven();
    const added = await post(ctx, cookie, { game: "5", racer: ids.slice(0, 6), add: ids[6]! });
    expect(added.status).toBe(303);
    const page = await loadTeamSetup(request(added.location!, { cookie }), ctx);
    expect((page as unknown as { data: { draft: number[] } }).data.draft).toEqual(ids.map(Number));
  });

  it("without JavaScript: Bench beside a starter swaps them with the bench rider", async () => {
    const { ctx, cookie } = await signedIn();
    const ids = seven();
    // The third Pro Man goes to the bench; the bench man starts in his place.
    const res = await post(ctx, cookie, { game: "5", racer: ids, toBench: ids[5]! });
    expect(res.status).toBe(303);
    const draft = new URL(res.location!, "http://x").searchParams.getAll("racer");
    expect(draft).toEqual([...ids.slice(0, 5), ids[6]!, ids[5]!]);
    // A team without a bench rider has nothing to swap.
    const six = await post(ctx, cookie, { game: "5", racer: ids.slice(0, 6), toBench: ids[0]! });
    expect(new URL(six.location!, "http://x").searchParams.getAll("racer")).toEqual(
      ids.slice(0, 6),
    );
  });
});
